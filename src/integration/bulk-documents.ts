/**
 * Build step: the bulk documents (src/build/bulk-documents.ts: transcripts, chapters, search shards and passages,
 * two thirds of a large show's files and most of its bytes), written from the content the pages are built from
 * and compressed, while Astro bundles and prerenders: they are produced from astro:build:start on, into a staging
 * folder beside Astro's cache, and compressed by a precompress worker thread (one core stays with Astro, which
 * prerenders on the main thread). At astro:build:done they are moved into the output with their .br/.gz, and
 * precompress takes them as done. Their routes list no paths in a build with this integration.
 */
import { mkdir, rename, rm, writeFile, copyFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { bulkDocuments, setBulkDocumentsWrittenByIntegration } from '../build/bulk-documents.ts';
import { getContent } from '../content/site.ts';
import { CompressPool, levelsFor, registerPrecompressed } from './precompress.ts';
import type { JobResult } from './precompress-job.ts';

interface Produced {
  files: number;
  bytes: number;
  /** URL path → precompress result (its `file` in the staging folder). */
  done: Map<string, JobResult>;
}

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
        background = produce(staging, join(cacheRoot, 'precompress'));
        // Surfaced at astro:build:done; an unhandled rejection before then would end the process.
        background.catch(() => {});
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (!background) return;
        const produced = await background;
        const ready = performance.now() - started;
        const root = fileURLToPath(dir);
        await moveInto(staging, root, produced.done);
        await rm(staging, { recursive: true, force: true });
        registerPrecompressed(root, produced.done);
        logger.info(
          `${produced.files} documents written and compressed (${Math.round(produced.bytes / 1024 / 1024)} MB), ready ${Math.round(ready / 1000)} s after the build started`,
        );
      },
    },
  };
}

/** Writes every bulk document into `staging` and compresses it (one worker thread), as they come. */
async function produce(staging: string, precompressCache: string): Promise<Produced> {
  await rm(staging, { recursive: true, force: true });
  const pool = new CompressPool(Math.max(1, availableParallelism() - 1));
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
