/**
 * The search service other modules call (the /api/search and /ask handlers, the MCP tools).
 * CONTRACT FOR OTHER MODULES — implemented by the search module:
 *   searchEpisodes(data, { query, limit, offset }) → { total, results }   (same ranking as /api/search)
 *   askEpisodes(data, { query, limit })            → { results }          (same ranking as /ask)
 * results are SearchResult objects (contract/schemas/search.ts), including snippet, start and timestamp.
 * Callers validate limit/offset against LIMITS first; a query that matches nothing gives { total: 0, results: [] }.
 *
 * Answers are kept in a bounded cache by query and paging (real traffic repeats queries, and the index never
 * changes in a process); `fresh: true` computes the answer anew (the benchmark's uncached figures, a client's
 * Cache-Control: no-cache).
 */
import type { DataStore } from '../data.ts';
import type { SearchResult } from '../../contract/schemas/search.ts';
import { getEngine, loadOnce, type SearchEngine } from './engine.ts';

export interface SearchPage {
  total: number;
  results: SearchResult[];
}

export interface AnswerOptions {
  /** Do not answer from the cache (the answer computed is still cached). */
  fresh?: boolean;
}

/** About what a cached answer holds: its strings (two bytes a character, at most) and some per object. */
function answerBytes(key: string, page: SearchPage): number {
  let bytes = 2 * key.length + 64;
  for (const r of page.results) {
    bytes += 200;
    for (const value of Object.values(r)) if (typeof value === 'string') bytes += 2 * value.length;
    for (const m of (r as { moments?: Array<Record<string, unknown>> }).moments ?? []) {
      bytes += 100;
      for (const value of Object.values(m)) if (typeof value === 'string') bytes += 2 * value.length;
    }
  }
  return bytes;
}

function cached(engine: SearchEngine, key: string, fresh: boolean, compute: () => Promise<SearchPage>): Promise<SearchPage> {
  // Computed anew: the new answer replaces the one held. Weighed once known: an answer's size varies with its
  // results (snippets, moments) and its key.
  if (fresh) engine.answers.delete(key);
  const page = loadOnce(engine.answers, key, 4 * 1024, compute, (p) => answerBytes(key, p));
  // Callers get their own page and array; the results themselves are shared and must not be changed.
  return page.then((p) => ({ total: p.total, results: [...p.results] }));
}

export async function searchEpisodes(
  data: DataStore,
  params: { query: string; limit: number; offset: number },
  options: AnswerOptions = {},
): Promise<SearchPage> {
  const engine = await getEngine(data);
  return cached(engine, `search\u0000${params.limit}\u0000${params.offset}\u0000${params.query}`, options.fresh ?? false, async () => {
    const { hits, total } = await engine.search(params.query, { top: params.offset + params.limit });
    const page = hits.slice(params.offset, params.offset + params.limit);
    return { total, results: await Promise.all(page.map((hit) => engine.result(hit))) };
  });
}

export async function askEpisodes(
  data: DataStore,
  params: { query: string; limit: number },
  options: AnswerOptions = {},
): Promise<SearchPage> {
  const engine = await getEngine(data);
  return cached(engine, `ask\u0000${params.limit}\u0000${params.query}`, options.fresh ?? false, async () => {
    const { hits, total } = await engine.ask(params.query);
    return { total, results: await Promise.all(hits.slice(0, params.limit).map((hit) => engine.result(hit))) };
  });
}
