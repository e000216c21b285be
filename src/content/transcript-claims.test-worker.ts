/**
 * One of transcript-prewarm.test.ts's loads that share the build's transcript claims (as the bulk documents'
 * threads do beside the content check's load), on a thread under Node's loader (see transcript-prewarm.test-worker.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadContent } from './load.ts';
import { configureParseCache, parseCacheStats } from './parse-cache.ts';
import { useTranscriptClaims, type TranscriptClaims } from './transcript-prewarm.ts';

const { sample, cacheDir, claims, start } = workerData as { sample: string; cacheDir: string; claims: TranscriptClaims; start: Int32Array };
configureParseCache(cacheDir);
useTranscriptClaims(claims);
// Both loads begin together, so that they meet on the same transcripts.
Atomics.add(start, 0, 1);
while (Atomics.load(start, 0) < 2) Atomics.wait(start, 0, Atomics.load(start, 0), 50);
const { content, errors } = loadContent(sample);
parentPort!.postMessage({ content, errors, ...parseCacheStats() });
