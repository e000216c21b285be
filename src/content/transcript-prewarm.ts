/**
 * The first build of a large show parses every transcript on the main thread before any other thread has work
 * (the content check's load, astro:config:setup): at 1,000 hour-long episodes ~9 s of parsing and ~4.5 s of
 * keeping the results in the content cache, with the second core idle. A helper thread parses from the last
 * transcript back while the main thread loads the episodes from the first on; each transcript is claimed once
 * (shared-claims.ts) and the main thread takes the helper's from the cache. Same cues, same problems reported:
 * the helper runs the loader's own parse (load.ts keepParsedTranscript) into the same cache entries, and leaves
 * alone those already kept (a rebuild's).
 *
 * Only in a build with a cache folder (without one the helper's work could not be shared) and with enough transcripts
 * to parse for a thread (~0.3 s to start) to pay: a rebuild's are mostly as an earlier build found them
 * (srt-facts.ts), which the load does not read, so its helper would only have the new ones.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { addParseCacheUsage, parseCacheDir, type ParseCacheUsage } from './parse-cache.ts';
import { SharedClaims } from './shared-claims.ts';
import { knownSrt } from './srt-facts.ts';

/** Fewer transcripts than this: parsed on the main thread alone (the sample show's 12 take ~50 ms). */
export const PREWARM_MIN_TRANSCRIPTS = 64;

const SHARED = Symbol.for('podcast-listener-service.transcript-claims');
type Holder = { [SHARED]?: SharedClaims<string> };

/** parse() of the transcript at `path`, shared with a running helper (or at once without one). */
export function claimedTranscript<T>(path: string, parse: () => T): T {
  const claims = (globalThis as Holder)[SHARED];
  return claims ? claims.run(path, parse) : parse();
}

export interface Prewarm {
  /**
   * Stops the helper (the load is done) and counts what it parsed as this thread's work (parseCacheStats); gives
   * what the helper itself counted (undefined if it failed).
   */
  finish(): Promise<ParseCacheUsage | undefined>;
  /** Settles when the helper has stopped: every file claimed, told to stop, or failed. */
  stopped: Promise<void>;
}

/** The transcript files of a show and one claim flag each (SharedClaims), to hand to another thread. */
export interface TranscriptClaims {
  files: string[];
  flags: Int32Array;
}

const CLAIMS = Symbol.for('podcast-listener-service.transcript-claim-flags');

/**
 * The claims on the transcripts of `transcriptsDir` for this build, made by the first thread to ask: the content
 * check's load and its helper, and the bulk documents' threads (started before it, each loading the content too).
 * Every thread that holds them (useTranscriptClaims) parses a transcript only if no other has, or is at it.
 * Undefined without a cache folder (a claimed parse is shared through it) or transcripts.
 */
export function transcriptClaims(transcriptsDir: string): TranscriptClaims | undefined {
  const cacheDir = parseCacheDir();
  if (!cacheDir) return undefined;
  // A flag says "kept in this cache folder": claims are per folder and transcripts folder.
  const key = `${cacheDir}\0${transcriptsDir}`;
  const g = globalThis as { [CLAIMS]?: TranscriptClaims & { key: string } };
  if (g[CLAIMS]?.key === key) return g[CLAIMS];
  let names: string[];
  try {
    names = readdirSync(transcriptsDir).filter((n) => /\.(srt|vtt)$/.test(n)).sort();
  } catch {
    return undefined;
  }
  if (!names.length) return undefined;
  const files = names.map((n) => join(transcriptsDir, n));
  g[CLAIMS] = { key, files, flags: new Int32Array(new SharedArrayBuffer(4 * files.length)) };
  return g[CLAIMS];
}

/** This thread's transcript parses (claimedTranscript) take part in `claims` from now on; undefined: they no longer do. */
export function useTranscriptClaims(claims: TranscriptClaims | undefined): void {
  if (claims) (globalThis as Holder)[SHARED] = new SharedClaims(claims.flags, claims.files);
  else delete (globalThis as Holder)[SHARED];
}

/** Whether the load will take the transcript at `file` from its facts (load.ts knownTranscript), without reading it. */
function knownFile(file: string): boolean {
  try {
    return file.endsWith('.srt') && knownSrt(file) !== undefined;
  } catch {
    return false;
  }
}

/** Starts the helper over the transcript files of `transcriptsDir`; undefined when it would not pay (see above). */
export function prewarmTranscripts(transcriptsDir: string, minTranscripts = PREWARM_MIN_TRANSCRIPTS): Prewarm | undefined {
  const cacheDir = parseCacheDir();
  const claims = transcriptClaims(transcriptsDir);
  if (!cacheDir || !claims || claims.files.length < minTranscripts) return undefined;
  if (claims.files.filter((file) => !knownFile(file)).length < minTranscripts) return undefined;
  const { files, flags } = claims;
  const stop = new Int32Array(new SharedArrayBuffer(4));
  useTranscriptClaims(claims);
  const worker = new Worker(new URL('./transcript-prewarm-worker.ts', import.meta.url), { workerData: { files, flags, stop, cacheDir } });
  // A helper that fails has released its claims (SharedClaims.tryRun); the main thread parses what is left.
  const report = new Promise<ParseCacheUsage | undefined>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  return {
    async finish() {
      Atomics.store(stop, 0, 1);
      useTranscriptClaims(undefined);
      const usage = await report;
      // Its entries count as used only where a thread of the build reads them (an unreferenced file's are pruned);
      // those it parsed count as made in this build.
      if (usage) addParseCacheUsage({ used: [], made: usage.made, read: [], hits: 0, misses: usage.misses });
      return usage;
    },
    stopped: report.then(() => undefined),
  };
}
