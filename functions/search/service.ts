/**
 * The search service other modules call (the /api/search and /ask handlers, the MCP tools).
 * CONTRACT FOR OTHER MODULES — implemented by the search module:
 *   searchEpisodes(data, { query, limit, offset }) → { total, results }   (same ranking as /api/search)
 *   askEpisodes(data, { query, limit })            → { results }          (same ranking as /ask)
 * results are SearchResult objects (contract/schemas/search.ts), including snippet, start and timestamp.
 * Callers validate limit/offset against LIMITS first; a query that matches nothing gives { total: 0, results: [] }.
 */
import type { DataStore } from '../data.ts';
import type { SearchResult } from '../../contract/schemas/search.ts';
import { getEngine } from './engine.ts';

export interface SearchPage {
  total: number;
  results: SearchResult[];
}

export async function searchEpisodes(
  data: DataStore,
  params: { query: string; limit: number; offset: number },
): Promise<SearchPage> {
  const engine = await getEngine(data);
  const { hits } = engine.search(params.query);
  const page = hits.slice(params.offset, params.offset + params.limit);
  return { total: hits.length, results: page.map((hit) => engine.result(hit)) };
}

export async function askEpisodes(data: DataStore, params: { query: string; limit: number }): Promise<SearchPage> {
  const engine = await getEngine(data);
  const { hits } = engine.ask(params.query);
  return { total: hits.length, results: hits.slice(0, params.limit).map((hit) => engine.result(hit)) };
}
