/**
 * Moves a folder's tree into another, as copying it over and removing it would, but by renaming: an entry the
 * target lacks is renamed whole, a folder both have is merged the same way, and anything else of the target's is
 * replaced. The bulk documents (bulk-documents.ts) come into the output this way from their staging folder: their
 * folders (/transcripts, /chapters, /search/shards, /search/passages, /search/passage-terms) are Astro's pages'
 * only where /search is, so a build moves them with a handful of renames. Moved file by file with their variants,
 * at 1,000 episodes they were ~40,000 renames and ~4 s at the very end of a one-episode rebuild.
 */
import { cp, lstat, mkdir, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Moves every entry of `from` into `to` (made if missing); `from` is left empty. */
export async function moveInto(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    const existing = await lstat(target).catch(() => undefined);
    if (existing?.isDirectory() && entry.isDirectory()) {
      await moveInto(source, target);
      await rmdir(source);
      continue;
    }
    // A rename replaces a file, or an empty folder with a folder; a file where a folder goes (or the other way
    // round) is removed first, so the staging folder's entry wins as a file-by-file copy would make it.
    if (existing && (existing.isDirectory() || entry.isDirectory())) await rm(target, { recursive: true, force: true });
    await move(source, target);
  }
}

async function move(source: string, target: string): Promise<void> {
  try {
    await rename(source, target);
  } catch {
    // Another file system (a cache folder on another disk): copied, then removed.
    await cp(source, target, { recursive: true, force: true });
    await rm(source, { recursive: true, force: true });
  }
}
