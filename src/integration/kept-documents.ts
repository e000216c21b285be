/**
 * The bulk documents' per-episode folders of the last output (/transcripts, /chapters, /search/passages,
 * /search/passage-terms, /search/records, /search/shards: KEYED_FOLDERS) taken whole into the new build's staging
 * folder, a rename each, instead of every unchanged file of them linked from the linked files' cache
 * (linked-files.ts) with its .br and .gz: at 1,276 episodes a one-episode rebuild made ~50,000 links, 4.3 s of the
 * two bulk threads' CPU in a profiled rebuild (the largest single cost of all its threads), and the previous output's
 * removal then unlinked them all again.
 *
 * A file of a taken folder stands for its key only when that is certain: the last build records, beside client/,
 * the keys whose files it published (KEPT_DOCUMENTS_FILE) under a token it also writes into the cache folder, and a
 * build forgets the cache's token when it starts. So a record whose token the cache no longer holds (a build that
 * stopped, another output built with this cache since, a cache cleared) takes nothing, and the files are linked as
 * before. In a taken folder, a file whose key is not the one this build wants is removed before anything is linked
 * or written at its path (it may be a link to a cache entry, never written through), and what this build did not
 * make or keep is removed before the folders go into the output (sweep).
 *
 * The folders are taken on the main thread at astro:build:start, after the content check (content with mistakes
 * leaves the last good site as it was) and before the rest of the output is moved aside (replace-out-dir.ts). The
 * bulk documents' threads started long before; each waits for that decision (KeptFolders, a shared flag) when it
 * first comes to a file of these folders, which is after its content is loaded.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { removeInBackground } from './replace-out-dir.ts';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { KEPT_DOCUMENTS_FILE } from '../../contract/schemas/build-source.ts';
import type { JobResult } from './precompress-job.ts';
import { cacheToken, forgetCacheToken, matchingRecord, writeRecord } from './output-record.ts';

/** In the cache folder: the token of the output whose KEPT_DOCUMENTS_FILE matches the linked files' cache. */
const TOKEN_FILE = 'kept-documents-token';

const KeptRecord = z.object({ token: z.string().min(1), keys: z.array(z.string()) });

/** What the main thread decided: the folders taken (URL paths, no trailing slash) and the keys whose files they hold. */
export interface KeptDecision {
  folders: string[];
  keys: string[];
}

/**
 * Shared by the main thread and the bulk threads: the folders the main thread may take (URL paths, no trailing
 * slash), and in `flag` whether it has decided ([0]) and which of them it took ([1], a bit each): the threads know
 * what is in their staging folder even if the decision's file, with the keys, cannot be read.
 */
export interface KeptGate {
  folders: readonly string[];
  flag: Int32Array;
  file: string;
}

export function keptGate(staging: string, folders: readonly string[]): KeptGate {
  if (folders.length > 31) throw new Error('at most 31 kept folders');
  return { folders: [...folders], flag: new Int32Array(new SharedArrayBuffer(8)), file: `${staging}.kept.json` };
}

/**
 * At astro:build:start: forgets the cache's token and, when the last output's record carries it, renames each of the
 * gate's folders of `outDir/client` into `staging`; then lets the bulk threads go on, whatever was decided.
 */
export function takeKeptFolders(options: { outDir: string; cacheRoot: string; staging: string; gate: KeptGate }): KeptDecision {
  const { outDir, cacheRoot, staging, gate } = options;
  const decision: KeptDecision = { folders: [], keys: [] };
  let taken = 0;
  try {
    const token = cacheToken(cacheRoot, TOKEN_FILE);
    forgetCacheToken(cacheRoot, TOKEN_FILE);
    const record = matchingRecord(join(outDir, KEPT_DOCUMENTS_FILE), KeptRecord, token);
    if (record) {
      for (const [bit, folder] of gate.folders.entries()) {
        const from = join(outDir, 'client', folder.slice(1));
        if (!existsSync(from)) continue;
        const to = join(staging, folder.slice(1));
        try {
          mkdirSync(dirname(to), { recursive: true });
          renameSync(from, to);
          decision.folders.push(folder);
          taken |= 1 << bit;
        } catch {
          // Another file system, or a bulk thread made the folder first: its files are linked as before.
        }
      }
      if (decision.folders.length) decision.keys = record.keys;
    }
  } finally {
    try {
      mkdirSync(dirname(gate.file), { recursive: true });
      writeFileSync(gate.file, JSON.stringify(decision));
    } finally {
      // Whatever happened: a thread that finds no decision's file holds no key as kept (KeptFolders).
      Atomics.store(gate.flag, 1, taken);
      Atomics.store(gate.flag, 0, 1);
      Atomics.notify(gate.flag, 0);
    }
  }
  return decision;
}

/** Once the documents are in the output: the keys whose files it holds, under a new token shared with the cache. */
export function recordKept(outDir: string, cacheRoot: string, keys: Iterable<string>): void {
  writeRecord(join(outDir, KEPT_DOCUMENTS_FILE), cacheRoot, TOKEN_FILE, { keys: [...new Set(keys)].sort() });
}

/**
 * Removes from the taken folders in `staging` every file this build did not place or make (`done`, by URL path), and
 * every variant its result does not have: an episode removed, a segment cut anew, a file made without a .br.
 */
export function sweep(staging: string, folders: readonly string[], done: ReadonlyMap<string, JobResult>): number {
  let removed = 0;
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(join(staging, folder.slice(1)));
    } catch {
      continue;
    }
    for (const name of names) {
      const variant = /\.(br|gz)$/.exec(name)?.[1] as 'br' | 'gz' | undefined;
      const result = done.get(`${folder}/${variant ? name.slice(0, -3) : name}`);
      if (result && (!variant || result[variant] !== undefined)) continue;
      rmSync(join(staging, folder.slice(1), name), { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * What builds stopped on the way (Ctrl-C in an editor's rebuild) left in the cache folder: their staging folders,
 * with the folders they took from their output, and their decisions (`<prefix><pid>`, `<prefix><pid>.kept.json`).
 * Removed at low priority (replace-out-dir.ts), unless their process still runs (a build beside this one, or a pid
 * since reused: left for a later build). Resolves once they are gone.
 */
export function removeLeftovers(cacheRoot: string, prefix: string): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(cacheRoot);
  } catch {
    return Promise.resolve();
  }
  const removals: Array<Promise<void>> = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)(\.kept\.json)?$/.exec(name.slice(prefix.length));
    if (!m || running(Number(m[1]))) continue;
    if (m[2]) rmSync(join(cacheRoot, name), { force: true });
    else removals.push(removeInBackground(join(cacheRoot, name)).done.catch(() => {}));
  }
  return Promise.all(removals).then(() => undefined);
}

function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: a process of another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** In a bulk thread: the main thread's decision, waited for the first time a file of a keyed folder is at stake. */
export class KeptFolders {
  readonly #gate: KeptGate;
  #decision?: { folders: Set<string>; keys: Set<string> };

  constructor(gate: KeptGate) {
    this.#gate = gate;
  }

  /** True when `path` is in a folder taken from the last output: a file may be there already. */
  taken(path: string): boolean {
    const folder = path.slice(0, path.lastIndexOf('/'));
    // A path elsewhere never waits.
    if (!this.#gate.folders.includes(folder)) return false;
    return this.#decided().folders.has(folder);
  }

  /** True when the last output published `key`'s files and every one of `paths` is in a folder taken from it. */
  holds(key: string, paths: readonly string[]): boolean {
    return paths.length > 0 && paths.every((p) => this.taken(p)) && this.#decided().keys.has(key);
  }

  #decided(): { folders: Set<string>; keys: Set<string> } {
    if (!this.#decision) {
      // Blocks this thread until astro:build:start (seconds at most: its content is loaded by then).
      Atomics.wait(this.#gate.flag, 0, 0);
      const taken = Atomics.load(this.#gate.flag, 1);
      let keys: string[] = [];
      try {
        keys = (JSON.parse(readFileSync(this.#gate.file, 'utf8')) as KeptDecision).keys;
      } catch {
        // Not written: every file of a taken folder is then another key's, replaced.
      }
      this.#decision = { folders: new Set(this.#gate.folders.filter((_, bit) => taken & (1 << bit))), keys: new Set(keys) };
    }
    return this.#decision;
  }
}
