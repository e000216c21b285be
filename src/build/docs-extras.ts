import type { DocsExtras } from './docs.ts';
import type { LoadedContent } from '../content/load.ts';
import { SEARCH_SYNTAX_DOC } from '../../contract/search/syntax.ts';
import { TOOL_LIST } from '../../contract/mcp/tools.ts';
import { RESOURCE_TEMPLATES, uris } from '../../contract/mcp/resources.ts';
import { PROMPT_LIST } from '../../contract/mcp/prompts.ts';
import { PLAYER_URI } from '../../contract/mcp/app.ts';
import { authDocsSection, oauthDocsExtras, tipDocsSection } from './discovery/docs-snippets.ts';

/** What the other modules contribute to docs.md and AGENTS.md (search syntax, MCP tools, OAuth errors). */
export function docsExtras(content: LoadedContent): DocsExtras {
  return {
    searchSyntax: SEARCH_SYNTAX_DOC,
    mcpTools: TOOL_LIST.map(({ name, description }) => ({ name, description })),
    mcpMore: mcpMore(),
    ...oauthDocsExtras(),
    sections: [authDocsSection(content), tipDocsSection(content)],
  };
}

/** Resources, prompts and the player for docs.md and AGENTS.md, from the same registries the MCP server answers with. */
export function mcpMore(): string[] {
  return [
    `- Resources (\`resources/list\`, paged; \`resources/read\`): \`${uris.show()}\`, and through \`resources/templates/list\`: ` +
      RESOURCE_TEMPLATES.map((t) => `\`${t.uriTemplate}\` (${t.description})`).join('; '),
    `- Prompts (\`prompts/list\`, \`prompts/get\`): ` +
      PROMPT_LIST.map((p) => `\`${p.name}\`(${(p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')}): ${p.description}`).join(' '),
    `- Player (MCP Apps): search_episodes, get_episode and get_latest_episode name \`${PLAYER_URI}\` in \`_meta.ui.resourceUri\`; ` +
      'hosts that support MCP Apps open a small player at the moment found, with the transcript lines around it. Other hosts get the same answer as text.',
  ];
}
