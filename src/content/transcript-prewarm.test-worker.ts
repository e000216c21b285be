/**
 * transcript-prewarm.test.ts's load, on a thread of its own: the cache's keys include the parser's source text,
 * which Node's own loader (the helper's, and Astro's in a build) and the test runner's transform write
 * differently, so the load must run under Node's loader to share the helper's entries, as in a build.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './load.ts';
import { configureParseCache, parseCacheStats } from './parse-cache.ts';
import { prewarmTranscripts } from './transcript-prewarm.ts';

const { sample, transcripts, cacheDir, waitForHelper, kept } = workerData as {
  sample: string;
  transcripts: string;
  cacheDir: string;
  waitForHelper: boolean;
  /** Every transcript kept before the helper starts, as in a rebuild. */
  kept: boolean;
};
configureParseCache(cacheDir);
if (kept) loadContent(sample);
const prewarm = prewarmTranscripts(transcripts, 1)!;
if (waitForHelper) await prewarm.stopped;
const before = parseCacheStats();
const { content, errors } = loadContent(sample);
const helper = await prewarm.finish();
const after = parseCacheStats();
parentPort!.postMessage({ content, errors, misses: after.misses - before.misses, hits: after.hits - before.hits, helper });
