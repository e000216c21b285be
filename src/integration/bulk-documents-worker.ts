/**
 * Worker thread of the bulk-documents integration (src/integration/bulk-documents.ts): produces one part of the bulk
 * documents while the main thread prerenders, and reports what it wrote and which per-episode cache entries it used (the
 * content check prunes the entries no thread of the build used).
 */
import { workerData } from 'node:worker_threads';
import { configureParseCache, parseCacheUsage } from '../content/parse-cache.ts';
import { shareAnalysis } from '../build/search/analysis.ts';
import { getContent } from '../content/site.ts';
import { loadCuesOnDemand } from '../content/load.ts';
import { useTranscriptClaims } from '../content/transcript-prewarm.ts';
import { reportToParent } from '../build/thread-report.ts';
import { produce, type Part, type WorkerReport, type WorkerSetup } from './bulk-documents.ts';

const { part, parseCache, claims, transcripts, ...setup } = workerData as WorkerSetup & { part: Part; parseCache?: string };
configureParseCache(parseCache);
// This thread may load the content while the main thread does (see bulk-documents.ts): a transcript is parsed once.
useTranscriptClaims(transcripts);
// Each part reads an episode's cues only to make what is not kept from the last build: the search part its analysis,
// the episodes part its passages and /search-index.json's text (load.ts).
loadCuesOnDemand(true);
await reportToParent(async (): Promise<WorkerReport> => {
  const { episodes } = getContent();
  useTranscriptClaims(undefined);
  // The episodes' analysis is shared through the cache folder: without one each part would do it (see shareAnalysis).
  if (parseCache) shareAnalysis(claims, episodes.slice(0, claims.length).map((e) => e.id));
  const produced = await produce(part, setup);
  return { files: produced.files, bytes: produced.bytes, done: [...produced.done], cache: parseCacheUsage(), linked: produced.linked, published: produced.published };
});
