import { z } from 'zod';

/** A stored representation of a file: the file itself or its precompressed variant. */
const VariantSchema = z.object({ etag: z.string(), size: z.int().nonnegative() });

/**
 * One file of the build, as every host must answer it (see contract/http-policy.ts): decided by the build, read
 * by hosts; `fn` says the request goes through the function layer first on a CDN (rate-limit headers).
 */
export const AssetEntrySchema = z.object({
  type: z.string(),
  cacheControl: z.string(),
  /** Whole seconds since the epoch: Last-Modified. */
  mtime: z.int(),
  identity: VariantSchema,
  br: VariantSchema.optional(),
  gzip: VariantSchema.optional(),
  csp: z.string().optional(),
  seekable: z.boolean().optional(),
  fn: z.boolean().optional(),
});
export type AssetEntry = z.infer<typeof AssetEntrySchema>;

/**
 * /_manifest.json as stored (version 3). Every host reads it before it answers anything, so it is kept small and
 * cheap to read: what thousands of files share is said once, and the files are one string, a line each, sorted by
 * path, looked up by binary search and decoded when asked for. In version 1 (an object per file with its type,
 * cache policy, CSP and three quoted ETags) the N = 1,000 bench output's manifest was 7.5 MB, ~230 ms of a Node cold
 * start and ~20 MB of heap; version 2 (an array per file, by path) 2.2 MB and ~75 ms of JSON.parse, whose 23,000
 * arrays stayed in the heap; this version parses as one string (~15 ms).
 *
 *   files = lines joined by "\n", sorted by path (code-unit order):
 *     path TAB type TAB policy TAB mtime TAB tag TAB size [TAB br [TAB gzip [TAB csp [TAB flags]]]]
 *     type, policy, csp  index into `types`, `policies`, `csps` (csp -1: none)
 *     tag                the file's ETag without its quotes; the variants' are the same with "-br" / "-gz"
 *     br, gzip           size of the stored .br / .gz variant, -1 when there is none
 *     flags              1: seekable (audio, video), 2: answered by the function layer first (`fn`)
 *   trailing fields that are -1 (or flags 0) are left out; numbers in decimal. A path never holds a tab or a
 *   line break (packManifest refuses one).
 */
export const MANIFEST_VERSION = 3;

export const StoredManifestSchema = z.object({
  version: z.literal(MANIFEST_VERSION),
  generated_at: z.iso.datetime(),
  /** The site URL the documents were built for ({base_url}). */
  siteUrl: z.url(),
  types: z.array(z.string()),
  policies: z.array(z.string()),
  csps: z.array(z.string()),
  /** The files, a line each (see above). */
  files: z.string(),
});
export type StoredManifest = z.infer<typeof StoredManifestSchema>;

const SEEKABLE = 1;
const FUNCTION_ROUTED = 2;

export class ManifestError extends Error {
  readonly code = 'invalid_manifest';
}

const malformed = (path: string) => new ManifestError(`/_manifest.json: the entry of ${path} is malformed; build again`);

const TAB = 9;
/** An ETag's opaque tag as stored, without quotes (RFC 9110: visible characters but the double quote). */
const TAG = /^[!#-~]+$/;
const isIndex = (n: number) => Number.isInteger(n) && n >= -1;

/** The build's files, each decoded from its line when asked for (a host asks for few of them at a time). */
export class AssetFiles {
  readonly #text: string;
  readonly #tables: Pick<StoredManifest, 'types' | 'policies' | 'csps'>;
  /** Where each line starts, and one past the end (made on first use). */
  #starts: Int32Array | undefined;

  constructor(stored: StoredManifest) {
    this.#text = stored.files;
    this.#tables = stored;
  }

  #lines(): Int32Array {
    if (this.#starts) return this.#starts;
    const text = this.#text;
    let n = text.length ? 1 : 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
    const starts = new Int32Array(n + 1);
    for (let k = 1, i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
    starts[n] = text.length + 1;
    return (this.#starts = starts);
  }

  /** Line k's path. */
  #path(k: number): string {
    const starts = this.#lines();
    const from = starts[k]!;
    const tab = this.#text.indexOf('\t', from);
    return this.#text.slice(from, tab < 0 || tab > starts[k + 1]! - 1 ? starts[k + 1]! - 1 : tab);
  }

  /** The line of `path`, or -1: a binary search comparing the path unit by unit with each line's. */
  #find(path: string): number {
    const text = this.#text;
    const starts = this.#lines();
    let lo = 0;
    let hi = starts.length - 2;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const from = starts[mid]!;
      const end = starts[mid + 1]! - 1;
      let i = 0;
      let c = 0;
      for (; from + i < end && i < path.length; i++) {
        const unit = text.charCodeAt(from + i);
        if (unit === TAB) break;
        c = unit - path.charCodeAt(i);
        if (c !== 0) break;
      }
      if (c === 0) {
        const lineEnded = from + i >= end || text.charCodeAt(from + i) === TAB;
        if (lineEnded && i === path.length) return mid;
        c = lineEnded ? -1 : 1;
      }
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  has(path: string): boolean {
    return this.#find(path) >= 0;
  }

  get(path: string): AssetEntry | undefined {
    const k = this.#find(path);
    return k < 0 ? undefined : this.#unpack(k);
  }

  get size(): number {
    return this.#lines().length - 1;
  }

  *paths(): IterableIterator<string> {
    for (let k = 0; k < this.size; k++) yield this.#path(k);
  }

  *entries(): IterableIterator<[string, AssetEntry]> {
    for (let k = 0; k < this.size; k++) yield [this.#path(k), this.#unpack(k)];
  }

  #unpack(k: number): AssetEntry {
    const starts = this.#lines();
    const [path = '', ...fields] = this.#text.slice(starts[k]!, starts[k + 1]! - 1).split('\t');
    if (fields.length < 5 || fields.length > 9) throw malformed(path);
    const [type, policy, mtime, size, br = -1, gzip = -1, csp = -1, flags = 0] = [fields[0], fields[1], fields[2], ...fields.slice(4)].map(Number) as number[];
    const tag = fields[3]!;
    const { types, policies, csps } = this.#tables;
    if (!tag || !TAG.test(tag) || ![type, policy, br, gzip, csp, flags].every(isIndex) || !Number.isInteger(mtime) || !Number.isInteger(size) || size! < 0) throw malformed(path);
    if (types[type!] === undefined || policies[policy!] === undefined || (csp! >= 0 && csps[csp!] === undefined)) throw malformed(path);
    const entry: AssetEntry = { type: types[type!]!, cacheControl: policies[policy!]!, mtime: mtime!, identity: { etag: `"${tag}"`, size: size! } };
    if (br! >= 0) entry.br = { etag: `"${tag}-br"`, size: br! };
    if (gzip! >= 0) entry.gzip = { etag: `"${tag}-gz"`, size: gzip! };
    if (csp! >= 0) entry.csp = csps[csp!]!;
    if (flags! & SEEKABLE) entry.seekable = true;
    if (flags! & FUNCTION_ROUTED) entry.fn = true;
    return entry;
  }

  /** Whether the lines are in the order lookups need, each path once (parseManifest checks it). */
  sorted(): boolean {
    let prev: string | undefined;
    for (const path of this.paths()) {
      if (prev !== undefined && !(prev < path)) return false;
      prev = path;
    }
    return true;
  }
}

/** The manifest as hosts use it. */
export interface AssetManifest {
  version: typeof MANIFEST_VERSION;
  generated_at: string;
  siteUrl: string;
  files: AssetFiles;
}

/**
 * The stored form of a build's files (the build writes it). Every ETag must be a quoted tag with its variants'
 * tags made from it ("-br", "-gz"), as the build makes them; anything else is refused rather than stored wrong.
 */
export function packManifest(meta: { generated_at: string; siteUrl: string }, files: Record<string, AssetEntry>): StoredManifest {
  const tables = { types: [] as string[], policies: [] as string[], csps: [] as string[] };
  const indexes = { types: new Map<string, number>(), policies: new Map<string, number>(), csps: new Map<string, number>() };
  const indexOf = (table: keyof typeof tables, value: string): number => {
    let i = indexes[table].get(value);
    if (i === undefined) indexes[table].set(value, (i = tables[table].push(value) - 1));
    return i;
  };
  const lines: string[] = [];
  for (const [path, raw] of Object.entries(files).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))) {
    if (/[\t\n\r]/.test(path)) throw new ManifestError(`${JSON.stringify(path)}: a path with a tab or a line break cannot be stored`);
    const entry = AssetEntrySchema.parse(raw);
    const tag = /^"([^"]+)"$/.exec(entry.identity.etag)?.[1];
    if (!tag || !TAG.test(tag)) throw new ManifestError(`${path}: ETag ${entry.identity.etag} is not a quoted tag`);
    for (const [variant, mark] of [['br', 'br'], ['gzip', 'gz']] as const) {
      const etag = entry[variant]?.etag;
      if (etag !== undefined && etag !== `"${tag}-${mark}"`) throw new ManifestError(`${path}: the ${variant} ETag ${etag} is not "${tag}-${mark}"`);
    }
    const row: number[] = [
      entry.br?.size ?? -1,
      entry.gzip?.size ?? -1,
      entry.csp === undefined ? -1 : indexOf('csps', entry.csp),
      (entry.seekable ? SEEKABLE : 0) | (entry.fn ? FUNCTION_ROUTED : 0),
    ];
    while (row.length && row.at(-1) === (row.length === 4 ? 0 : -1)) row.pop();
    lines.push([path, indexOf('types', entry.type), indexOf('policies', entry.cacheControl), entry.mtime, tag, entry.identity.size, ...row].join('\t'));
  }
  return StoredManifestSchema.parse({ version: MANIFEST_VERSION, ...meta, ...tables, files: lines.join('\n') });
}

/** Every entry checked: for the build's own tools and tests (hosts use trustedManifest). */
export function parseManifest(json: unknown): AssetManifest {
  const stored = StoredManifestSchema.parse(json);
  const manifest = { ...stored, files: new AssetFiles(stored) };
  if (!manifest.files.sorted()) throw new ManifestError('/_manifest.json: the files are not sorted by path, each once; build again');
  for (const [, entry] of manifest.files.entries()) AssetEntrySchema.parse(entry);
  return manifest;
}

/**
 * What a host checks of the manifest at start: the envelope and a few entries. The build wrote it from the
 * schemas above (packManifest); checking every entry again at start cost more than reading it (23,800 files at
 * N = 1,000), so the rest are decoded, and checked for their shape, when a request asks for them.
 */
export function trustedManifest(json: unknown): AssetManifest {
  const stored = StoredManifestSchema.parse(json);
  const files = new AssetFiles(stored);
  let checked = 0;
  for (const [, entry] of files.entries()) {
    AssetEntrySchema.parse(entry);
    if (++checked === 8) break;
  }
  return { version: stored.version, generated_at: stored.generated_at, siteUrl: stored.siteUrl, files };
}
