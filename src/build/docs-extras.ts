import type { DocsExtras } from './docs.ts';

/** What the other modules contribute to docs.md and AGENTS.md (search syntax, MCP tools, OAuth errors). */
export function docsExtras(): DocsExtras {
  return {};
}
