/**
 * The search service other modules call (the /api/search and /ask handlers, the MCP tools).
 * CONTRACT FOR OTHER MODULES — implemented by the search module:
 *   searchEpisodes(data, { query, limit, offset }) → { total, results }   (same ranking as /api/search)
 *   askEpisodes(data, { query, limit })            → { results }          (same ranking as /ask)
 * results are SearchResult objects (src/schemas/search.ts), including snippet, start and timestamp.
 */
import type { DataStore } from '../data.ts';
import type { SearchResult } from '../../src/schemas/search.ts';

export interface SearchPage {
  total: number;
  results: SearchResult[];
}

export async function searchEpisodes(
  _data: DataStore,
  _params: { query: string; limit: number; offset: number },
): Promise<SearchPage> {
  throw new Error('search engine not wired yet');
}

export async function askEpisodes(_data: DataStore, _params: { query: string; limit: number }): Promise<SearchPage> {
  throw new Error('search engine not wired yet');
}
