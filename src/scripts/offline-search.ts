/**
 * Search without the API (a static host, or the API unreachable): the same engine the server runs
 * (functions/search), over the same published files, so results, snippets and timestamps match /api/search.
 * Loaded only when needed, and it loads only what a query needs, as Pagefind does: the top of the index
 * (/search/lunr-index.json: the episodes' metadata and the layout) once, then the transcript shards of the query's
 * words, and the passages and records (/search/records/<id>.json) of the results shown, each fetched once and kept
 * (bounded). Not /service.json, every episode's record (400 KB gzip at 1,000 episodes): only an index published
 * without records needs it.
 */
import './zod-jitless.ts';
import { engineFrom, type SearchEngine } from '../../functions/search/engine.ts';
import type { ServiceData } from '../../contract/schemas/service-data.ts';
import type { SearchResult } from '../../contract/schemas/search.ts';
import { TOP_INDEX_PATH } from '../../contract/schemas/search-passages.ts';

export interface OfflineSources {
  /** /search/lunr-index.json (under the site's path, if it has one); the paths in its layout are resolved under the same path. */
  index: string;
  /** /search/passages.json (not needed since layout version 2: the index's layout says where passages are). */
  passages?: string;
  /** /service.json: read only when the index's layout has no `records`. */
  service: string;
}

let engine: Promise<SearchEngine> | undefined;

/** A file the index names is gone: the site was rebuilt since the index was read (its shards' names change). */
class GoneError extends Error {}

/** A published JSON document, refused unless it answered 200. */
async function fetchJson(url: string, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, { ...init, headers: { Accept: 'application/json' } });
  if (res.status === 404 || res.status === 410) throw new GoneError(`${url}: HTTP ${res.status}`);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res;
}

/**
 * The offline engine over `get` (a published document by URL, refusing anything but 200): the top of the index as
 * text (the engine parses only the postings a query reads), then what each query needs, resolved against it.
 * Exported for bench/inproc.ts, which counts what it downloads.
 */
export async function offlineEngine(sources: OfflineSources, get: (url: string) => Promise<Response>): Promise<SearchEngine> {
  const top = await get(sources.index).then((res) => res.text());
  const service = () => get(sources.service).then((res) => res.json() as Promise<ServiceData>);
  // The layout's paths are the site's ("/search/shards/3.json"). A site served under a path (/podcast) has them
  // under that path, which the index's own address shows: resolved against the host alone they missed it.
  const index = new URL(sources.index, globalThis.location?.href);
  const sitePath = index.pathname.endsWith(TOP_INDEX_PATH) ? index.pathname.slice(0, -TOP_INDEX_PATH.length) : '';
  return engineFrom(top, service, async (path, transform) => transform(await get(new URL(`${sitePath}${path}`, index).toString())));
}

/** A page of results, as /api/search gives it. */
export async function offlinePage(
  e: SearchEngine,
  query: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; results: SearchResult[] }> {
  const { hits, total } = await e.search(query, { top: page.offset + page.limit });
  const shown = hits.slice(page.offset, page.offset + page.limit);
  return { total, results: await Promise.all(shown.map((hit) => e.result(hit))) };
}

/**
 * A rebuild publishes the transcript shards under new names and removes the old ones, while the index that names
 * them may be cached (max-age 300) here or on the way: a file it names answering 404 means the index is stale, so it
 * is read again, past the caches (`no-cache`: revalidated with the server), and the query asked once more.
 */
export async function searchOffline(
  query: string,
  page: { limit: number; offset: number },
  sources: OfflineSources,
): Promise<{ total: number; results: SearchResult[] }> {
  const start = (cache?: RequestCache) => {
    const made = offlineEngine(sources, (url) => fetchJson(url, url === sources.index && cache ? { cache } : undefined));
    made.catch(() => engine === made && (engine = undefined));
    return (engine = made);
  };
  try {
    return await offlinePage(await (engine ?? start()), query, page);
  } catch (err) {
    if (!(err instanceof GoneError)) throw err;
    return offlinePage(await start('no-cache'), query, page);
  }
}
