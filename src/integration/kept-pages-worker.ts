/**
 * Worker thread of src/integration/kept-pages.ts: brings the kept files into the new output, and posts back the ones
 * it brought with what identifies each (inode and modification time), so that only a file nothing else has written
 * is removed.
 *
 * A folder of the old output whose every entry is a kept file or a variant of one (foo.br, foo.gz: compressions of
 * the same bytes, which precompress replaces or removes) is moved over whole: one rename. Each page has a folder of
 * its own (/episodes/<slug>/index.html), so linking file by file made ~4,000 new folders in a one-episode rebuild at
 * 1,000 episodes, and the old output's removal then removed as many; on an ext4 without a journal each new folder
 * costs a scan of the inodes freed in the last seconds. Other files are linked one by one.
 */
import { linkSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { KeptFile } from './kept-pages.ts';

const { fromClient, toClient, files } = workerData as { fromClient: string; toClient: string; files: string[] };
const made = new Set<string>();
const kept: KeptFile[] = [];

function madeDir(dir: string): void {
  if (made.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  made.add(dir);
}

function record(file: string): void {
  const found = statSync(join(toClient, file), { throwIfNoEntry: false });
  if (found) kept.push({ file, ino: found.ino, mtimeMs: found.mtimeMs });
}

/** Moves the folder `dir` over whole when it holds only `inDir` and their variants; false to link them one by one. */
function movedWhole(dir: string, inDir: readonly string[]): boolean {
  if (dir === '.') return false;
  const names = new Set(inDir.map((file) => basename(file)));
  try {
    const entries = readdirSync(join(fromClient, dir), { withFileTypes: true });
    const here = new Set(entries.map((entry) => entry.name));
    for (const entry of entries) {
      // A variant only beside its file: one whose file is gone would be left over in the new output.
      const of = entry.name.replace(/\.(br|gz)$/, '');
      if (!entry.isFile() || !names.has(of) || !here.has(of)) return false;
    }
    const to = join(toClient, dir);
    madeDir(dirname(to));
    // Fails if Astro has already written into the folder (an empty one is replaced): the files are linked instead.
    renameSync(join(fromClient, dir), to);
  } catch {
    return false;
  }
  made.add(join(toClient, dir));
  for (const file of inDir) record(file);
  return true;
}

const byDir = new Map<string, string[]>();
for (const file of files) {
  const dir = dirname(file);
  const inDir = byDir.get(dir);
  if (inDir) inDir.push(file);
  else byDir.set(dir, [file]);
}
for (const [dir, inDir] of byDir) {
  if (movedWhole(dir, inDir)) continue;
  for (const file of inDir) {
    const to = join(toClient, file);
    try {
      madeDir(dirname(to));
      linkSync(join(fromClient, file), to);
      record(file);
    } catch {
      // Gone from the old output, or already written by Astro (EEXIST): Astro has or makes its own copy.
    }
  }
}
parentPort!.postMessage(kept);
