import type { DocsExtras } from './docs.ts';
import type { LoadedContent } from '../content/load.ts';
import { SEARCH_SYNTAX_DOC } from '../../contract/search/syntax.ts';
import { TOOL_LIST } from '../../contract/mcp/tools.ts';
import { authDocsSection, oauthDocsExtras, tipDocsSection } from './discovery/docs-snippets.ts';

/** What the other modules contribute to docs.md and AGENTS.md (search syntax, MCP tools, OAuth errors). */
export function docsExtras(content: LoadedContent): DocsExtras {
  return {
    searchSyntax: SEARCH_SYNTAX_DOC,
    mcpTools: TOOL_LIST.map(({ name, description }) => ({ name, description })),
    ...oauthDocsExtras(),
    sections: [authDocsSection(content), tipDocsSection(content)],
  };
}
