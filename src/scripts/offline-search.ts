/**
 * Search without the API (a static host, or the API unreachable): the same engine the server runs
 * (functions/search), over the same published files, so results, snippets and timestamps match /api/search.
 * Loaded only when needed, and it loads only what a query needs, as the server does: the top of the index
 * (/search/lunr-index.json: the episodes' metadata and the layout) and /service.json once, then the transcript
 * shards of the query's words and the passages of the results shown, each fetched once and kept (bounded).
 */
import { engineFrom, type SearchEngine } from '../../functions/search/engine.ts';
import type { ServiceData } from '../../contract/schemas/service-data.ts';
import type { SearchResult } from '../../contract/schemas/search.ts';

export interface OfflineSources {
  /** /search/lunr-index.json; the shard and passage paths in its layout are resolved against it. */
  index: string;
  /** /search/passages.json (not needed since layout version 2: the index's layout says where passages are). */
  passages?: string;
  service: string;
}

let engine: Promise<SearchEngine> | undefined;

/** A published JSON document, refused unless it answered 200. */
async function fetchJson(url: string): Promise<Response> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res;
}

async function load(sources: OfflineSources): Promise<SearchEngine> {
  // The top of the index as text: the engine parses only the postings a query reads.
  const [top, service] = await Promise.all([
    fetchJson(sources.index).then((res) => res.text()),
    fetchJson(sources.service).then((res) => res.json() as Promise<ServiceData>),
  ]);
  const base = new URL(sources.index, globalThis.location?.href);
  return engineFrom(top, service, async (path, transform) => transform(await fetchJson(new URL(path, base).toString())));
}

export async function searchOffline(
  query: string,
  page: { limit: number; offset: number },
  sources: OfflineSources,
): Promise<{ total: number; results: SearchResult[] }> {
  if (!engine) {
    engine = load(sources);
    engine.catch(() => (engine = undefined));
  }
  const e = await engine;
  const { hits, total } = await e.search(query, { top: page.offset + page.limit });
  const shown = hits.slice(page.offset, page.offset + page.limit);
  return { total, results: await Promise.all(shown.map((hit) => e.result(hit))) };
}
