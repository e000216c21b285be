/**
 * What loading a content file learns that the next build can know without reading it, kept in the content cache
 * (parse-cache.ts readKept) by the file's path, size, modification time and inode: a SubRip transcript's digest and
 * cue count (srt-facts.ts), an episode file's validated frontmatter and rendered notes (load.ts). Each of a build's
 * three threads loads the content (src/content/site.ts); a file as it was is taken from here instead of read again.
 *
 * A file changed in place within the same tick of the file system's clock, to the same size, would look the same:
 * so a file is remembered only when it was last written more than two seconds before it was read (as git treats
 * "racily clean" files). Callers remember only what a file gave without problems.
 */
import { statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { keep, parseCacheDir, readKept, type Codec } from './parse-cache.ts';

/** Closer to the read than this, a file's time does not vouch for its bytes. */
const RACY_MS = 2000;

interface State<V> {
  dir: string | undefined;
  kept: Map<string, Known<V>>;
  seen: Map<string, Known<V>>;
  learnt: number;
}

interface Known<V> {
  size: number;
  mtimeMs: number;
  ino: number;
  value: V;
}

type Row = [path: string, size: number, mtimeMs: number, ino: number, value: unknown];

/**
 * One kind of facts. `name`: what they are kept under (with their layout's version); `valid`: whether a kept value
 * is one (a damaged or older entry is then not used at all).
 */
export class FileFacts<V> {
  readonly #name: string;
  readonly #codec: Codec<Map<string, Known<V>>>;
  /** This load's view of a cache folder: what was kept when it first asked, and what it has seen since (path → facts). */
  #state: State<V> | undefined;

  constructor(name: string, valid: (value: unknown) => value is V) {
    this.#name = name;
    this.#codec = {
      encode: (known) => Buffer.from(JSON.stringify([...known].map(([path, k]): Row => [path, k.size, k.mtimeMs, k.ino, k.value]))),
      decode(bytes) {
        const rows = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
        if (!Array.isArray(rows)) throw new Error(`damaged ${name}`);
        const known = new Map<string, Known<V>>();
        for (const row of rows as unknown[]) {
          if (!Array.isArray(row) || row.length !== 5) throw new Error(`damaged ${name}`);
          const [path, size, mtimeMs, ino, value] = row as Row;
          if (typeof path !== 'string' || ![size, mtimeMs, ino].every(Number.isFinite) || !valid(value)) throw new Error(`damaged ${name}`);
          known.set(path, { size, mtimeMs, ino, value });
        }
        return known;
      },
    };
  }

  #current(): State<V> {
    const dir = parseCacheDir();
    if (!this.#state || this.#state.dir !== dir) this.#state = { dir, kept: readKept(this.#name, this.#codec) ?? new Map(), seen: new Map(), learnt: 0 };
    return this.#state;
  }

  /** The facts of the file at `path` when it is as they were learnt; `found`: its stat. */
  known(path: string, found: Stats = statSync(path)): V | undefined {
    const s = this.#current();
    const at = resolve(path);
    const k = s.kept.get(at) ?? s.seen.get(at);
    if (!k || k.size !== found.size || k.mtimeMs !== found.mtimeMs || k.ino !== found.ino) return undefined;
    s.seen.set(at, k);
    return k.value;
  }

  /** Facts learnt by reading the file at `readAt` (Date.now() before the read), the file then as `found` says. */
  learnt(path: string, found: Stats, readAt: number, value: V): void {
    if (readAt - found.mtimeMs <= RACY_MS) return;
    const s = this.#current();
    s.seen.set(resolve(path), { size: found.size, mtimeMs: found.mtimeMs, ino: found.ino, value });
    s.learnt++;
  }

  /**
   * Keeps the facts of the files this thread has seen (a load of the whole show) when they differ from what was
   * kept: facts of files gone are forgotten. Several threads of a build may keep at once; each writes whole facts.
   */
  keep(): void {
    const s = this.#state;
    if (!s || s.dir !== parseCacheDir()) return;
    if (s.learnt > 0 || s.seen.size !== s.kept.size) keep(this.#name, s.seen, this.#codec);
    // The next load (`astro dev` after an edit) reads what is kept, as the next build's would.
    this.#state = undefined;
  }
}
