/**
 * Per-episode build work by content hash, on disk under Astro's cacheDir (set by the content-check integration),
 * so a rebuild redoes only what changed: parsed transcripts (cachedParse), the search analysis of each
 * episode's passages (src/build/search/analysis.ts), and each episode file's frontmatter and notes (load.ts).
 * At 1,000 hour-long episodes each is seconds of a build that should take ten. Without a configured folder (npm
 * run check, tests, tools) everything is computed.
 *
 * The key is the sha1 of the parser's identity (PARSE_CACHE_VERSION, the parser's name and its source text) and the
 * transcript's bytes; a change to srt.ts or vtt.ts changes the source text and so the key. Bump
 * PARSE_CACHE_VERSION when a change elsewhere (srt-parser-2, a helper) changes what a parser returns.
 * The state is on globalThis: Astro evaluates the content modules more than once in a build (the config's
 * integrations, the content layer, the prerender bundle), and all of them should see the folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeAtomic } from './write-atomic.ts';

export const PARSE_CACHE_VERSION = 1;

const STATE = Symbol.for('podcast-listener-service.parse-cache');

interface State {
  dir?: string;
  /** Keys read or written by this process. */
  used: Set<string>;
  /** Content-keyed entries (cachedByContent and the like) computed by this process, and read back by it. */
  made: Set<string>;
  read: Set<string>;
  hits: number;
  misses: number;
}

function state(): State {
  const g = globalThis as { [STATE]?: State };
  return (g[STATE] ??= { used: new Set(), made: new Set(), read: new Set(), hits: 0, misses: 0 });
}

/** The folder of this cache under Astro's cacheDir (every thread of a build that configures it names the same). */
export function parseCacheFolder(astroCacheDir: string): string {
  return join(astroCacheDir, 'episodes');
}

/** Where parsed transcripts are kept (undefined: not kept). */
export function configureParseCache(dir: string | undefined): void {
  state().dir = dir;
}

/** Reads and computations, this thread's and those of the threads added here (a key read by several threads counts once for each). */
export function parseCacheStats(): { hits: number; misses: number } {
  const { hits, misses } = state();
  return { hits, misses };
}

/**
 * The content-keyed entries a build used, each counted once whatever the threads that read it: `made` in this
 * build (by any of its threads whose use was added here), `kept` from an earlier one. Unlike parseCacheStats, an
 * entry one thread made and others read back is not counted as kept: a build from an empty cache keeps nothing.
 */
export function parseCacheSummary(): { made: number; kept: number } {
  const { read, made } = state();
  let kept = 0;
  for (const key of read) if (!made.has(key)) kept++;
  return { made: made.size, kept };
}

/** The configured folder, for another thread of the build (the bulk-documents worker). */
export function parseCacheDir(): string | undefined {
  return state().dir;
}

/** What this thread used, for the thread that prunes (a worker thread has its own globalThis). */
export interface ParseCacheUsage {
  used: string[];
  /** The content-keyed entries this thread computed, and read back. */
  made: string[];
  read: string[];
  hits: number;
  misses: number;
}

export function parseCacheUsage(): ParseCacheUsage {
  const { used, made, read, hits, misses } = state();
  return { used: [...used], made: [...made], read: [...read], hits, misses };
}

/** Counts another thread's use as this thread's, so that pruneParseCache keeps its entries. */
export function addParseCacheUsage(usage: ParseCacheUsage): void {
  const s = state();
  for (const key of usage.used) s.used.add(key);
  for (const key of usage.made) s.made.add(key);
  for (const key of usage.read) s.read.add(key);
  s.hits += usage.hits;
  s.misses += usage.misses;
}

/**
 * parse(text), or what it returned for the same text before. The result must survive a JSON round trip, or the
 * `codec`'s, when one is given to keep it in a binary form (its source text is part of the key, as the parser's is).
 */
export function cachedParse<T>(parse: (text: string) => T, text: string, codec?: Codec<T>, textSha1?: string): T {
  const key = parseKey(parse, text, codec, textSha1);
  return cached(key, () => parse(text), codec ? BINARY_ENTRY : JSON_ENTRY, codec ?? (JSON_CODEC as Codec<T>));
}

/**
 * cachedParse's entry as it is kept (`codec`'s bytes), under the same key, for a caller that decodes it only if it
 * needs the value (src/content/load.ts, loadCuesOnDemand). Without a cache folder, parse(text) encoded.
 */
export function cachedParseBytes<T>(parse: (text: string) => T, text: string, codec: Codec<T>, textSha1?: string): Uint8Array {
  return cached(parseKey(parse, text, codec, textSha1), () => codec.encode(parse(text)), BINARY_ENTRY, BYTES_CODEC);
}

/**
 * The entry cachedParseBytes keeps for a text known only by its sha1, read when asked (undefined when it is not kept,
 * or no folder is configured): for a caller that knows the text's digest without reading the text
 * (src/content/srt-facts.ts). The entry counts as used from now on, read or not, so the build keeps it.
 */
export function parsedEntry<T>(parse: (text: string) => T, codec: Codec<T>, textSha1: string): () => Uint8Array | undefined {
  const { dir, used } = state();
  // Keyed by the sha1 alone: the text is not looked at.
  const key = parseKey(parse, '', codec, textSha1);
  used.add(key);
  return () => {
    if (!dir) return undefined;
    try {
      return readFileSync(entryPath(dir, key, BINARY_ENTRY));
    } catch {
      return undefined;
    }
  };
}

/**
 * cachedParse for a result another thread will read: parsed and kept when it is not kept yet, nothing read back when
 * it is (a rebuild's transcripts are all kept, and reading one is ~1 ms of JSON for nothing).
 */
export function ensureParsed<T>(parse: (text: string) => T, text: string, codec?: Codec<T>, textSha1?: string): void {
  const { dir } = state();
  if (dir && existsSync(entryPath(dir, parseKey(parse, text, codec, textSha1), codec ? BINARY_ENTRY : JSON_ENTRY))) return;
  cachedParse(parse, text, codec, textSha1);
}

/**
 * The entry's key: the parser's identity and the text, or the text's sha1 (base64url) when the caller has made it
 * anyway (a transcript's digest names its text, src/content/load.ts): ~90 MB of a 1,000-episode show's transcripts
 * not hashed a second time on each of a build's three threads. The identity says which of the two it is keyed by.
 */
function parseKey<T>(parse: (text: string) => T, text: string, codec: Codec<T> | undefined, textSha1: string | undefined): string {
  const identity = parseIdentity(parse, codec);
  return textSha1 === undefined ? contentKey(identity, text) : contentKey(`${identity}\0sha1`, textSha1);
}

function parseIdentity<T>(parse: (text: string) => T, codec?: Codec<T>): string {
  const identity = `${PARSE_CACHE_VERSION}\0${parse.name}\0${parse.toString()}`;
  return codec ? `${identity}\0${codec.encode.toString()}\0${codec.decode.toString()}` : identity;
}

/** The file name extensions of the two kinds of entry: JSON (cachedByContent) and a codec's bytes (cachedBytesByKey). */
const JSON_ENTRY = 'json';
const BINARY_ENTRY = 'bin';

/** The key an entry is kept under: what computes it (a version, the code) and what it computes from. */
export function contentKey(identity: string, input: string | Uint8Array): string {
  return createHash('sha1').update(identity).update('\0').update(input).digest('hex');
}

function entryPath(dir: string, key: string, extension: string): string {
  return join(dir, `${key}.${extension}`);
}

/**
 * compute(), or what it returned before for the same identity (what computes: a version, the code) and input
 * (what it computes from), kept as JSON when a folder is configured.
 */
export function cachedByContent<T>(identity: string, input: string, compute: () => T, options: CacheOptions = {}): T {
  return cached(contentKey(identity, input), compute, JSON_ENTRY, JSON_CODEC as Codec<T>, options);
}

export interface CacheOptions {
  /**
   * False: kept and pruned like any entry, but left out of parseCacheStats and parseCacheSummary, which count the
   * build's per-episode work (transcripts, search analyses), not a lookup that saves a few milliseconds.
   */
  counted?: boolean;
}

/** How a value is kept on disk: bytes out, the same value back. */
export interface Codec<T> {
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

/**
 * compute(), or what it returned before under `key` (contentKey: the code that computes and what it computes from),
 * kept in its own binary form: large numeric data (a show's word analyses, ~24 million integers at 1,000 episodes),
 * which JSON.parse read back in ~8 s of a rebuild's critical path.
 */
export function cachedBytesByKey<T>(key: string, compute: () => T, codec: Codec<T>, options: CacheOptions = {}): T {
  return cached(key, compute, BINARY_ENTRY, codec, options);
}

/** Bytes kept as they are (a value that is already its own binary form). */
export const BYTES_CODEC: Codec<Uint8Array> = { encode: (bytes) => bytes, decode: (bytes) => bytes };

/**
 * A value kept under a name rather than by content: what one build leaves for the next to start from (the show's
 * merged vocabulary, src/build/search/analysis.ts), which the reader checks against what it has. Undefined when no
 * folder is configured, nothing is kept under the name, or what is kept cannot be decoded.
 */
export function readKept<T>(name: string, codec: Codec<T>): T | undefined {
  const { dir, used } = state();
  if (!dir) return undefined;
  used.add(name);
  try {
    return codec.decode(readFileSync(entryPath(dir, name, BINARY_ENTRY)));
  } catch {
    return undefined;
  }
}

/** Keeps `value` under `name` (readKept), replacing what was kept. */
export function keep<T>(name: string, value: T, codec: Codec<T>): void {
  const { dir, used } = state();
  if (!dir) return;
  used.add(name);
  try {
    mkdirSync(dir, { recursive: true });
    writeAtomic(entryPath(dir, name, BINARY_ENTRY), codec.encode(value));
  } catch {
    // A cache that cannot be written only costs time.
  }
}

/**
 * The layout the binary codecs share: the byte length of a JSON head (32 bits, little-endian), the head, then the
 * body's parts one after the other from the next multiple of `align` (zero padding), so a typed array can view it.
 */
export function framed(head: unknown, body: readonly Uint8Array[], align = 1): Uint8Array {
  const json = Buffer.from(JSON.stringify(head));
  const at = Math.ceil((4 + json.byteLength) / align) * align;
  const bytes = new Uint8Array(at + body.reduce((n, part) => n + part.byteLength, 0));
  new DataView(bytes.buffer).setUint32(0, json.byteLength, true);
  bytes.set(json, 4);
  let offset = at;
  for (const part of body) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** framed's head and body back; the body starts at a multiple of `align` of its buffer (copied when it would not). */
export function unframed<H>(stored: Uint8Array, align = 1): { head: H; body: Uint8Array } {
  const bytes = stored.byteOffset % align === 0 ? stored : stored.slice();
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as H;
  return { head, body: bytes.subarray(Math.ceil((4 + length) / align) * align) };
}

const JSON_CODEC: Codec<unknown> = {
  encode: (value) => Buffer.from(JSON.stringify(value)),
  decode: (bytes) => JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')),
};

function cached<T>(key: string, compute: () => T, extension: string, codec: Codec<T>, { counted = true }: CacheOptions = {}): T {
  const { dir } = state();
  if (!dir) return compute();
  const path = entryPath(dir, key, extension);
  state().used.add(key);
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(path);
  } catch {
    // Not cached yet (or unreadable): compute.
  }
  if (bytes) {
    try {
      const value = codec.decode(bytes);
      if (counted) {
        state().hits++;
        state().read.add(key);
      }
      return value;
    } catch {
      // A damaged entry is computed again and replaced.
    }
  }
  const value = compute();
  if (counted) {
    state().misses++;
    state().made.add(key);
  }
  try {
    mkdirSync(dir, { recursive: true });
    writeAtomic(path, codec.encode(value));
  } catch {
    // A cache that cannot be written only costs time.
  }
  return value;
}

/** Removes the entries this process did not use (after a complete build), so the folder stays one show's size. */
export function pruneParseCache(): void {
  const { dir, used } = state();
  if (!dir) return;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  // An entry is <key>.json or <key>.bin; a .tmp left by a build that stopped goes too.
  for (const name of names) if (name.endsWith('.tmp') || !used.has(name.split('.')[0]!)) rmSync(join(dir, name), { force: true });
}
