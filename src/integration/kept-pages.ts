/**
 * Build step: the pages (and endpoint documents) Astro prerendered in the previous build are brought back into the
 * output folder that replaces it (linked, or their folder moved over whole: kept-pages-worker.ts), so that Astro's
 * incremental build finds the unchanged ones in place ("cached") instead of copying each from its cache ("restored").
 * A one-episode rebuild of a 1,000-episode show copied ~4,200 files there, a mkdir and a copyFile each on Astro's main
 * thread, before and between the few pages it renders.
 *
 * Astro only skips a page whose cache key is unchanged, and then trusts the file already in the output to be the
 * one its cache holds for that key. So a page is kept only when that is certain: the previous build records, beside
 * client/, the files Astro made (`prerendered.json`) under a token it also writes into Astro's cache folder; a build
 * forgets the cache's token when it starts (its own rendering changes the cache), so a kept list whose token the
 * cache no longer holds (another output built with the same cache since, a build that stopped, a cache cleared or
 * swapped) keeps nothing. A page Astro renders anew is written over its kept file (a link changes the moved-aside
 * copy being removed with it; a file whose folder was moved has no other name), and precompress replaces the variants
 * a moved folder brought. Files kept that Astro did not make this time (an episode removed) are removed again at
 * astro:build:done, before any later step sees the folder.
 *
 * The files are brought on a worker thread while Vite bundles: Astro writes what it has not found yet itself, and a
 * path that exists by then is skipped (a folder Astro has written into is linked file by file), so neither order is
 * wrong, only slower.
 */
import { existsSync, rmdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AstroIntegration } from 'astro';
import { z } from 'zod';
import { PRERENDERED_FILE } from '../../contract/schemas/build-source.ts';
import { removeWithVariants } from './precompress-job.ts';
import { cacheToken as readCacheToken, forgetCacheToken, matchingRecord, writeRecord } from './output-record.ts';

/** In Astro's cache folder: the token of the output whose prerendered files match the cache's keys. */
const TOKEN_FILE = 'prerendered-token';

const PrerenderedRecord = z.object({ token: z.string().min(1), files: z.array(z.string()) });

/** The token Astro's cache holds (read before the build changes the cache), or undefined. */
export function cacheToken(cacheDir: string): string | undefined {
  return readCacheToken(cacheDir, TOKEN_FILE);
}

/** What a build may keep from the output moved aside into `movedAside` (paths relative to client/). */
export function keepableFiles(movedAside: string, token: string | undefined): string[] {
  const record = matchingRecord(join(movedAside, PRERENDERED_FILE), PrerenderedRecord, token);
  // The list is the build's own, but it sits in a folder anyone can edit: nothing outside client/ is linked.
  return (record?.files ?? []).filter((file) => !isAbsolute(file) && !normalize(file).split(sep).includes('..'));
}

/** The cache is about to change: no output matches it until this build records its own. */
export function forgetToken(cacheDir: string): void {
  forgetCacheToken(cacheDir, TOKEN_FILE);
}

/** Records which files of `outDir/client` Astro made, under a new token shared with the cache. */
export function recordPrerendered(outDir: string, cacheDir: string, files: string[]): void {
  writeRecord(join(outDir, PRERENDERED_FILE), cacheDir, TOKEN_FILE, { files: [...files].sort() });
}

/** A file linked back, and what identifies the link: another step's write or rename changes one of them. */
export interface KeptFile {
  file: string;
  ino: number;
  mtimeMs: number;
}

/**
 * Brings each of `files` from `fromClient` into `toClient` on a worker thread (a hard link, or its whole folder
 * renamed: kept-pages-worker.ts); resolves with the files brought.
 */
export function linkInBackground(fromClient: string, toClient: string, files: string[]): Promise<KeptFile[]> {
  const worker = new Worker(new URL('./kept-pages-worker.ts', import.meta.url), { workerData: { fromClient, toClient, files } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`kept pages' worker exited with ${code}`)));
  });
}

/**
 * Removes each of `kept` that is not among `made` and is still the link made (no other step of the build wrote or
 * replaced it), and the folders that leaves empty (up to `client`).
 */
export function removeUnmade(client: string, kept: readonly KeptFile[], made: ReadonlySet<string>): string[] {
  // Astro gives the folder as a URL, with a trailing slash.
  const root = resolve(client);
  const removed: string[] = [];
  for (const { file, ino, mtimeMs } of kept) {
    if (made.has(file)) continue;
    const now = statSync(join(root, file), { throwIfNoEntry: false });
    if (!now || now.ino !== ino || now.mtimeMs !== mtimeMs) continue;
    // With its variants: a folder moved over whole brings them (kept-pages-worker.ts).
    removeWithVariants(join(root, file));
    removed.push(file);
    for (let dir = dirname(join(root, file)); dir.startsWith(root + sep); dir = dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        break;
      }
    }
  }
  return removed;
}

export interface KeptPages {
  integration: AstroIntegration;
  /** Called by replace-out-dir once the previous output is in `movedAside`; its removal waits for this. */
  keepFrom(movedAside: string): Promise<void>;
}

/** The integration goes first in the list: its astro:build:done must run before any step that walks the output. */
export function keptPages(): KeptPages {
  let building = false;
  let outDir = '';
  let cacheDir = '';
  let token: string | undefined;
  let linking: Promise<KeptFile[]> = Promise.resolve([]);
  return {
    integration: {
      name: 'kept-pages',
      hooks: {
        'astro:config:setup': ({ command }) => {
          building = command === 'build';
        },
        'astro:config:done': ({ config }) => {
          outDir = fileURLToPath(config.outDir);
          cacheDir = fileURLToPath(config.cacheDir);
        },
        // Before replace-out-dir moves the output aside, and before Astro reads or writes its cache.
        'astro:build:start': () => {
          if (!building) return;
          token = cacheToken(cacheDir);
          forgetToken(cacheDir);
        },
        'astro:build:done': async ({ assets, dir, logger }) => {
          if (!building) return;
          const client = fileURLToPath(dir);
          const kept = await linking.catch((e: Error) => {
            logger.warn(`the previous build's pages were not kept (${e.message}); Astro copied them from its cache`);
            return [];
          });
          const made = new Set<string>();
          for (const urls of assets.values()) for (const url of urls) made.add(relative(client, fileURLToPath(url)).split(sep).join('/'));
          const removed = removeUnmade(client, kept, made);
          if (kept.length) logger.info(`kept ${kept.length - removed.length} prerendered files of the previous build in place${removed.length ? `, removed ${removed.length} no longer made` : ''}`);
          if (existsSync(cacheDir)) recordPrerendered(outDir, cacheDir, [...made]);
        },
      },
    },
    keepFrom(movedAside: string): Promise<void> {
      const files = keepableFiles(movedAside, token);
      if (!files.length) return Promise.resolve();
      linking = linkInBackground(join(movedAside, 'client'), join(outDir, 'client'), files);
      return linking.then(
        () => undefined,
        () => undefined,
      );
    },
  };
}
