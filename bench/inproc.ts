/**
 * In-process search and ask latency, in a fresh process of its own (so its heap is only the engine's):
 * a DataStore over the build output on disk, then searchEpisodes/askEpisodes (functions/search/service.ts)
 * over the fixed query set, exactly as the handlers call them. Prints one JSON line.
 *
 *   node --expose-gc bench/inproc.ts --dist <ASTRO_OUT_DIR> --queries <queries.json> [--runs 5] [--cache-mb <MB> [--per-passage <bytes>]]
 *
 * Since the index is loaded on demand (shards, passages) and answers are cached, it reports apart:
 *   - first time asked: each query's first run in the process (its shards and passages loaded then);
 *   - search / ask: later runs computed anew (`fresh`: no answer cache; shards and passages in their bounded caches);
 *   - cached: answers from the answer cache (repeated queries);
 *   - offline: the bytes (gzip) an offline client (src/scripts/offline-search.ts) downloads before its first answer,
 *     per query, with nothing loaded.
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { DataStore } from '../functions/data.ts';
import { askEpisodes, searchEpisodes } from '../functions/search/service.ts';
import { configureSearchCaches, getEngine } from '../functions/search/engine.ts';
import { contentTypeFor } from '../contract/http-policy.ts';
import { summarizeRuns } from './lib/stats.ts';
import { processMemory } from './lib/proc.ts';
import type { QuerySet } from './queries.ts';
import { offlineEngine, offlinePage } from '../src/scripts/offline-search.ts';

const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    queries: { type: 'string' },
    runs: { type: 'string', default: '5' },
    /** The index budget in MB (SEARCH_CACHE_MB); absent: the engine's default, as in a function isolate. */
    'cache-mb': { type: 'string' },
    /** With --cache-mb: the budget grows to this many bytes per transcript passage (npm start's default). */
    'per-passage': { type: 'string' },
  },
});
if (values['cache-mb']) configureSearchCaches(Number(values['cache-mb']), Number(values['per-passage'] ?? 0));
const clientDir = join(values.dist!, 'client');
const queries = JSON.parse(readFileSync(values.queries!, 'utf8')) as QuerySet;
const runs = Number(values.runs);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function store(): DataStore {
  return new DataStore(async (path) => {
    try {
      const bytes = await readFile(join(clientDir, path));
      return new Response(bytes, { headers: { 'Content-Type': contentTypeFor(path) } });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
}

gc();
const heapBefore = process.memoryUsage().heapUsed;
const data = store();

const t0 = performance.now();
const first = await searchEpisodes(data, { query: queries.probe, limit: 10, offset: 0 });
const firstAnswerMs = performance.now() - t0;
const processToFirstAnswerMs = performance.now();
gc();
const heapAfterFirst = process.memoryUsage().heapUsed;

type Call = (q: string) => Promise<{ total?: number; results: unknown[] }>;

async function measure(list: string[], call: Call, warm: Call = call) {
  const all: number[][] = [];
  let totalResults = 0;
  let empty = 0;
  // One warm-up pass (JIT, shards and passages loaded, answers cached), not counted here.
  for (const q of list) await warm(q);
  for (let r = 0; r < runs; r++) {
    const times: number[] = [];
    for (const q of list) {
      const s = performance.now();
      const page = await call(q);
      times.push(performance.now() - s);
      if (r === 0) {
        totalResults += page.total ?? page.results.length;
        if (!page.results.length) empty++;
      }
    }
    all.push(times);
  }
  return { ...summarizeRuns(all), avgMatches: totalResults / list.length, emptyShare: empty / list.length };
}

/** Each query's first run in this process: whatever it needs is loaded then. */
async function firstTime(list: string[], call: Call) {
  const times: number[] = [];
  for (const q of list) {
    const s = performance.now();
    await call(q);
    times.push(performance.now() - s);
  }
  return summarizeRuns([times]);
}

const fresh = { fresh: true };
const searchFirstTime = await firstTime(queries.search, (query) => searchEpisodes(data, { query, limit: 10, offset: 0 }, fresh));
const askFirstTime = await firstTime(queries.ask, (query) => askEpisodes(data, { query, limit: 10 }, fresh));
const search = await measure(queries.search, (query) => searchEpisodes(data, { query, limit: 10, offset: 0 }, fresh));
const ask = await measure(queries.ask, (query) => askEpisodes(data, { query, limit: 10 }, fresh));
const searchCached = await measure(queries.search, (query) => searchEpisodes(data, { query, limit: 10, offset: 0 }));
// Diagnostics, to split the search figure: ranking alone, and searches without the implicit last-word prefix.
const engine = await getEngine(data);
// The first page's ranking, as searchEpisodes asks for it (the best 10 selected, every match counted).
const { avgMatches: _a, emptyShare: _e, ...searchRankOnly } = await measure(queries.search, async (query) => ({ results: (await engine.search(query, { top: 10 })).hits }));
const searchNoAutoPrefix = await measure(queries.search.map((q) => `${q} `), (query) => searchEpisodes(data, { query, limit: 10, offset: 0 }, fresh));
gc();
const heapAfterAll = process.memoryUsage().heapUsed;
const loaded = engine.loaded;

// Offline: a client with nothing loaded asks one query, through the website's offline search
// (src/scripts/offline-search.ts); what it downloads (gzip, as a CDN sends it) before the answer. The first 40
// queries of the set, each from scratch.
const offline: Array<{ files: number; gzipBytes: number; rawBytes: number }> = [];
const origin = 'http://offline.invalid';
for (const query of queries.search.slice(0, 40)) {
  let files = 0;
  let gzipBytes = 0;
  let rawBytes = 0;
  const get = async (url: string) => {
    const path = new URL(url).pathname;
    const bytes = await readFile(join(clientDir, path));
    files++;
    rawBytes += bytes.byteLength;
    let gz: number;
    try {
      gz = readFileSync(join(clientDir, `${path}.gz`)).byteLength;
    } catch {
      gz = gzipSync(bytes, { level: 6 }).byteLength;
    }
    gzipBytes += Math.min(gz, bytes.byteLength);
    return new Response(bytes, { headers: { 'Content-Type': contentTypeFor(path) } });
  };
  const client = await offlineEngine({ index: `${origin}/search/lunr-index.json`, service: `${origin}/service.json` }, get);
  await offlinePage(client, query, { limit: 10, offset: 0 });
  offline.push({ files, gzipBytes, rawBytes });
}
const sortedGzip = offline.map((o) => o.gzipBytes).sort((a, b) => a - b);

console.log(
  JSON.stringify({
    cacheMb: loaded.budget / 2 ** 20,
    firstAnswerMs,
    processToFirstAnswerMs,
    probeTotal: first.total,
    engineHeapBytes: heapAfterFirst - heapBefore,
    heapUsedBytes: heapAfterAll,
    heapAfterQueriesBytes: heapAfterAll - heapBefore,
    loaded,
    memory: processMemory(process.pid),
    search,
    ask,
    searchFirstTime,
    askFirstTime,
    searchCached,
    searchRankOnly,
    searchNoAutoPrefix,
    offline: {
      queries: offline.length,
      medianGzipBytes: sortedGzip[Math.floor(sortedGzip.length / 2)],
      maxGzipBytes: sortedGzip.at(-1),
      medianFiles: offline.map((o) => o.files).sort((a, b) => a - b)[Math.floor(offline.length / 2)],
      maxRawBytes: Math.max(...offline.map((o) => o.rawBytes)),
    },
  }),
);
