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

export const AssetManifestSchema = z.object({
  version: z.literal(1),
  generated_at: z.iso.datetime(),
  /** The site URL the documents were built for ({base_url}). */
  siteUrl: z.url(),
  /** By URL path (a page's path ends in /index.html). */
  files: z.record(z.string(), AssetEntrySchema),
});
export type AssetManifest = z.infer<typeof AssetManifestSchema>;

const EnvelopeSchema = AssetManifestSchema.extend({ files: z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v)) });

/**
 * What a host checks of the manifest at start: the envelope and a few entries. The build wrote it from this
 * schema; parsing all of it cost ~100 ms of a 1 s cold start at N = 1,000 episodes (16,000 files, bench/), and even
 * z.record over the files with unknown values copied every entry (50-100 ms at 23,800 files), so `files` is only
 * checked to be an object.
 */
export function trustedManifest(json: unknown): AssetManifest {
  const envelope = EnvelopeSchema.parse(json);
  for (const entry of Object.values(envelope.files).slice(0, 8)) AssetEntrySchema.parse(entry);
  return envelope as AssetManifest;
}
