/**
 * Build step: the bulk documents (src/build/bulk-documents.ts: transcripts, chapters, the search index's top,
 * shards and passages, the semantic artifact; two thirds of a large show's files, most of its bytes and the
 * search analysis behind them), written from the same content the pages are built from and compressed, on two
 * worker threads (bulk-documents-worker.ts, one per Part) from astro:config:setup on, while Astro syncs, bundles and
 * prerenders the pages on the main thread, which then compresses its pages: three streams of work on two cores,
 * none of them alone the critical path (one worker thread was: ~80 s of an 84 s build at 1,000 episodes, 15 s of
 * it waiting on writes awaited one by one). Each worker reads the content again (src/content/site.ts; a transcript
 * is parsed by whichever thread comes to it first, the others read it from the content cache), writes into a staging folder
 * beside Astro's cache and compresses each file as it comes; the search part hands its files' writing and
 * compression to two threads of their own and the semantic artifact to another, as its work comes last, when the
 * other threads are done. Once precompress has compressed Astro's pages (astro:build:done) they are moved into the
 * output with their .br/.gz, and precompress takes them as done; the content check's cache upkeep comes after
 * both (see astro.config.mjs). Their routes list no paths in a build with this integration.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AstroIntegration } from 'astro';
import { episodeDocuments, KEYED_FOLDERS, SEARCH_INDEX_PATH, searchDocuments, setBulkDocumentsWrittenByIntegration, showDocuments, type PlacePaths } from '../build/bulk-documents.ts';
import { contentDir, getContent } from '../content/site.ts';
import { episodeFiles } from '../content/load.ts';
import { addParseCacheUsage, configureParseCache, parseCacheDir, parseCacheFolder, type ParseCacheUsage } from '../content/parse-cache.ts';
import { transcriptClaims, type TranscriptClaims } from '../content/transcript-prewarm.ts';
import { CompressQueue, levelsFor, registerPrecompressed } from './precompress.ts';
import { removeWithVariants, runJob, type Job, type JobResult } from './precompress-job.ts';
import { LinkedFiles } from './linked-files.ts';
import { moveInto } from './move-into.ts';
import { KeptFolders, keptGate, recordKept, removeLeftovers, sweep, takeKeptFolders, type KeptDecision, type KeptGate } from './kept-documents.ts';
import { releaseAll } from '../content/shared-claims.ts';
import { reportOf } from '../build/thread-report.ts';

export interface Produced {
  files: number;
  bytes: number;
  /** URL path → precompress result (its `file` in the staging folder). */
  done: Map<string, JobResult>;
  /** The linked files' entries this part used (LinkedFiles.prune keeps those of every part). */
  linked: string[];
  /** The keys whose files this part put in the output (LinkedFiles.published): the next build may keep them in place. */
  published: string[];
}

/**
 * The two halves of the bulk documents, one worker thread each: the per-episode documents (transcripts, chapters,
 * passage chunks and their analyses) and the search documents (the index's top and shards, where the passages
 * are, the semantic artifact). Both need the episodes' analysis; each thread does a share of it (shareAnalysis).
 */
export type Part = 'episodes' | 'search';
const PARTS: Part[] = ['episodes', 'search'];

/** What a worker thread reports (thread-report.ts): what it produced and the per-episode cache entries it used. */
export interface WorkerReport {
  files: number;
  bytes: number;
  done: Array<[string, JobResult]>;
  cache: ParseCacheUsage;
  linked: string[];
  published: string[];
}

/** The staging folder of a build's documents, in Astro's cache folder: this, then the build's process id. */
const STAGING_PREFIX = 'bulk-documents-';

export function bulkDocumentsIntegration(): AstroIntegration {
  let building = false;
  let staging = '';
  let cacheRoot = '';
  let outDir = '';
  let gate: KeptGate | undefined;
  let kept: KeptDecision | undefined;
  let background: Promise<Produced> | undefined;
  let finished = 0;
  return {
    name: 'bulk-documents',
    hooks: {
      // Started at once, before the content check loads the content on this thread: each worker thread loads it
      // too (site.ts), and until Astro renders its first page the main thread works alone (loading the content,
      // syncing it, generating types, bundling), seconds in which the second core would otherwise idle (a rebuild
      // at 1,000 episodes: ~3 s of loading on each thread, from the content cache). The transcripts are parsed
      // once whichever thread comes to them first (transcriptClaims); content with mistakes stops the build in the
      // content check, and these threads with it.
      'astro:config:setup': ({ command, config }) => {
        building = command === 'build';
        if (!building) return;
        setBulkDocumentsWrittenByIntegration(true);
        cacheRoot = fileURLToPath(config.cacheDir);
        configureParseCache(parseCacheFolder(cacheRoot));
        staging = join(cacheRoot, `${STAGING_PREFIX}${process.pid}`);
        void removeLeftovers(cacheRoot, STAGING_PREFIX);
        gate = keptGate(staging, KEYED_FOLDERS);
        background = inWorkers(staging, join(cacheRoot, 'precompress'), contentDir(), gate);
        // Since the build process started (the main thread's clock starts with it), beside when the build asks for
        // them (astro:build:done): a log then tells which waited for the other.
        background.then(
          () => (finished = performance.now()),
          () => {},
        );
        // Surfaced at astro:build:done; an unhandled rejection before then would end the process.
        background.catch(() => {});
      },
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
      },
      // After the content check, before replace-out-dir moves the rest of the last output aside (it comes later in
      // the list of integrations): the last output's keyed folders are taken whole (kept-documents.ts).
      'astro:build:start': ({ logger }) => {
        if (!building || !gate) return;
        kept = takeKeptFolders({ outDir, cacheRoot, staging, gate });
        if (kept.folders.length) logger.info(`took ${kept.folders.join(', ')} of the previous output whole (${kept.keys.length} keys' files)`);
      },
      // The documents are brought into the output when precompress asks for them (registerPrecompressed), after it
      // has compressed Astro's pages: those are compressed while these worker threads are still at work.
      'astro:build:done': ({ dir, logger }) => {
        if (!background) return;
        const pending = background;
        const root = fileURLToPath(dir);
        registerPrecompressed(root, async () => {
          const asked = performance.now();
          const produced = await pending;
          const swept = kept ? sweep(staging, kept.folders, produced.done) : 0;
          await moveInto(staging, root);
          await rm(staging, { recursive: true, force: true });
          if (gate) rmSync(gate.file, { force: true });
          recordKept(outDir, cacheRoot, produced.published);
          if (swept) logger.info(`removed ${swept} files of the previous output no longer made`);
          logger.info(
            `${produced.files} documents written and compressed (${Math.round(produced.bytes / 1024 / 1024)} MB), done ${(finished / 1000).toFixed(1)} s after the build process started, asked for at ${(asked / 1000).toFixed(1)} s`,
          );
          return produced.done;
        });
      },
    },
  };
}

/**
 * produce() of each part on its own worker thread (bulk-documents-worker.ts), their parse-cache use added to this
 * thread's. The threads are started before this returns: Astro goes on synchronously for seconds, and threads
 * started after an await would wait for all of it.
 */
function inWorkers(staging: string, precompressCache: string, contentFolder: string, kept: KeptGate): Promise<Produced> {
  rmSync(staging, { recursive: true, force: true });
  // One analysis claim per episode file: each thread numbers the episodes it loads the same way (shareAnalysis).
  const claims = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, episodeFiles(contentFolder).length)));
  // The next episode whose documents are to be made: the search part joins in once its own documents are written.
  const next = new Int32Array(new SharedArrayBuffer(4));
  const linkedFiles = join(dirname(precompressCache), 'linked-files');
  // Where builds before the passage files were linked kept the transcripts alone: nothing reads it now.
  rmSync(join(dirname(precompressCache), 'transcripts'), { recursive: true, force: true });
  const transcripts = transcriptClaims(join(contentFolder, 'transcripts'));
  const running = PARTS.map((part) => inWorker(part, { staging, precompressCache, linkedFiles, claims, next, transcripts, kept }));
  return gathered(running, linkedFiles);
}

async function gathered(running: Array<Promise<Produced>>, linkedFiles: string): Promise<Produced> {
  const results = await Promise.allSettled(running);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  const done = new Map<string, JobResult>();
  let files = 0;
  let bytes = 0;
  const linked: string[] = [];
  const published: string[] = [];
  for (const r of results as Array<PromiseFulfilledResult<Produced>>) {
    files += r.value.files;
    bytes += r.value.bytes;
    for (const [path, job] of r.value.done) done.set(path, job);
    linked.push(...r.value.linked);
    published.push(...r.value.published);
  }
  LinkedFiles.prune(linkedFiles, new Set(linked));
  return { files, bytes, done, linked, published };
}

/** What each worker thread is given (bulk-documents-worker.ts). */
export interface WorkerSetup {
  staging: string;
  precompressCache: string;
  /** The folder of LinkedFiles: earlier builds' per-episode files, by key. */
  linkedFiles: string;
  /** One flag per episode (at least as many as the content has): who analyses it (shareAnalysis). */
  claims: Int32Array;
  /** The build's claims on the transcripts (transcriptClaims), when it has them. */
  transcripts?: TranscriptClaims;
  /** One counter: the next episode (index into the content's episodes) whose documents are to be made. */
  next: Int32Array;
  /** Where the main thread says which of the last output's folders it took (kept-documents.ts). */
  kept?: KeptGate;
}

async function inWorker(part: Part, setup: WorkerSetup): Promise<Produced> {
  const worker = new Worker(new URL('./bulk-documents-worker.ts', import.meta.url), {
    workerData: { part, parseCache: parseCacheDir(), ...setup },
  });
  let report: WorkerReport;
  try {
    report = await reportOf<WorkerReport>(worker, `bulk documents (${part})`);
  } catch (e) {
    // Another thread may be waiting for an episode or a transcript this one had claimed: release every claim.
    releaseAll(setup.claims);
    if (setup.transcripts) releaseAll(setup.transcripts.flags);
    throw e;
  }
  addParseCacheUsage(report.cache);
  return { files: report.files, bytes: report.bytes, done: new Map(report.done), linked: report.linked, published: report.published };
}

/**
 * Writes one part's bulk documents into `staging` and compresses each as it comes, on this thread: the two parts'
 * threads and Astro's main thread already have the cores' worth of work. Written synchronously: awaiting ~20,000
 * asynchronous writes one by one left this thread idle ~15 s of a 1,000-episode build. The search part, once its
 * own documents are written, takes episodes' documents too (`next`): at 1,000 episodes it was done ~20 s before
 * the episodes part, which then ran alone on the build's tail.
 */
export async function produce(
  part: Part,
  setup: Pick<WorkerSetup, 'staging' | 'precompressCache' | 'next' | 'kept'> & { linkedFiles?: string },
): Promise<Produced> {
  const { staging, precompressCache, next, linkedFiles } = setup;
  const content = getContent();
  const done = new Map<string, JobResult>();
  const kept = setup.kept && new KeptFolders(setup.kept);
  const cache = linkedFiles ? new LinkedFiles(linkedFiles, precompressCache, kept) : undefined;
  const place = cache && ((key: string, paths: PlacePaths) => cache.place(key, paths, staging, levelsFor, done));
  const perEpisode = () => episodeDocuments(content, { place, claim: () => Atomics.add(next, 0, 1) });
  // The episodes part starts with /search-index.json: it is done long before the search part, the build's last.
  const gzipLevel = levelsFor(SEARCH_INDEX_PATH, 0).gz;
  const documents =
    part === 'episodes' ? chain(showDocuments(content, { gzipLevel }), perEpisode) : chain(searchDocuments(content, { semanticThread: true, place }), perEpisode);
  // The search part compresses on threads of its own: its shards come last, when the other threads are done (in a
  // rebuild at 1,000 episodes their ~4 s of gzip were the build's tail, one core idle). Two: with one, a profiled
  // rebuild at 1,104 episodes still ended on ~2.5 s of it alone, the index's thread idle. The episodes part keeps
  // compressing on its own thread: it is never the last one out.
  const compressor = part === 'search' ? new CompressQueue({ threads: 2 }) : undefined;
  const dirs = new Set<string>();
  let files = 0;
  let bytes = 0;
  try {
    for await (const [path, text, gz] of documents) {
      const file = join(staging, path.slice(1));
      const dir = dirname(file);
      if (!dirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        dirs.add(dir);
      }
      // A taken folder's file at this path is the last output's (and may be a link to a cache entry): the job writes
      // a new file, never through it.
      if (kept?.taken(path)) removeWithVariants(file);
      const body = typeof text === 'string' ? Buffer.from(text) : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
      // The job writes the file (Job.write), on whichever thread runs it: the search part's compression threads
      // for that part. At 2,000 episodes creating its ~2,800 shard files took 4.5 s of this thread in a profiled
      // rebuild, the last thread to finish, while its one compression thread then was idle two thirds of the time.
      const levels = levelsFor(path, body.byteLength);
      const compressed = (result: JobResult) => {
        done.set(path, result);
        cache?.keep(path, levels, result);
      };
      const job: Job = { file, body, levels, cacheDir: precompressCache, gz, write: true };
      if (compressor) await compressor.run(job, compressed);
      else compressed(runJob(job));
    }
    await compressor?.drain();
  } finally {
    await compressor?.close();
  }
  for (const r of done.values()) {
    files++;
    bytes += r.size;
  }
  return { files, bytes, done, linked: cache?.used() ?? [], published: cache?.published() ?? [] };
}

async function* chain<T>(first: AsyncIterable<T> | Iterable<T>, then: () => AsyncIterable<T>): AsyncGenerator<T> {
  yield* first;
  yield* then();
}
