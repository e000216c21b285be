/**
 * In-process search and ask latency, in a fresh process of its own (so its heap is only the engine's):
 * a DataStore over the build output on disk, then searchEpisodes/askEpisodes (functions/search/service.ts)
 * over the fixed query set, exactly as the handlers call them. Prints one JSON line.
 *
 *   node --expose-gc bench/inproc.ts --dist <ASTRO_OUT_DIR> --queries <queries.json> [--runs 5]
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DataStore } from '../functions/data.ts';
import { askEpisodes, searchEpisodes } from '../functions/search/service.ts';
import { getEngine } from '../functions/search/engine.ts';
import { contentTypeFor } from '../contract/http-policy.ts';
import { summarizeRuns } from './lib/stats.ts';
import { processMemory } from './lib/proc.ts';
import type { QuerySet } from './queries.ts';

const { values } = parseArgs({
  options: { dist: { type: 'string' }, queries: { type: 'string' }, runs: { type: 'string', default: '5' } },
});
const clientDir = join(values.dist!, 'client');
const queries = JSON.parse(readFileSync(values.queries!, 'utf8')) as QuerySet;
const runs = Number(values.runs);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

gc();
const heapBefore = process.memoryUsage().heapUsed;
const data = new DataStore(async (path) => {
  try {
    return new Response(await readFile(join(clientDir, path)), { headers: { 'Content-Type': contentTypeFor(path) } });
  } catch {
    return new Response(null, { status: 404 });
  }
});

const t0 = performance.now();
const first = await searchEpisodes(data, { query: queries.probe, limit: 10, offset: 0 });
const firstAnswerMs = performance.now() - t0;
const processToFirstAnswerMs = performance.now();
gc();
const heapAfter = process.memoryUsage().heapUsed;

async function measure(list: string[], call: (q: string) => Promise<{ total?: number; results: unknown[] }>) {
  const all: number[][] = [];
  let totalResults = 0;
  let empty = 0;
  // One warm-up pass (JIT, lazily built snippet caches), not counted.
  for (const q of list) await call(q);
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

const search = await measure(queries.search, (query) => searchEpisodes(data, { query, limit: 10, offset: 0 }));
const ask = await measure(queries.ask, (query) => askEpisodes(data, { query, limit: 10 }));
// Diagnostics, to split the search figure: ranking alone, and searches without the implicit last-word prefix.
const engine = await getEngine(data);
const { avgMatches: _a, emptyShare: _e, ...searchRankOnly } = await measure(queries.search, async (query) => ({ results: engine.search(query).hits }));
const searchNoAutoPrefix = await measure(queries.search.map((q) => `${q} `), (query) => searchEpisodes(data, { query, limit: 10, offset: 0 }));
gc();
console.log(
  JSON.stringify({
    firstAnswerMs,
    processToFirstAnswerMs,
    probeTotal: first.total,
    engineHeapBytes: heapAfter - heapBefore,
    heapUsedBytes: process.memoryUsage().heapUsed,
    memory: processMemory(process.pid),
    search,
    ask,
    searchRankOnly,
    searchNoAutoPrefix,
  }),
);
