/** The helper thread of transcript-prewarm.ts: parses transcripts from the last one back until told to stop. */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { keepParsedTranscript } from './load.ts';
import { knownSrt } from './srt-facts.ts';
import { configureParseCache, parseCacheUsage } from './parse-cache.ts';
import { SharedClaims } from './shared-claims.ts';

const { files, flags, stop, cacheDir } = workerData as { files: string[]; flags: Int32Array; stop: Int32Array; cacheDir: string };
configureParseCache(cacheDir);
const claims = new SharedClaims(flags, files);
// The main thread goes from the first episode on, in its own order: every file not yet claimed is this thread's.
for (let i = files.length - 1; i >= 0 && Atomics.load(stop, 0) === 0; i--) {
  const file = files[i]!;
  // A transcript as the last build found it is not read by any thread (srt-facts.ts).
  if (file.endsWith('.srt') && knownSrt(file)) continue;
  claims.tryRun(file, () => keepParsedTranscript(file.endsWith('.vtt') ? 'vtt' : 'srt', readFileSync(file, 'utf8')));
}
parentPort!.postMessage(parseCacheUsage());
