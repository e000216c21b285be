/**
 * What a new file costs on the disk the bench builds on, measured just before each build.
 *
 * A full build at N = 1,000 creates ~60,000 files (pages, documents and their .br/.gz, the caches' entries). On
 * this machine's disk (ext4 without a journal) the kernel skips free inodes deleted in the last minute, or the last
 * few while their inode block is unwritten (fs/ext4/ialloc.c, recently_deleted), scanning past each one again for
 * every new file. Measured 2026-11-29: 16 µs a file on tmpfs; on this disk 335-425 µs a few minutes after the last large
 * removal, and 823 µs right after one, when `perf` put 70% of the time in that scan. A full build's figure then
 * moves by tens of seconds of system CPU with what was removed before it, so each build's figure is printed
 * beside this probe's.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes every dirty page out (sync(1)) and returns how long that took, in ms. Run before each timed build: a build
 * leaves ~1.3 GB (N = 1,000) to ~2.6 GB (N = 2,000) of written files in the page cache, and the kernel's flusher
 * threads would otherwise write them out on the same two cores while the next build runs, so each build would pay
 * for the one before it (and N = 2,000's builds, whose own writes pass the kernel's background threshold, for
 * themselves as well).
 */
export function flushWrites(): number {
  const t = performance.now();
  execFileSync('sync');
  return performance.now() - t;
}

/** A small document's size (a search record is ~1.4 KB). */
const BODY = Buffer.alloc(1400, 0x61);

/**
 * Microseconds per new file, over `files` written into `dir` (created; it must not exist). The files stay: removing
 * them would make the next build's files dearer, which is what this measures.
 */
export function newFileMicros(dir: string, files = 1000): number {
  mkdirSync(dir, { recursive: false });
  const t = performance.now();
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `${i}.json`), BODY);
  return ((performance.now() - t) * 1000) / files;
}
