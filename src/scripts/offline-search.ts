/**
 * Search without the API (a static host, or the API unreachable): the same engine the server runs
 * (functions/search), over the same published files (/search/lunr-index.json, /search/passages.json,
 * /service.json), so results, snippets and timestamps match /api/search. Loaded only when needed: Lunr and the
 * index are fetched on the first offline search and kept for the page's lifetime.
 */
import lunr from 'lunr';
import { SearchEngine } from '../../functions/search/engine.ts';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import type { ServiceData } from '../../contract/schemas/service-data.ts';
import type { SearchPassages } from '../../contract/schemas/search-passages.ts';
import type { SearchResult } from '../../contract/schemas/search.ts';

export interface OfflineSources {
  index: string;
  passages: string;
  service: string;
}

let engine: Promise<SearchEngine> | undefined;

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return (await res.json()) as T;
}

async function load(sources: OfflineSources): Promise<SearchEngine> {
  const [passages, service, serialized] = await Promise.all([
    getJson<SearchPassages>(sources.passages),
    getJson<ServiceData>(sources.service),
    getJson<object>(sources.index),
  ]);
  // The language's pipeline functions must be registered before Lunr can deserialize the index.
  const language = await loadLanguage(passages.language);
  const index = lunr.Index.load(serialized);
  return new SearchEngine(index, passages, service, new Analyzer(language));
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
  const { hits } = e.search(query);
  return { total: hits.length, results: hits.slice(page.offset, page.offset + page.limit).map((hit) => e.result(hit)) };
}
