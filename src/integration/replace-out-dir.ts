/**
 * Build step: the previous build's output moved aside and removed off the build's critical path, instead of
 * emptied in place. Astro empties the output folder before it builds with rmSync on the main thread
 * (astro/dist/core/build/static-build.js, unless vite.build.emptyOutDir is false): after a build of 1,000
 * hour-long episodes that is ~67,000 files (the documents and their .br / .gz) and 11-15 s of an editor's
 * one-episode rebuild in which nothing else runs on that thread (the figures: bench/RESULTS.md, twentieth session).
 *
 * So in a build this tells Astro not to, and at astro:build:start (after the content check, so that content with
 * mistakes leaves the last good site as it was) renames each entry of the output folder but `.git` (which Astro
 * keeps too: a site published from a git work tree) into a folder of its own inside it (`.replaced-<pid>-<time>`:
 * inside, so the rename never crosses file systems, and outside the client folder every later step walks). A child
 * process removes that folder at the lowest CPU priority, so it takes the cores the build leaves idle; the build
 * waits for it at its very end (the last astro:build:done), so a finished build leaves nothing behind. An entry
 * that cannot be renamed is removed in place, as Astro would have. A folder left by a build that was killed is
 * one more entry: the next build moves it aside with the rest.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { REPLACED_PREFIX } from '../../contract/schemas/build-source.ts';
import type { KeptPages } from './kept-pages.ts';

/** What Astro keeps in the output folder when it empties it. */
const KEPT = new Set(['.git']);

export interface MovedAside {
  /** The folder the old entries were moved into; undefined when there was nothing to move. */
  folder?: string;
  /** Entries removed in place because they could not be renamed. */
  removedInPlace: string[];
}

/**
 * Empties `outDir` as Astro's emptyDir does (every entry but .git), by renaming the entries into one new folder
 * inside it rather than removing them. Returns that folder, for the caller to remove when it suits.
 */
export function moveAside(outDir: string, tag = `${process.pid}-${Date.now()}`): MovedAside {
  const result: MovedAside = { removedInPlace: [] };
  if (!existsSync(outDir)) return result;
  const entries = readdirSync(outDir).filter((name) => !KEPT.has(name));
  if (!entries.length) return result;
  const folder = join(outDir, `${REPLACED_PREFIX}${tag}`);
  let made = false;
  try {
    mkdirSync(folder);
    made = true;
  } catch {
    // Without a folder to move into, every entry is removed in place below.
  }
  for (const name of entries) {
    const from = join(outDir, name);
    if (made) {
      try {
        renameSync(from, join(folder, name));
        continue;
      } catch {
        // A mount point, a permission, a file held open on Windows: removed in place below.
      }
    }
    rmSync(from, { recursive: true, force: true, maxRetries: 3 });
    result.removedInPlace.push(name);
  }
  if (made) result.folder = folder;
  return result;
}

/**
 * Removes `folder` in a child process at the lowest CPU priority. The promise settles when it is gone (rejects if
 * the child fails); the removal goes on even if this process ends first.
 */
export function removeInBackground(folder: string): { child: ChildProcess; done: Promise<void> } {
  const child = spawn(process.execPath, ['-e', 'require("node:fs").rmSync(process.argv[1], { recursive: true, force: true, maxRetries: 3 })', folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    if (child.pid !== undefined) setPriority(child.pid, constants.priority.PRIORITY_LOW);
  } catch {
    // Not allowed here (a sandbox): it runs at normal priority, still off the main thread.
  }
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`removing ${folder} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`)),
    );
  });
  return { child, done };
}

/** `kept`: given the folder the previous output was moved into, before its removal starts (src/integration/kept-pages.ts). */
export function replaceOutDir(kept?: Pick<KeptPages, 'keepFrom'>): AstroIntegration {
  let building = false;
  let outDir: string | undefined;
  let removal: Promise<void> | undefined;
  return {
    name: 'replace-out-dir',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        building = command === 'build';
        if (building) updateConfig({ vite: { build: { emptyOutDir: false } } });
      },
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
      },
      // The latest point before Astro would empty the folder, and after the content check.
      'astro:build:start': ({ logger }) => {
        if (!building || !outDir) return;
        const { folder, removedInPlace } = moveAside(outDir);
        if (removedInPlace.length) logger.info(`removed in place (could not be moved aside): ${removedInPlace.join(', ')}`);
        if (folder) {
          logger.info(`moved the previous output aside (${readdirSync(folder).sort().join(', ')}); removing it at low priority while the build runs`);
          // Files are linked back out of the old output first; removing it meanwhile would take them away.
          const moved = folder;
          removal = (kept?.keepFrom(moved) ?? Promise.resolve()).then(() => removeInBackground(moved).done);
          // Awaited at build:done; a build that fails before then reports its own error, not this one.
          removal.catch(() => {});
        }
      },
      'astro:build:done': async ({ logger }) => {
        if (!removal) return;
        const t = performance.now();
        try {
          await removal;
        } catch (e) {
          // The new output is whole; what is left is the old one's leftovers, which the next build moves aside again.
          logger.warn((e as Error).message);
          return;
        }
        const waited = performance.now() - t;
        if (waited >= 100) logger.info(`waited ${(waited / 1000).toFixed(1)} s for the previous build's output to be removed`);
      },
    },
  };
}
