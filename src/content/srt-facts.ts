/**
 * What loading a SubRip transcript learns that the next build can know without reading it: its digest (the sha1
 * that names its text in every cache of the build) and the count and end of its cues, kept in the content cache
 * (parse-cache.ts readKept) by the file's path, size, modification time and inode. Each of a build's three threads
 * loads the content (src/content/site.ts), and each read every transcript (87 MB at 1,000 hour-long episodes), hashed
 * it and read its cues' cache entry to count them: ~0.3 s a thread on a quiet machine, ~1 s beside the others in a
 * one-episode rebuild. A file as it was is taken from here; its cues are read from the cache when something asks
 * for them (load.ts, loadCuesOnDemand).
 *
 * A file changed in place within the same tick of the file system's clock, to the same size, would look the same:
 * so a file is remembered only when it was last written more than two seconds before it was read (as git treats
 * "racily clean" files). Only transcripts without problems are remembered.
 */
import { statSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { keep, parseCacheDir, readKept, type Codec } from './parse-cache.ts';

export interface SrtFacts {
  digest: string;
  count: number;
  lastEnd: number | undefined;
}

interface Known extends SrtFacts {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** The name it is kept under (its layout's version). */
const NAME = 'srt-facts-1';
/** Closer to the read than this, a file's time does not vouch for its bytes. */
const RACY_MS = 2000;

type Row = [path: string, size: number, mtimeMs: number, ino: number, digest: string, count: number, lastEnd: number | null];

const CODEC: Codec<Map<string, Known>> = {
  encode: (known) =>
    Buffer.from(JSON.stringify([...known].map(([path, k]): Row => [path, k.size, k.mtimeMs, k.ino, k.digest, k.count, k.lastEnd ?? null]))),
  decode(bytes) {
    const rows = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as unknown;
    if (!Array.isArray(rows)) throw new Error('damaged transcript facts');
    const known = new Map<string, Known>();
    for (const row of rows as unknown[]) {
      if (!Array.isArray(row) || row.length !== 7) throw new Error('damaged transcript facts');
      const [path, size, mtimeMs, ino, digest, count, lastEnd] = row as Row;
      if (typeof path !== 'string' || typeof digest !== 'string' || ![size, mtimeMs, ino, count].every(Number.isFinite)) throw new Error('damaged transcript facts');
      known.set(path, { size, mtimeMs, ino, digest, count, lastEnd: lastEnd ?? undefined });
    }
    return known;
  },
};

/** This load's view of a cache folder: what was kept when it first asked, and what it has seen since (path → facts). */
let state: { dir: string | undefined; kept: Map<string, Known>; seen: Map<string, Known>; learnt: number } | undefined;

function current(): NonNullable<typeof state> {
  const dir = parseCacheDir();
  if (!state || state.dir !== dir) state = { dir, kept: readKept(NAME, CODEC) ?? new Map(), seen: new Map(), learnt: 0 };
  return state!;
}

/** The facts of the SubRip transcript at `path` when the file is as they were learnt; `found`: its stat. */
export function knownSrt(path: string, found: Stats = statSync(path)): SrtFacts | undefined {
  const s = current();
  const at = resolve(path);
  const k = s.kept.get(at) ?? s.seen.get(at);
  if (!k || k.size !== found.size || k.mtimeMs !== found.mtimeMs || k.ino !== found.ino) return undefined;
  s.seen.set(at, k);
  return { digest: k.digest, count: k.count, lastEnd: k.lastEnd };
}

/** Facts learnt by reading the file at `readAt` (Date.now() before the read), the file then as `found` says. */
export function learntSrt(path: string, found: Stats, readAt: number, facts: SrtFacts): void {
  if (readAt - found.mtimeMs <= RACY_MS) return;
  const s = current();
  s.seen.set(resolve(path), { ...facts, size: found.size, mtimeMs: found.mtimeMs, ino: found.ino });
  s.learnt++;
}

/**
 * Keeps the facts of the transcripts this thread has seen (a load of the whole show) when they differ from what was
 * kept: facts of files gone are forgotten. Several threads of a build may keep at once; each writes whole facts.
 */
export function keepSrtFacts(): void {
  if (!state || state.dir !== parseCacheDir()) return;
  const { kept, seen, learnt } = state;
  if (learnt > 0 || seen.size !== kept.size) keep(NAME, seen, CODEC);
  // The next load (`astro dev` after an edit) reads what is kept, as the next build's would.
  state = undefined;
}
