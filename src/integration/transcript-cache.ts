/**
 * An episode's published transcript files (/transcripts/<stem>.srt, .vtt, .json) kept by the bytes of the editor's
 * transcript, under Astro's cacheDir: a rebuild links them into the build, with their .gz from the precompress
 * cache, instead of reading, parsing, rendering, hashing and compressing each transcript again (at 1,000 hour-long
 * episodes: 3,000 files, 276 MB, ~20 s of CPU). The key is the sha1 of the renderer's source (the modules that make
 * the three formats, see IDENTITY_SOURCES), the transcript's format and its bytes. Entries no build used this time
 * are removed (prune), so the folder stays one show's size.
 *
 * The bulk-documents worker threads writing the transcripts use it, one instance each (src/integration/bulk-documents.ts);
 * the main thread prunes once both are done.
 */
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedEpisode } from '../content/load.ts';
import { transcriptFiles } from '../build/transcripts.ts';
import type { JobResult, Levels } from './precompress-job.ts';
import { writeAtomic } from '../content/write-atomic.ts';

/** Bump when the published transcripts change in a way the sources below do not show (e.g. a dependency). */
const VERSION = 1;

/** The modules whose code decides a published transcript's bytes. */
const IDENTITY_SOURCES = ['../build/transcripts.ts', '../content/srt.ts', '../content/vtt.ts', '../components/transcript.ts'];

interface Entry {
  path: string;
  levels: Levels;
  result: Omit<JobResult, 'file' | 'hit'>;
}

export class TranscriptCache {
  readonly #dir: string;
  readonly #precompressCache: string;
  readonly #identity: string;
  readonly #used = new Set<string>();
  /** Episodes rendered this time, by the URL path of each of their files: the key and what is known so far. */
  readonly #pending = new Map<string, { index: number; episode: { key: string; entries: Entry[]; files: string[]; left: number } }>();

  constructor(dir: string, precompressCache: string) {
    this.#dir = dir;
    this.#precompressCache = precompressCache;
    const hash = createHash('sha1').update(String(VERSION));
    for (const source of IDENTITY_SOURCES) hash.update('\0').update(readFileSync(fileURLToPath(new URL(source, import.meta.url))));
    this.#identity = hash.digest('hex');
  }

  /**
   * Places the episode's transcript files and their variants in `staging` from the cache, adding their results to
   * `done`; false when they are not all there (the caller renders them and hands each to keep()).
   */
  place(episode: LoadedEpisode, staging: string, levelsOf: (path: string, bytes: number) => Levels, done: Map<string, JobResult>): boolean {
    const files = transcriptFiles(episode);
    if (!episode.transcript || !files.length) return false;
    const key = createHash('sha1').update(this.#identity).update(`\0${episode.transcript.format}\0`).update(readFileSync(episode.transcript.path)).digest('hex');
    this.#used.add(key);
    const paths = files.map((f) => `/transcripts/${f.file}`);
    const placed: string[] = [];
    try {
      const entries = JSON.parse(readFileSync(join(this.#dir, `${key}.json`), 'utf8')) as Entry[];
      if (entries.length !== paths.length) throw new Error('stale');
      const results: Array<[string, JobResult]> = [];
      paths.forEach((path, i) => {
        const { levels, result } = entries[i]!;
        const wanted = levelsOf(path, result.size);
        if (entries[i]!.path !== path || wanted.br !== levels.br || wanted.gz !== levels.gz) throw new Error('stale');
        const file = join(staging, path.slice(1));
        mkdirSync(dirname(file), { recursive: true });
        linkSync(join(this.#dir, `${key}.${i}`), file);
        placed.push(file);
        for (const mark of ['br', 'gz'] as const) {
          if (!result[mark]) continue;
          linkSync(join(this.#precompressCache, `${result.key}.${mark}`), `${file}.${mark}`);
          placed.push(`${file}.${mark}`);
        }
        results.push([path, { ...result, file, hit: true }]);
      });
      for (const [path, r] of results) done.set(path, r);
      return true;
    } catch {
      // Not cached, or not all of it: render. What was linked goes, so that nothing writes through a link.
      for (const file of placed) rmSync(file, { force: true });
      const pending = { key, entries: new Array<Entry>(paths.length), files: new Array<string>(paths.length), left: paths.length };
      paths.forEach((path, index) => this.#pending.set(path, { index, episode: pending }));
      return false;
    }
  }

  /** A transcript file rendered and compressed this time (the result of runJob on `file`): kept for the next build. */
  keep(path: string, levels: Levels, result: JobResult): void {
    const pending = this.#pending.get(path);
    if (!pending) return;
    this.#pending.delete(path);
    const { index, episode } = pending;
    const { file, hit: _hit, ...rest } = result;
    episode.entries[index] = { path, levels, result: rest };
    episode.files[index] = file;
    if (--episode.left > 0) return;
    const { key, entries, files } = episode;
    try {
      mkdirSync(this.#dir, { recursive: true });
      files.forEach((f, k) => {
        const target = join(this.#dir, `${key}.${k}`);
        rmSync(target, { force: true });
        linkSync(f, target);
      });
      // The entry's list last (writeAtomic): an interrupted build leaves no half entry.
      writeAtomic(join(this.#dir, `${key}.json`), JSON.stringify(entries));
    } catch {
      // A cache that cannot be written only costs time.
    }
  }

  /** The keys of the entries this instance placed or kept. */
  used(): string[] {
    return [...this.#used];
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
