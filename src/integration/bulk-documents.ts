/**
 * Build step: the bulk documents (src/build/bulk-documents.ts: transcripts, chapters, the search index's top,
 * shards and passages, the semantic artifact; two thirds of a large show's files, most of its bytes and the
 * search analysis behind them), written from the same content the pages are built from and compressed, on a
 * worker thread (bulk-documents-worker.ts) from astro:build:start on, while Astro bundles and prerenders the
 * pages on the main thread: the two halves of the build's work run on two cores. The worker reads the content
 * again (src/content/site.ts; the parsed transcripts come from the content-hash cache the content check has just
 * filled), writes into a staging folder beside Astro's cache and hands each file to a precompress worker thread.
 * Once precompress has compressed Astro's pages (astro:build:done) they are moved into the output with their
 * .br/.gz, and precompress takes them as done; the content check's cache upkeep comes after both (see
 * astro.config.mjs). Their routes list no paths in a build with this integration.
 */
import { mkdir, rename, rm, writeFile, copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AstroIntegration } from 'astro';
import { bulkDocuments, setBulkDocumentsWrittenByIntegration } from '../build/bulk-documents.ts';
import { getContent } from '../content/site.ts';
import { addParseCacheUsage, parseCacheDir, type ParseCacheUsage } from '../content/parse-cache.ts';
import { CompressPool, levelsFor, registerPrecompressed } from './precompress.ts';
import type { JobResult } from './precompress-job.ts';

export interface Produced {
  files: number;
  bytes: number;
  /** URL path → precompress result (its `file` in the staging folder). */
  done: Map<string, JobResult>;
}

/** What the worker thread sends back: what it produced and the per-episode cache entries it used. */
export type WorkerReport = { files: number; bytes: number; done: Array<[string, JobResult]>; cache: ParseCacheUsage } | { error: string };

export function bulkDocumentsIntegration(): AstroIntegration {
  let cacheRoot = '';
  let staging = '';
  let background: Promise<Produced> | undefined;
  let started = 0;
  return {
    name: 'bulk-documents',
    hooks: {
      'astro:config:setup': ({ command }) => {
        if (command === 'build') setBulkDocumentsWrittenByIntegration(true);
      },
      'astro:config:done': ({ config }) => {
        cacheRoot = fileURLToPath(config.cacheDir);
      },
      'astro:build:start': () => {
        staging = join(cacheRoot, `bulk-documents-${process.pid}`);
        started = performance.now();
        background = inWorker(staging, join(cacheRoot, 'precompress'));
        // Surfaced at astro:build:done; an unhandled rejection before then would end the process.
        background.catch(() => {});
      },
      // The documents are brought into the output when precompress asks for them (registerPrecompressed), after it
      // has compressed Astro's pages: those are compressed while this worker thread is still at work.
      'astro:build:done': ({ dir, logger }) => {
        if (!background) return;
        const pending = background;
        const root = fileURLToPath(dir);
        registerPrecompressed(root, async () => {
          const produced = await pending;
          const ready = performance.now() - started;
          await moveInto(staging, root, produced.done);
          await rm(staging, { recursive: true, force: true });
          logger.info(
            `${produced.files} documents written and compressed (${Math.round(produced.bytes / 1024 / 1024)} MB), ready ${Math.round(ready / 1000)} s after the build started`,
          );
          return produced.done;
        });
      },
    },
  };
}

/** produce() on a worker thread (bulk-documents-worker.ts), its parse-cache use added to this thread's. */
function inWorker(staging: string, precompressCache: string): Promise<Produced> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./bulk-documents-worker.ts', import.meta.url), {
      workerData: { staging, precompressCache, parseCache: parseCacheDir() },
    });
    let settled = false;
    worker.once('message', (report: WorkerReport) => {
      settled = true;
      if ('error' in report) return reject(new Error(`bulk documents: ${report.error}`));
      addParseCacheUsage(report.cache);
      resolve({ files: report.files, bytes: report.bytes, done: new Map(report.done) });
    });
    worker.once('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`bulk documents: the worker thread exited (${code}) before reporting`));
    });
  });
}

/** Writes every bulk document into `staging` and compresses it (one worker thread), as they come. */
export async function produce(staging: string, precompressCache: string): Promise<Produced> {
  await rm(staging, { recursive: true, force: true });
  // One thread compresses: this one and Astro's main thread have the other cores' worth of work.
  const pool = new CompressPool(1);
  const done = new Map<string, JobResult>();
  const dirs = new Set<string>();
  const compressing: Array<Promise<void>> = [];
  let files = 0;
  let bytes = 0;
  try {
    for await (const [path, body] of bulkDocuments(getContent())) {
      const file = join(staging, path.slice(1));
      const dir = dirname(file);
      if (!dirs.has(dir)) {
        await mkdir(dir, { recursive: true });
        dirs.add(dir);
      }
      const size = Buffer.byteLength(body);
      await writeFile(file, body);
      files++;
      bytes += size;
      compressing.push(pool.run({ file, levels: levelsFor(path, size), cacheDir: precompressCache }).then((r) => void done.set(path, r)));
    }
    await Promise.all(compressing);
  } finally {
    await pool.close();
  }
  return { files, bytes, done };
}

/** Moves each document and its variants from the staging folder into the output (a rename; a copy across disks). */
async function moveInto(staging: string, root: string, done: Map<string, JobResult>): Promise<void> {
  const dirs = new Map<string, Promise<unknown>>();
  const move = async (from: string, to: string) => {
    try {
      await rename(from, to);
    } catch {
      await copyFile(from, to);
    }
  };
  const paths = [...done.keys()];
  for (let i = 0; i < paths.length; i += 64) {
    await Promise.all(
      paths.slice(i, i + 64).map(async (path) => {
        const r = done.get(path)!;
        const target = join(root, path.slice(1));
        const dir = dirname(target);
        if (!dirs.has(dir)) dirs.set(dir, mkdir(dir, { recursive: true }));
        await dirs.get(dir);
        await move(join(staging, path.slice(1)), target);
        if (r.br) await move(`${r.file}.br`, `${target}.br`);
        if (r.gz) await move(`${r.file}.gz`, `${target}.gz`);
      }),
    );
  }
}
