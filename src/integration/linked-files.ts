/**
 * Files of the build kept by a key the build names (what the files are made from and the code that makes them),
 * under Astro's cacheDir, and linked into the next build with their .gz / .br from the precompress cache instead of
 * made, written, hashed and compressed again: an episode's published transcripts (/transcripts/<stem>.srt, .vtt,
 * .json: at 1,000 hour-long episodes 3,000 files, 276 MB, ~20 s of CPU), its passage files (/search/passages and
 * /search/passage-terms: ~14,000 files, each a new inode and its bytes written again), and its chapters and record
 * (~2,000 small files, kept by their own bytes). src/build/bulk-documents.ts names the keys (episodeDocuments's
 * `place`). Entries no build used this time are removed (prune), so the folder stays one show's size.
 *
 * The bulk-documents worker threads use it, one instance each (src/integration/bulk-documents.ts); the main thread
 * prunes once both are done.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { removeWithVariants, type JobResult, type Levels } from './precompress-job.ts';
import { writeAtomic } from '../content/write-atomic.ts';
import type { PlacePaths } from '../build/bulk-documents.ts';
import type { KeptFolders } from './kept-documents.ts';

interface Entry {
  path: string;
  levels: Levels;
  result: Omit<JobResult, 'file' | 'hit'>;
}

export class LinkedFiles {
  readonly #dir: string;
  readonly #precompressCache: string;
  readonly #used = new Set<string>();
  readonly #published = new Set<string>();
  readonly #kept: KeptFolders | undefined;
  /** Folders of `staging` made so far: every episode's passage files share two. */
  readonly #dirs = new Set<string>();
  /** Files made this time, by URL path: their key and what is known so far of the key's files. */
  readonly #pending = new Map<string, { index: number; entry: { key: string; entries: Entry[]; files: string[]; left: number } }>();

  /** `kept`: the last output's folders taken into `staging`, when the build took them (kept-documents.ts). */
  constructor(dir: string, precompressCache: string, kept?: KeptFolders) {
    this.#dir = dir;
    this.#precompressCache = precompressCache;
    this.#kept = kept;
  }

  /**
   * Places the files kept under `key` in `staging` at `paths` (URL paths), with their variants, adding their results
   * to `done`; false when they are not all there (the caller makes them and hands each to keep()). `paths` may be
   * the paths for the number of files kept, for a caller that knows them only once it has made the files: a false
   * then leaves nothing for keep(), and the caller asks again with the paths of the files it makes.
   */
  place(
    key: string,
    paths: PlacePaths,
    staging: string,
    levelsOf: (path: string, bytes: number) => Levels,
    done: Map<string, JobResult>,
  ): boolean {
    this.#used.add(key);
    const placed: string[] = [];
    let targets: readonly string[] = [];
    try {
      const entries = JSON.parse(readFileSync(join(this.#dir, `${key}.json`), 'utf8')) as Entry[];
      targets = typeof paths === 'function' ? paths(entries.length) : paths;
      if (entries.length !== targets.length) throw new Error('stale');
      targets.forEach((path, i) => {
        const { levels, result } = entries[i]!;
        const wanted = levelsOf(path, result.size);
        if (entries[i]!.path !== path || wanted.br !== levels.br || wanted.gz !== levels.gz) throw new Error('stale');
      });
      // Already in place: the last output published them, and their folders were taken whole (kept-documents.ts).
      const there = this.#kept?.holds(key, targets) === true;
      const results: Array<[string, JobResult]> = [];
      targets.forEach((path, i) => {
        const { result } = entries[i]!;
        const file = join(staging, path.slice(1));
        if (!there) {
          const dir = dirname(file);
          if (!this.#dirs.has(dir)) mkdirSync(dir, { recursive: true }), this.#dirs.add(dir);
          // Another key's file (and variants) from the last output: replaced, never linked over or written through.
          if (this.#kept?.taken(path)) removeWithVariants(file);
          linkSync(join(this.#dir, `${key}.${i}`), file);
          placed.push(file);
          for (const mark of ['br', 'gz'] as const) {
            if (!result[mark]) continue;
            linkSync(join(this.#precompressCache, `${result.key}.${mark}`), `${file}.${mark}`);
            placed.push(`${file}.${mark}`);
          }
        }
        // An entry kept before results had their time: the file's own (the link shares it), here on this thread
        // rather than by the asset manifest on the build's last step.
        const mtimeMs = result.mtimeMs ?? statSync(file).mtimeMs;
        results.push([path, { ...result, mtimeMs, file, hit: true }]);
      });
      for (const [path, r] of results) done.set(path, r);
      this.#published.add(key);
      return true;
    } catch {
      // Not cached, or not all of it: the caller makes them. What was linked goes, so that nothing writes through a
      // link, and so does a taken folder's file at these paths (another key's: the caller writes or links anew).
      for (const file of placed) rmSync(file, { force: true });
      for (const path of typeof paths === 'function' ? targets : paths) {
        if (!this.#kept?.taken(path)) continue;
        removeWithVariants(join(staging, path.slice(1)));
      }
      if (typeof paths === 'function') return false;
      const entry = { key, entries: new Array<Entry>(paths.length), files: new Array<string>(paths.length), left: paths.length };
      paths.forEach((path, index) => this.#pending.set(path, { index, entry }));
      return false;
    }
  }

  /** A file of a key place() did not find, made and compressed this time (runJob's result on `file`): kept for the next build. */
  keep(path: string, levels: Levels, result: JobResult): void {
    const pending = this.#pending.get(path);
    if (!pending) return;
    this.#pending.delete(path);
    const { index, entry } = pending;
    const { file, hit: _hit, ...rest } = result;
    entry.entries[index] = { path, levels, result: rest };
    entry.files[index] = file;
    if (--entry.left > 0) return;
    const { key, entries, files } = entry;
    try {
      mkdirSync(this.#dir, { recursive: true });
      files.forEach((f, k) => {
        const target = join(this.#dir, `${key}.${k}`);
        rmSync(target, { force: true });
        linkSync(f, target);
      });
      // The entry's list last (writeAtomic): an interrupted build leaves no half entry.
      writeAtomic(join(this.#dir, `${key}.json`), JSON.stringify(entries));
      this.#published.add(key);
    } catch {
      // A cache that cannot be written only costs time.
    }
  }

  /** The keys of the entries this instance placed or kept. */
  used(): string[] {
    return [...this.#used];
  }

  /**
   * The keys whose files this instance put in the output, placed or made and kept: the next build's KeptFolders may
   * take them as they are (kept-documents.ts recordKept).
   */
  published(): string[] {
    return [...this.#published];
  }

  /** Removes from `dir` the entries no part of this build used (the union of every instance's used()). */
  static prune(dir: string, used: ReadonlySet<string>): void {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) if (!used.has(name.split('.')[0]!)) rmSync(join(dir, name), { force: true });
  }
}
