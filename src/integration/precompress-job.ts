/**
 * One file's precompression (src/integration/precompress.ts runs it in worker threads): reads the file (or writes
 * it, Job.write), hashes it, and places foo.br / foo.gz beside it, either linked from the content-hash cache or
 * compressed anew (and then stored in the cache). Only node: modules here (and write-atomic.ts and inline-scripts.ts, likewise), so a
 * worker thread loads it without the build's tooling.
 */
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, fstatSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { writeAtomic } from '../content/write-atomic.ts';
import { inlineScriptHashes } from './inline-scripts.ts';

/** Files smaller than this are served as they are (contract/http-policy.ts MIN_COMPRESS_BYTES). */
export const MIN_BYTES = 512;

export interface Levels {
  /** Brotli quality; absent: no .br (clients that accept br take the .gz, see levelsFor). */
  br?: number;
  gz: number;
}

export interface Job {
  file: string;
  levels: Levels;
  /** Folder of the content-hash cache; none: compress every time. */
  cacheDir?: string;
  /** The file's bytes, when the caller has them (it has just written them): not read back. */
  body?: Buffer;
  /**
   * The file's gzip at `levels.gz`, when its producer made it (and keeps it: not stored in the cache); only for a
   * family that takes no .br. Written beside the file on the same terms as one compressed here.
   */
  gz?: Uint8Array;
  /**
   * Write `body` to `file` first: the caller has not. The bulk documents' producers write this way
   * (src/integration/bulk-documents.ts), so that the search part's files are written by its compression threads:
   * creating a file is a system call that can cost a millisecond, and that part's own thread is a rebuild's last.
   */
  write?: boolean;
}

export interface JobResult {
  file: string;
  size: number;
  /** sha1 of the bytes, base64url (the manifest's ETag is its first 22 characters). */
  sha1: string;
  /** Sizes of the variants written; absent when the variant would not be smaller (or the file is too small). */
  br?: number;
  gz?: number;
  /** The cache key used, when the file was compressed or reused (the caller prunes keys no build used). */
  key?: string;
  hit?: boolean;
  /**
   * An HTML page's inline scripts (inlineScriptHashes), read while the job has its bytes: the asset manifest, the
   * build's last step, then reads no page again (at 1,000 episodes ~4,200, most of them kept from the last build).
   */
  scripts?: string[];
  /**
   * The file's modification time, when the job wrote or read it (taken from the open file): the asset manifest's
   * Last-Modified without a stat of each of ~37,000 files on the build's last step (1-3 s at 1,200 episodes).
   */
  mtimeMs?: number;
}

export function runJob(job: Job): JobResult {
  const result = compress(job);
  // A file of the output folder may have variants beside it already (kept-pages-worker.ts moves a kept page's folder
  // over whole): one not placed this time is not this file's.
  if (!job.write) {
    for (const mark of ['br', 'gz'] as const) if (!result[mark]) rmSync(`${job.file}.${mark}`, { force: true });
  }
  return result;
}

function compress(job: Job): JobResult {
  const { file, levels, cacheDir, gz: made, write } = job;
  if (made && levels.br !== undefined) throw new Error(`${file}: made with a gzip only, but its family takes brotli too`);
  const { body, mtimeMs } = job.body === undefined ? readWithTime(file) : write ? writeWithTime(file, job.body) : { body: job.body, mtimeMs: undefined };
  const digest = createHash('sha1').update(body).digest();
  const result: JobResult = { file, size: body.byteLength, sha1: digest.toString('base64url') };
  if (mtimeMs !== undefined) result.mtimeMs = mtimeMs;
  if (file.endsWith('.html')) result.scripts = inlineScriptHashes(body);
  if (body.byteLength < MIN_BYTES) return result;
  if (made) {
    if (made.byteLength < body.byteLength) {
      writeVariant(`${file}.gz`, made);
      result.gz = made.byteLength;
    }
    return result;
  }
  // The key names the bytes and the levels: a change of level compresses anew.
  const key = `${digest.toString('hex')}-b${levels.br ?? 'x'}g${levels.gz}`;
  result.key = key;
  if (cacheDir && reuse(cacheDir, key, file, result, levels.br !== undefined)) {
    result.hit = true;
    return result;
  }
  const br =
    levels.br === undefined
      ? undefined
      : brotliCompressSync(body, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: levels.br, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
        });
  const gz = gzipSync(body, { level: levels.gz });
  // A variant that is not smaller is not written; the cache keeps an empty file to remember that.
  const keepBr = br !== undefined && br.byteLength < body.byteLength;
  const keepGz = gz.byteLength < body.byteLength;
  if (keepBr) result.br = br.byteLength;
  if (keepGz) result.gz = gz.byteLength;
  if (!cacheDir) {
    if (keepBr) writeVariant(`${file}.br`, br!);
    if (keepGz) writeVariant(`${file}.gz`, gz);
    return result;
  }
  mkdirSync(cacheDir, { recursive: true });
  const brPath = br === undefined ? undefined : store(join(cacheDir, `${key}.br`), keepBr ? br : Buffer.alloc(0));
  const gzPath = store(join(cacheDir, `${key}.gz`), keepGz ? gz : Buffer.alloc(0));
  if (keepBr) place(brPath!, `${file}.br`);
  if (keepGz) place(gzPath, `${file}.gz`);
  return result;
}

/** The file's bytes and modification time, from one open file (no other write can come between them). */
function readWithTime(file: string): { body: Buffer; mtimeMs: number } {
  const fd = openSync(file, 'r');
  try {
    return { body: readFileSync(fd), mtimeMs: fstatSync(fd).mtimeMs };
  } finally {
    closeSync(fd);
  }
}

function writeWithTime(file: string, body: Buffer): { body: Buffer; mtimeMs: number } {
  const fd = openSync(file, 'w');
  try {
    writeFileSync(fd, body);
    return { body, mtimeMs: fstatSync(fd).mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** Places the cached variants beside the file; false when the cache does not hold every variant asked for. */
function reuse(cacheDir: string, key: string, file: string, result: JobResult, withBr: boolean): boolean {
  const brPath = join(cacheDir, `${key}.br`);
  const gzPath = join(cacheDir, `${key}.gz`);
  let brSize: number;
  let gzSize: number;
  try {
    brSize = withBr ? statSync(brPath).size : 0;
    gzSize = statSync(gzPath).size;
  } catch {
    return false;
  }
  if (brSize) place(brPath, `${file}.br`), (result.br = brSize);
  if (gzSize) place(gzPath, `${file}.gz`), (result.gz = gzSize);
  return true;
}

/**
 * A hard link to the cache entry (one system call; copying 16,000 variants took ~20 s of a rebuild at N = 1,000),
 * or a copy where links are not possible. Nothing writes into a variant in place: the cache replaces entries by
 * renaming (store), and the output folder is emptied before each build, so a link never sees its bytes change.
 */
function place(cached: string, target: string): void {
  try {
    linkSync(cached, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Already this entry: a kept page's folder moved over whole brings its variants (kept-pages-worker.ts).
    if (code === 'EEXIST' && sameFile(cached, target)) return;
    // A variant left in the folder is replaced, never written through (it may be another build's link).
    rmSync(target, { force: true });
    if (code === 'EEXIST') linkSync(cached, target);
    else copyFileSync(cached, target);
  }
}

/**
 * Removes a file of the output and its variants (foo, foo.br, foo.gz), wherever they are: a file another step
 * replaces may be a link to a cache entry, which is never written through.
 */
export function removeWithVariants(file: string): void {
  for (const name of [file, `${file}.br`, `${file}.gz`]) rmSync(name, { force: true });
}

/** A variant written anew: one already there may be a link to a cache entry, never written through. */
function writeVariant(path: string, bytes: Uint8Array): void {
  rmSync(path, { force: true });
  writeFileSync(path, bytes);
}

function sameFile(a: string, b: string): boolean {
  const x = statSync(a, { throwIfNoEntry: false });
  const y = statSync(b, { throwIfNoEntry: false });
  return x !== undefined && y !== undefined && x.ino === y.ino && x.dev === y.dev;
}

/** Into the cache (writeAtomic: a build that stops half-way never leaves a truncated entry). */
function store(path: string, bytes: Buffer): string {
  writeAtomic(path, bytes);
  return path;
}
