/**
 * Worker thread of src/integration/kept-pages.ts: links the kept files, and posts back the ones it linked with what
 * identifies the link (inode and modification time), so that only a link nothing else has written is removed.
 */
import { linkSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { KeptFile } from './kept-pages.ts';

const { fromClient, toClient, files } = workerData as { fromClient: string; toClient: string; files: string[] };
const made = new Set<string>();
const linked: KeptFile[] = [];
for (const file of files) {
  const to = join(toClient, file);
  const dir = dirname(to);
  try {
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    linkSync(join(fromClient, file), to);
    const { ino, mtimeMs } = statSync(to);
    linked.push({ file, ino, mtimeMs });
  } catch {
    // Gone from the old output, or already written by Astro (EEXIST): Astro has or makes its own copy.
  }
}
parentPort!.postMessage(linked);
