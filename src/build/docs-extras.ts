import type { DocsExtras } from './docs.ts';
import { SEARCH_SYNTAX_DOC } from '../../functions/search/syntax-doc.ts';

/** What the other modules contribute to docs.md and AGENTS.md (search syntax, MCP tools, OAuth errors). */
export function docsExtras(): DocsExtras {
  return { searchSyntax: SEARCH_SYNTAX_DOC };
}
