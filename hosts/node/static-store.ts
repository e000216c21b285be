/**
 * The build output, read into memory once at start: every file's bytes and its precompressed variants (the .br
 * and .gz files the build wrote beside it), with what the build decided about each (/_manifest.json: content
 * type, ETags, cache policy, the CSP of each page). A prebuilt document is then answered without touching the
 * disk, and nothing outside the folder can be answered: the map holds only what the manifest lists (files the
 * build walked inside the output, no symlinks, no dot-files but .well-known), and lookups only take paths
 * safePath accepted.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lookup, safePath, type StaticAsset, type StaticFiles, type StaticVariant } from '../../functions/static.ts';
import { MANIFEST_PATH } from '../../contract/http-policy.ts';
import { AssetManifestSchema, type AssetEntry, type AssetManifest } from '../../contract/schemas/asset-manifest.ts';

export { contentTypeFor } from '../../contract/http-policy.ts';

export interface StaticStore extends StaticFiles {
  /** Every asset, by URL path. */
  readonly files: ReadonlyMap<string, StaticAsset>;
  readonly manifest: AssetManifest;
  /** The asset a raw (still percent-encoded) URL path names, or undefined (also for any unsafe path). */
  resolve(rawPath: string): StaticAsset | undefined;
}

export class MissingManifestError extends Error {
  readonly code = 'missing_manifest';
}

/** The build's asset manifest, or a MissingManifestError saying how to make one. */
export function readManifest(clientDir: string): AssetManifest {
  let text: string;
  try {
    text = readFileSync(join(clientDir, MANIFEST_PATH.slice(1)), 'utf8');
  } catch {
    throw new MissingManifestError(`${join(clientDir, MANIFEST_PATH.slice(1))} is missing: this output was not made by npm run build`);
  }
  return AssetManifestSchema.parse(JSON.parse(text));
}

export interface LoadOptions {
  /** Load only the files this accepts (function hosts load only what the function layer answers). */
  only?: (path: string, entry: AssetEntry) => boolean;
}

export function loadStaticStore(clientDir: string, options: LoadOptions = {}): StaticStore {
  const manifest = readManifest(clientDir);
  const files = new Map<string, StaticAsset>();
  const read = (path: string): Buffer | undefined => {
    const full = join(clientDir, path.slice(1));
    // lstat, not stat: a symlink put into the output after the build could point anywhere; it is never followed.
    return lstatSync(full, { throwIfNoEntry: false })?.isFile() ? readFileSync(full) : undefined;
  };
  for (const [path, entry] of Object.entries(manifest.files)) {
    if (options.only && !options.only(path, entry)) continue;
    const body = read(path);
    if (!body) continue;
    const asset: StaticAsset = {
      path,
      type: entry.type,
      cacheControl: entry.cacheControl,
      lastModified: new Date(entry.mtime * 1000).toUTCString(),
      mtimeSec: entry.mtime,
      identity: variant(body, entry.identity.etag),
      seekable: entry.seekable ?? false,
      ...(entry.csp ? { csp: entry.csp } : {}),
    };
    const br = entry.br && read(`${path}.br`);
    const gz = entry.gzip && read(`${path}.gz`);
    if (br && entry.br) asset.br = variant(br, entry.br.etag, 'br');
    if (gz && entry.gzip) asset.gzip = variant(gz, entry.gzip.etag, 'gzip');
    files.set(path, asset);
  }

  return {
    files,
    manifest,
    get: (path) => files.get(path),
    resolve(rawPath) {
      const path = safePath(rawPath);
      return path === null ? undefined : lookup(this, path);
    },
  };
}

function variant(bytes: Buffer, etag: string, encoding?: 'br' | 'gzip'): StaticVariant {
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { bytes: view, blob: new Blob([view as Uint8Array<ArrayBuffer>]), etag, ...(encoding ? { encoding } : {}) };
}
