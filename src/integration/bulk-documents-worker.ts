/**
 * Worker thread of the bulk-documents integration (src/integration/bulk-documents.ts): produces the bulk documents
 * while the main thread prerenders, and reports what it wrote and which per-episode cache entries it used (the
 * content check prunes the entries no thread of the build used).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { configureParseCache, parseCacheUsage } from '../content/parse-cache.ts';
import { produce, type WorkerReport } from './bulk-documents.ts';

const { staging, precompressCache, parseCache } = workerData as { staging: string; precompressCache: string; parseCache?: string };
configureParseCache(parseCache);
let report: WorkerReport;
try {
  const produced = await produce(staging, precompressCache);
  report = { files: produced.files, bytes: produced.bytes, done: [...produced.done], cache: parseCacheUsage() };
} catch (e) {
  report = { error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) };
}
parentPort!.postMessage(report);
