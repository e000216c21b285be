/**
 * Build step: writes foo.br and foo.gz beside every text file of the static output (strongly compressed, which is too
 * slow to do per request), so the server can answer compressed bytes straight from memory. A variant that
 * would not be smaller is not written. The server treats foo.br / foo.gz as foo's variants, never as documents.
 *
 * Cost (issue 13): a 1,000-episode show publishes ~700 MB of text in ~5,000 files, and this step took 352 s of a
 * 442 s build. Now:
 *   - the files are compressed by a pool of worker threads, one per core (os.availableParallelism());
 *   - the level follows the file's family (levelsFor): the maximum for small documents a browser loads, less for
 *     the large machine-read families (search shards and passages, transcripts), where q11 costs seconds per MB
 *     for a few percent;
 *   - the variants are kept in a content-hash cache under Astro's cacheDir (key: sha1 of the bytes + levels), so a
 *     rebuild links the variants of every unchanged file instead of compressing it again. Entries no build
 *     used this time are removed, so the cache stays the size of one build's variants.
 * The sha1 of each file is kept for the asset manifest (src/integration/asset-manifest.ts), which runs next.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AstroIntegration } from 'astro';
import { runJob, type Job, type JobResult, type Levels } from './precompress-job.ts';
import { readRecord, recordedResult, writeRecord, type RecordedFile } from './precompress-record.ts';

export { MIN_BYTES } from './precompress-job.ts';
export type { Levels } from './precompress-job.ts';

/** In the cache folder, beside its entries (<sha1>-b<level>g<level>.br / .gz): precompress-record.ts. */
const RECORD_FILE = 'record.json';

/** Text formats by extension; extensionless files under .well-known are JSON documents. */
const TEXT = /\.(html|json|xml|txt|md|srt|vtt|css|js|mjs|svg|webmanifest|yaml)$/i;

export interface PrecompressResult {
  files: number;
  bytesIn: number;
  bytesBr: number;
  bytesGz: number;
  /** Files whose variants came from the cache. */
  reused: number;
}

/** What precompress learnt about each text file of an output folder, by URL path ("/search/shards/0.json"). */
export interface FileFacts {
  size: number;
  /** sha1 of the bytes, base64url. */
  sha1: string;
  br?: number;
  gz?: number;
  /** An HTML page's inline scripts' hashes (JobResult.scripts). */
  scripts?: string[];
  /** JobResult.mtimeMs. */
  mtimeMs?: number;
}

/** Facts of the last precompression of each output folder (absolute path), for the asset manifest. */
const factsByRoot = new Map<string, Map<string, FileFacts>>();

/**
 * Files of an output folder compressed ahead (the bulk documents, compressed in the background while Astro
 * prerenders): URL path → the job's result, or a function that brings them into the folder and returns them.
 * precompressDir takes them as done; it calls the function once it has listed and compressed the folder's own
 * files, so that Astro's pages are compressed while the bulk documents are still being made.
 */
type Ahead = Map<string, JobResult> | (() => Promise<Map<string, JobResult>>);
const aheadByRoot = new Map<string, Ahead>();

export function registerPrecompressed(root: string, done: Ahead): void {
  aheadByRoot.set(root, done);
}

/**
 * Every file of this output folder (URL paths) once precompress has run on it in this process, the documents it
 * brought in included: the asset manifest, the next step, does not walk the ~80,000 entries again.
 */
export function precompressedFiles(root: string): ReadonlySet<string> | undefined {
  return filesByRoot.get(root);
}

const filesByRoot = new Map<string, Set<string>>();

/** The facts precompress gathered for this output folder, if it ran on it in this process. */
export function precompressedFacts(root: string): Map<string, FileFacts> | undefined {
  return factsByRoot.get(root);
}

export interface PrecompressOptions {
  /** Folder of the content-hash cache (the integration uses <Astro cacheDir>/precompress). */
  cacheDir?: string;
  /** Worker threads; 0 compresses in this thread. Default: one per core. */
  workers?: number;
  /** Threads started earlier by the caller (then `workers` is not used, and the caller closes them). */
  pool?: CompressPool;
  levels?: (urlPath: string, bytes: number) => Levels;
}

export function precompress(): AstroIntegration {
  let cacheDir: string | undefined;
  let pool: CompressPool | undefined;
  return {
    name: 'precompress',
    hooks: {
      'astro:config:done': ({ config }) => {
        cacheDir = join(fileURLToPath(config.cacheDir), 'precompress');
      },
      // The threads start while Astro bundles, not on the build's tail: a one-episode rebuild's precompression is a
      // few hundred pages, which ~0.3 s of starting two threads and loading their module was a good part of.
      'astro:build:start': () => {
        pool = new CompressPool(availableParallelism());
      },
      'astro:build:done': async ({ dir, logger }) => {
        const result = await precompressDir(fileURLToPath(dir), { cacheDir, pool }).finally(() => pool?.close());
        logger.info(
          `${result.files} text files precompressed (${result.reused} unchanged, variants reused): ${kb(result.bytesIn)} → br ${kb(result.bytesBr)}, gzip ${kb(result.bytesGz)}`,
        );
      },
    },
  };
}

export async function precompressDir(root: string, options: PrecompressOptions = {}): Promise<PrecompressResult> {
  const levelsOf = options.levels ?? levelsFor;
  const files: string[] = [];
  /** Every file found (the asset manifest's list, with the documents brought in below). */
  const found: string[] = [];
  /** The variants found beside files (foo.br, foo.gz). */
  const variants = new Set<string>();
  // Folders read side by side: one by one, the ~4,600 folders of a 1,200-episode output (a page each) were ~0.8 s of
  // round trips at the end of a one-episode rebuild.
  const walk = async (dir: string, inWellKnown: boolean): Promise<void> => {
    const subdirs: Array<Promise<void>> = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) subdirs.push(walk(full, inWellKnown || entry.name === '.well-known'));
      else if (!entry.isFile()) continue;
      else {
        found.push(full);
        if (TEXT.test(entry.name) || (inWellKnown && !entry.name.includes('.'))) files.push(full);
        else if (/\.(br|gz)$/.test(entry.name)) variants.add(full);
      }
    }
    await Promise.all(subdirs);
  };
  await walk(root, false);
  const urlPath = (file: string) => `/${relative(root, file).split(sep).join('/')}`;
  const registered = aheadByRoot.get(root);
  aheadByRoot.delete(root);
  if (registered instanceof Map && registered.size) files.splice(0, files.length, ...files.filter((f) => !registered.has(urlPath(f))));
  const stats = await Promise.all(files.map((file) => stat(file)));
  // The files the last build handled and nothing has written since are taken from its record (precompress-record.ts).
  const recordFile = options.cacheDir && join(options.cacheDir, RECORD_FILE);
  const recorded = recordFile ? readRecord(recordFile, root) : new Map<string, RecordedFile>();
  const kept: JobResult[] = [];
  const jobs: Job[] = [];
  const sizes: number[] = [];
  files.forEach((file, i) => {
    const path = urlPath(file);
    const facts = stats[i]!;
    const result = recordedResult(recorded.get(path), file, facts, { br: variants.has(`${file}.br`), gz: variants.has(`${file}.gz`) });
    if (result) return void kept.push(result);
    jobs.push({ file, levels: levelsOf(path, facts.size), cacheDir: options.cacheDir });
    sizes.push(facts.size);
  });
  // Largest first, so that one big file does not run alone at the end while the other workers idle.
  const order = jobs.map((_, i) => i).sort((a, b) => sizes[b]! - sizes[a]!);

  const pool = options.pool ?? new CompressPool(jobs.length ? (options.workers ?? availableParallelism()) : 0);
  const running = Promise.all(order.map((i) => pool.run(jobs[i]!)));
  const results = [...kept, ...(await (options.pool ? running : running.finally(() => pool.close())))];
  if (recordFile) {
    const record = new Map<string, RecordedFile>();
    const facts = new Map(files.map((file, i) => [file, stats[i]!]));
    for (const { file, hit: _hit, ...result } of results) {
      const { ino, size, mtimeMs } = facts.get(file)!;
      record.set(urlPath(file), { ino, size, mtimeMs, result });
    }
    writeRecord(recordFile, root, record);
  }
  const ahead = typeof registered === 'function' ? await registered() : (registered ?? new Map<string, JobResult>());

  const result: PrecompressResult = { files: 0, bytesIn: 0, bytesBr: 0, bytesGz: 0, reused: 0 };
  const facts = new Map<string, FileFacts>();
  const used = new Set<string>();
  const all: Array<[string, JobResult]> = [...ahead, ...results.map((r) => [urlPath(r.file), r] as [string, JobResult])];
  for (const [path, r] of all) {
    facts.set(path, { size: r.size, sha1: r.sha1, ...(r.br ? { br: r.br } : {}), ...(r.gz ? { gz: r.gz } : {}), ...(r.scripts ? { scripts: r.scripts } : {}), ...(r.mtimeMs !== undefined ? { mtimeMs: r.mtimeMs } : {}) });
    if (!r.key) continue;
    used.add(r.key);
    result.files++;
    result.bytesIn += r.size;
    result.bytesBr += r.br ?? 0;
    result.bytesGz += r.gz ?? 0;
    if (r.hit) result.reused++;
  }
  factsByRoot.set(root, facts);
  // The output's files now: those found but the variants of the files handled here, which the jobs wrote or removed,
  // and those files and the documents brought in, each with the variants its result names.
  const handled = new Set(files);
  const paths = new Set(found.filter((file) => !(/\.(br|gz)$/.test(file) && handled.has(file.slice(0, -3)))).map(urlPath));
  for (const [path, r] of all) {
    paths.add(path);
    if (r.br) paths.add(`${path}.br`);
    if (r.gz) paths.add(`${path}.gz`);
  }
  filesByRoot.set(root, paths);
  if (options.cacheDir) await prune(options.cacheDir, used);
  return result;
}

/**
 * Compression levels by family, measured on the bench corpus (N = 300: share of the input, and CPU time per MB or
 * per file, on a shared 2-core machine):
 *   - search shards: br 4 27.1% 33 ms/MB, br 5 25.8% 57 ms/MB, br 8 25.5%, br 11 21.8% (~10 s/MB); gzip 5 26.7%
 *     40 ms/MB, gzip 6 26.4% 59 ms/MB, gzip 9 26.3% (~1 s/MB);
 *   - passages: br 4 43.6% 41 ms/MB, br 5 42.8% 60 ms/MB; gzip 5 43.5% 32 ms/MB, gzip 6 43.3% 38 ms/MB;
 *   - transcripts (SRT, WebVTT, JSON): br 4 40.8% 27 ms/MB, br 5 39.5% 46 ms/MB; gzip 5 40.2%, gzip 6 40.1%;
 *   - episode pages (84 KB): br 6 35.7% 5 ms, br 8 35.5% 22 ms, br 11 32.4% 1.1 s; gzip 6 37.2% 15 ms, 9 37.1% 38 ms;
 *   - topic / guest pages (7 KB): br 8 28.3% 1.1 ms, br 10 26.1% 7 ms, br 11 25.5% 14 ms; gzip 6 = 9.
 * Measured again at N = 1,000 (2026-11-23, CPU per MB, share of the input), brotli 4 is no smaller than gzip 5 on
 * the bulk families: transcripts br 4 29.9-41.1% 22-30 ms/MB, gzip 5 30.0-40.6% 18-31 ms/MB; passages br 4 50.1%
 * 46 ms/MB, gzip 5 49.5% 28 ms/MB; shards br 4 23.5%, gzip 5 24.9%. Episode pages (~100 KB, most of it the
 * transcript): br 6 36.3% 56 ms/MB, br 5 36.5% 45 ms/MB; gzip 6 37.8% 34 ms/MB, gzip 4 38.9% 19 ms/MB.
 * So:
 *   - the machine-read families that grow with the show (search shards, passages and their analyses, transcripts, and the
 *     contract's /search-index.json: at N = 1,000 ~520 MB, fetched by the search engine, offline and podcast
 *     apps): gzip 5 only. A client that accepts br takes the .gz (functions/static.ts negotiates among the
 *     variants present); a .br beside it cost ~40% of the build's compression for bytes within 6% of the gzip,
 *     and never smaller on transcripts and passages. Transcripts take gzip 4: ~45% of those bytes, fetched one
 *     file at a time by a listener who asked for it, and gzip 5's longer match search cost half again the time for 2.6%
 *     fewer bytes (N = 1,000, forty-fifth session, every tenth transcript: gzip 4 14.1 ms/MB 39.55%, gzip 5
 *     21.4 ms/MB 38.55%; shards 11.1 against 16.6 ms/MB but 27.7% against 25.6%, and the shards are what a first
 *     query downloads, so they stay at 5). Anything else over 2 MB: brotli 5 / gzip 6;
 *   - the per-episode, per-topic and per-guest pages and documents (also thousands): brotli 8 / gzip 9 up to
 *     32 KB, brotli 5 / gzip 4 above (episode pages: 0.2% / 3% more bytes than brotli 6 / gzip 6 for 30% less
 *     time; browsers take the .br). The episodes' search records (/search/records, ~1.4 KB each) took brotli 11
 *     as site-wide documents do: 2.6 s of a 1,000-episode build for 668 KB, against 0.2 s for 700 KB at brotli 8
 *     (32 bytes more a record);
 *   - the few site-wide documents (home, scripts, styles, docs, feeds): the maximum up to 32 KB (a few ms each),
 *     brotli 8 / gzip 9 up to 2 MB.
 */
export function levelsFor(urlPath: string, bytes: number): Levels {
  if (TRANSCRIPTS.test(urlPath)) return { gz: 4 };
  if (BULK.test(urlPath)) return { gz: 5 };
  if (bytes > 2 * 1024 * 1024) return { br: 5, gz: 6 };
  if (PER_ITEM.test(urlPath)) return bytes <= 32 * 1024 ? { br: 8, gz: 9 } : { br: 5, gz: 4 };
  if (bytes <= 32 * 1024) return { br: 11, gz: 9 };
  return { br: 8, gz: 9 };
}

const BULK = /^\/(search\/(shards|passages|passage-terms)\/|search-index\.json$)/;
const TRANSCRIPTS = /^\/transcripts\//;
const PER_ITEM = /^\/(episodes|chapters|search\/records)\//;

/** Worker threads running precompress jobs (in this thread when size is 0), one job at a time each. */
export class CompressPool {
  readonly #workers: Worker[] = [];
  readonly #idle: Worker[] = [];
  readonly #queue: Array<{ job: Job; resolve: (r: JobResult) => void; reject: (e: Error) => void }> = [];
  readonly #running = new Map<Worker, { job: Job; resolve: (r: JobResult) => void; reject: (e: Error) => void }>();

  readonly size: number;

  constructor(size: number) {
    this.size = size;
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL('./precompress-worker.ts', import.meta.url));
      worker.on('message', (m: { result?: JobResult; error?: string }) => {
        const task = this.#running.get(worker)!;
        this.#running.delete(worker);
        if (m.error !== undefined) task.reject(new Error(`precompress ${task.job.file}: ${m.error}`));
        else task.resolve(m.result!);
        // An idle thread does not keep the process alive (a build that fails before closing the pool still ends).
        worker.unref();
        this.#idle.push(worker);
        this.#next();
      });
      worker.on('error', (e) => {
        this.#running.get(worker)?.reject(e);
        this.#running.delete(worker);
      });
      worker.unref();
      this.#workers.push(worker);
      this.#idle.push(worker);
    }
  }

  run(job: Job): Promise<JobResult> {
    if (this.size <= 0) return Promise.resolve().then(() => runJob(job));
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, resolve, reject });
      this.#next();
    });
  }

  #next(): void {
    while (this.#idle.length && this.#queue.length) {
      const worker = this.#idle.pop()!;
      const task = this.#queue.shift()!;
      this.#running.set(worker, task);
      worker.ref();
      worker.postMessage({ id: 0, job: task.job });
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }
}

/**
 * Precompress jobs for a producer that must not wait for each one: run on worker threads (CompressPool, one unless
 * asked for more), with at most `maxQueued` bytes of bodies waiting (documents come faster than they compress, and a
 * whole show's would otherwise wait in memory). The bulk documents' search part compresses through it.
 */
export class CompressQueue {
  readonly #pool: CompressPool;
  readonly #pending: Array<{ bytes: number; done: Promise<void> }> = [];
  readonly #maxQueued: number;
  #queued = 0;
  #failure: unknown;

  constructor({ maxQueued = 64 * 1024 * 1024, threads = 1 }: { maxQueued?: number; threads?: number } = {}) {
    this.#maxQueued = maxQueued;
    this.#pool = new CompressPool(Math.max(1, threads));
  }

  get threads(): number {
    return this.#pool.size;
  }

  /**
   * Resolves once the job is queued (it may wait for earlier ones to finish); `then` gets its result. Rejects with
   * an earlier job's failure (or its `then`'s).
   */
  async run(job: Job, then: (result: JobResult) => void): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    while (this.#queued > this.#maxQueued) await this.#settleOldest();
    const bytes = job.body?.byteLength ?? 0;
    this.#queued += bytes;
    // Never rejects: a failure is kept and thrown to the producer from here or drain().
    const done = this.#pool.run(job).then(then).catch((e: unknown) => void (this.#failure ??= e));
    this.#pending.push({ bytes, done });
  }

  /** Resolves when every job is done; rejects with the first failure. */
  async drain(): Promise<void> {
    while (this.#pending.length) await this.#settleOldest();
  }

  close(): Promise<void> {
    return this.#pool.close();
  }

  async #settleOldest(): Promise<void> {
    const { bytes, done } = this.#pending.shift()!;
    await done;
    this.#queued -= bytes;
    if (this.#failure !== undefined) throw this.#failure;
  }
}

/** Removes the cache entries this build did not use (and leftovers of interrupted writes). */
async function prune(cacheDir: string, used: Set<string>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(cacheDir);
  } catch {
    return;
  }
  const stale = names.filter((name) => name !== RECORD_FILE && !used.has(name.replace(/\.(br|gz)$/, '')));
  for (let i = 0; i < stale.length; i += 64) {
    await Promise.all(stale.slice(i, i + 64).map((name) => rm(join(cacheDir, name), { force: true })));
  }
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}
