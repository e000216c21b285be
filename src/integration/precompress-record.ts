/**
 * What precompress learnt of an output folder's own files (Astro's pages and assets), kept beside its cache for the
 * next build: a file that is still the same inode with the same size and modification time holds the same bytes (a
 * write changes the time), so its hash, its variants' sizes and its page's inline scripts are known without reading
 * it. Astro keeps an unchanged page's file from one build to the next (kept-pages.ts moves its folder over whole,
 * variants and all), and in a one-episode rebuild at 1,200 episodes reading, hashing and placing the variants of
 * ~4,700 such files was 3-4 s of the build's tail, after Astro and before the asset manifest, on nothing else.
 *
 * A file is taken as recorded only when the variants beside it are the ones recorded: a variant written or removed
 * since, or one a file linked back without its folder lacks, sends the file through the job again.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeAtomic } from '../content/write-atomic.ts';
import type { JobResult } from './precompress-job.ts';

/** A file of the folder as the record holds it. */
export interface RecordedFile {
  ino: number;
  size: number;
  mtimeMs: number;
  result: Omit<JobResult, 'file' | 'hit'>;
}

const RecordSchema = z.object({
  root: z.string(),
  files: z.record(
    z.string(),
    z.object({
      ino: z.number(),
      size: z.int().nonnegative(),
      mtimeMs: z.number(),
      result: z.object({
        size: z.int().nonnegative(),
        sha1: z.string(),
        br: z.int().positive().optional(),
        gz: z.int().positive().optional(),
        key: z.string().optional(),
        scripts: z.array(z.string()).optional(),
        mtimeMs: z.number().optional(),
      }),
    }),
  ),
});

/** The record kept for `root` in `file`, by URL path; empty when there is none, it is another folder's or damaged. */
export function readRecord(file: string, root: string): Map<string, RecordedFile> {
  try {
    const record = RecordSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    return record.root === root ? new Map(Object.entries(record.files)) : new Map();
  } catch {
    return new Map();
  }
}

export function writeRecord(file: string, root: string, files: Map<string, RecordedFile>): void {
  try {
    writeAtomic(file, JSON.stringify({ root, files: Object.fromEntries(files) }));
  } catch {
    // A record that cannot be written only costs the next build the reading.
  }
}

/**
 * The recorded result for a file found with these facts (`variants`: which of foo.br / foo.gz are beside it), as a
 * job's result; undefined when the file or its variants are not as recorded.
 */
export function recordedResult(
  recorded: RecordedFile | undefined,
  file: string,
  found: { ino: number; size: number; mtimeMs: number },
  variants: { br: boolean; gz: boolean },
): JobResult | undefined {
  if (!recorded || recorded.ino !== found.ino || recorded.size !== found.size || recorded.mtimeMs !== found.mtimeMs) return undefined;
  const { result } = recorded;
  if (Boolean(result.br) !== variants.br || Boolean(result.gz) !== variants.gz) return undefined;
  return { ...result, file, hit: true };
}
