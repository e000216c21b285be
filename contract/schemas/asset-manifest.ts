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
 * /_manifest.json as stored (version 2). Every host reads all of it before it answers anything, so it is kept
 * small: a file is one array, and what thousands of files share is said once. In version 1 (an object per file
 * with its type, cache policy, CSP and three quoted ETags) the N = 1,000 bench output's manifest was 7.5 MB,
 * ~230 ms of a Node cold start (read and JSON.parse) and ~20 MB of heap for the life of the process.
 *
 *   files[path] = [type, policy, mtime, tag, size, br, gzip, csp, flags]
 *     type, policy, csp  index into `types`, `policies`, `csps` (csp -1: none)
 *     tag                the file's ETag without its quotes; the variants' are the same with "-br" / "-gz"
 *     br, gzip           size of the stored .br / .gz variant, -1 when there is none
 *     flags              1: seekable (audio, video), 2: answered by the function layer first (`fn`)
 *   trailing fields that are -1 (or flags 0) are left out.
 */
const PackedSchema = z.tuple([z.int().nonnegative(), z.int().nonnegative(), z.int(), z.string().min(1), z.int().nonnegative()], z.int());
type Packed = z.infer<typeof PackedSchema>;

export const MANIFEST_VERSION = 2;

export const StoredManifestSchema = z.object({
  version: z.literal(MANIFEST_VERSION),
  generated_at: z.iso.datetime(),
  /** The site URL the documents were built for ({base_url}). */
  siteUrl: z.url(),
  types: z.array(z.string()),
  policies: z.array(z.string()),
  csps: z.array(z.string()),
  /** By URL path (a page's path ends in /index.html). */
  files: z.record(z.string(), PackedSchema),
});
export type StoredManifest = z.infer<typeof StoredManifestSchema>;

const SEEKABLE = 1;
const FUNCTION_ROUTED = 2;

export class ManifestError extends Error {
  readonly code = 'invalid_manifest';
}

const malformed = (path: string) => new ManifestError(`/_manifest.json: the entry of ${path} is malformed; build again`);

/** The build's files, each decoded from its stored array when asked for (a host asks for few of them at a time). */
export class AssetFiles {
  readonly #stored: Record<string, Packed>;
  readonly #tables: Pick<StoredManifest, 'types' | 'policies' | 'csps'>;
  #size: number | undefined;

  constructor(stored: StoredManifest) {
    this.#stored = stored.files;
    this.#tables = stored;
  }

  has(path: string): boolean {
    return Object.hasOwn(this.#stored, path);
  }

  get(path: string): AssetEntry | undefined {
    return Object.hasOwn(this.#stored, path) ? this.#unpack(path, this.#stored[path]!) : undefined;
  }

  get size(): number {
    return (this.#size ??= Object.keys(this.#stored).length);
  }

  *paths(): IterableIterator<string> {
    yield* Object.keys(this.#stored);
  }

  *entries(): IterableIterator<[string, AssetEntry]> {
    for (const path of Object.keys(this.#stored)) yield [path, this.#unpack(path, this.#stored[path]!)];
  }

  #unpack(path: string, packed: Packed): AssetEntry {
    if (!Array.isArray(packed)) throw malformed(path);
    const [type, policy, mtime, tag, size, br = -1, gzip = -1, csp = -1, flags = 0] = packed;
    const { types, policies, csps } = this.#tables;
    if (types[type] === undefined || policies[policy] === undefined || (csp >= 0 && csps[csp] === undefined)) throw malformed(path);
    const entry: AssetEntry = { type: types[type]!, cacheControl: policies[policy]!, mtime, identity: { etag: `"${tag}"`, size } };
    if (br >= 0) entry.br = { etag: `"${tag}-br"`, size: br };
    if (gzip >= 0) entry.gzip = { etag: `"${tag}-gz"`, size: gzip };
    if (csp >= 0) entry.csp = csps[csp]!;
    if (flags & SEEKABLE) entry.seekable = true;
    if (flags & FUNCTION_ROUTED) entry.fn = true;
    return entry;
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
  const packed: Record<string, Packed> = {};
  for (const [path, raw] of Object.entries(files)) {
    const entry = AssetEntrySchema.parse(raw);
    const tag = /^"([^"]+)"$/.exec(entry.identity.etag)?.[1];
    if (!tag) throw new ManifestError(`${path}: ETag ${entry.identity.etag} is not a quoted tag`);
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
    packed[path] = [indexOf('types', entry.type), indexOf('policies', entry.cacheControl), entry.mtime, tag, entry.identity.size, ...row];
  }
  return StoredManifestSchema.parse({ version: MANIFEST_VERSION, ...meta, ...tables, files: packed });
}

/** Every entry checked: for the build's own tools and tests (hosts use trustedManifest). */
export function parseManifest(json: unknown): AssetManifest {
  const stored = StoredManifestSchema.parse(json);
  const manifest = { ...stored, files: new AssetFiles(stored) };
  for (const [, entry] of manifest.files.entries()) AssetEntrySchema.parse(entry);
  return manifest;
}

const EnvelopeSchema = StoredManifestSchema.extend({
  files: z.custom<Record<string, Packed>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
});

/**
 * What a host checks of the manifest at start: the envelope and a few entries. The build wrote it from the
 * schemas above (packManifest); checking every entry again at start cost more than reading it (23,800 files at
 * N = 1,000), so the rest are decoded, and checked for their shape, when a request asks for them.
 */
export function trustedManifest(json: unknown): AssetManifest {
  const envelope = EnvelopeSchema.parse(json);
  const stored = envelope as StoredManifest;
  const files = new AssetFiles(stored);
  for (const path of Object.keys(stored.files).slice(0, 8)) {
    PackedSchema.parse(stored.files[path]);
    AssetEntrySchema.parse(files.get(path));
  }
  return { version: stored.version, generated_at: stored.generated_at, siteUrl: stored.siteUrl, files };
}
