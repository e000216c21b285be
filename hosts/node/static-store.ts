/**
 * The build output, as the Node host answers it. What each file is (content type, ETags of each stored
 * representation, cache policy, the CSP of each page) was decided by the build (/_manifest.json); the bytes are
 * read on a file's first request and kept in a least-recently-used set bounded in bytes, so memory and start
 * time do not grow with the show (issue 13: reading a 1,000-episode output at start took 26% of a 6.5 s cold
 * start and most of 3 GB RSS). The .br/.gz copies are read only when a client first asks for that encoding.
 * Nothing outside the folder can be answered: only files the manifest lists (the build walked the output: no
 * symlinks, no dot-files but .well-known), each checked to be a regular file when read, and lookups only take
 * paths safePath accepted.
 */
import { closeSync, lstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { lookup, lookupPath, safePath, type StaticAsset, type StaticFiles, type StaticVariant } from '../../functions/static.ts';
import { MANIFEST_PATH } from '../../contract/http-policy.ts';
import { MANIFEST_VERSION, trustedManifest, type AssetEntry, type AssetManifest } from '../../contract/schemas/asset-manifest.ts';

export { contentTypeFor } from '../../contract/http-policy.ts';

export interface StaticStore extends StaticFiles {
  /** Every servable path (the files themselves load on first use). */
  readonly files: { readonly size: number; has(path: string): boolean };
  readonly manifest: AssetManifest;
  /**
   * Whether the file a decoded, checked path names (or its directory's index.html) is one a CDN host answers from
   * its static layer without the function: its manifest entry has no `fn`. Read from the manifest, no bytes loaded.
   */
  cdnServed(path: string): boolean;
  /** The asset a raw (still percent-encoded) URL path names, or undefined (also for any unsafe path). */
  resolve(rawPath: string): StaticAsset | undefined;
  /** Bytes of file content held in memory now (identity + variants). */
  readonly heldBytes: number;
  /** True when the whole build fit the budget and was read at start. */
  readonly eager: boolean;
}

export class MissingManifestError extends Error {
  readonly code = 'missing_manifest';
}

export class StaleManifestError extends Error {
  readonly code = 'stale_manifest';
}

/**
 * The version of the manifest in clientDir, read from its first bytes (the build writes `{"version":N,` first),
 * or undefined when there is none: to tell an output made by another version of the service before reading it.
 */
export function manifestVersion(clientDir: string): number | undefined {
  let head: string;
  try {
    const fd = openSync(join(clientDir, MANIFEST_PATH.slice(1)), 'r');
    try {
      const buffer = Buffer.alloc(32);
      head = buffer.toString('latin1', 0, readSync(fd, buffer, 0, 32, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const m = /^\{"version":(\d+)[,}]/.exec(head);
  return m ? Number(m[1]) : undefined;
}

/** The build's asset manifest, or a MissingManifestError / StaleManifestError saying how to make one. */
export function readManifest(clientDir: string): AssetManifest {
  let text: string;
  try {
    text = readFileSync(join(clientDir, MANIFEST_PATH.slice(1)), 'utf8');
  } catch {
    throw new MissingManifestError(`${join(clientDir, MANIFEST_PATH.slice(1))} is missing: this output was not made by npm run build`);
  }
  const json = JSON.parse(text) as { version?: unknown };
  if (json?.version !== MANIFEST_VERSION) {
    throw new StaleManifestError(`${join(clientDir, MANIFEST_PATH.slice(1))} is version ${String(json?.version)}, not ${MANIFEST_VERSION}: this output was made by another version of the service; build again (npm run build)`);
  }
  return trustedManifest(json);
}

export interface StaticStoreOptions {
  /** Serve only the files this accepts (function hosts answer only what the function layer must). */
  only?: (path: string, entry: AssetEntry) => boolean;
  /** Most bytes of file content held in memory at once (default 32 MB: the documents listeners and apps ask for again and again; the search engine keeps its own parsed copy of what it reads, see dataStoreOver). */
  maxBytes?: number;
}

export function loadStaticStore(clientDir: string, options: StaticStoreOptions = {}): StaticStore {
  const manifest = readManifest(clientDir);
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  // A function host serves a few of the files (decoded once, here); the Node host all of them, each decoded from
  // the manifest when first asked for.
  const entries: { readonly size: number; has(path: string): boolean; get(path: string): AssetEntry | undefined; paths(): Iterable<string> } =
    options.only ? filtered(manifest, options.only) : manifest.files;

  const loaded = new Map<string, { asset: StaticAsset; bytes: number }>();
  let held = 0;
  const evict = () => {
    for (const [oldest, value] of loaded) {
      if (held <= maxBytes) break;
      loaded.delete(oldest);
      held -= value.bytes;
    }
  };
  /** A regular file's bytes; undefined for anything else (a file replaced by a symlink since the build is not). */
  const readRegular = (path: string): Buffer | undefined => {
    const full = join(clientDir, path.slice(1));
    return lstatSync(full, { throwIfNoEntry: false })?.isFile() ? readFileSync(full) : undefined;
  };
  const load = (path: string, entry: AssetEntry, keep = true): StaticAsset | undefined => {
    const body = readRegular(path);
    if (!body) return undefined;
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
    const record = { asset, bytes: body.byteLength };
    for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']] as const) {
      const stored = entry[encoding];
      if (!stored) continue;
      // Read when a client first asks for this encoding: the engine's own reads and most clients need one form.
      let value: StaticVariant | null | undefined;
      Object.defineProperty(asset, encoding, {
        enumerable: true,
        get() {
          if (value === undefined) {
            const bytes = readRegular(`${path}${suffix}`);
            value = bytes ? variant(bytes, stored.etag, encoding) : null;
            if (bytes) {
              record.bytes += bytes.byteLength;
              if (loaded.get(path) === record) held += bytes.byteLength;
            }
          }
          return value ?? undefined;
        },
      });
    }
    // A file larger than a quarter of the budget is answered but not kept.
    if (keep && record.bytes <= maxBytes / 4) {
      loaded.set(path, record);
      held += record.bytes;
      evict();
    }
    return asset;
  };

  const get = (path: string, keep = true): StaticAsset | undefined => {
    const hit = loaded.get(path);
    if (hit) {
      loaded.delete(path);
      loaded.set(path, hit);
      // Variants read since the last lookup may have pushed the total over the bound.
      if (held > maxBytes) evict();
      return hit.asset;
    }
    const entry = entries.get(path);
    if (!entry) return undefined;
    try {
      return load(path, entry, keep);
    } catch {
      // Removed since the start (a redeploy in place): not there.
      return undefined;
    }
  };

  // A build that fits the budget is read whole at start (the sample: ~30 MB, ~30 ms): it is then answered from
  // memory even while `npm run build` rewrites the folder in place, until SIGHUP takes up the new one. A larger
  // one is read on demand, as above; reload it by building into another folder, or SIGHUP once the build is done.
  let total = 0;
  for (const path of entries.paths()) {
    const entry = entries.get(path)!;
    total += entry.identity.size + (entry.br?.size ?? 0) + (entry.gzip?.size ?? 0);
    if (total > maxBytes) break;
  }
  const eager = total <= maxBytes;
  if (eager) {
    for (const path of entries.paths()) {
      const asset = get(path);
      if (asset) void [asset.br, asset.gzip];
    }
  }

  return {
    eager,
    files: { get size() { return entries.size; }, has: (path: string) => entries.has(path) },
    manifest,
    get: (path: string) => get(path),
    peek: (path: string) => get(path, false),
    cdnServed(path: string) {
      const file = lookupPath((p) => entries.has(p), path);
      return file !== undefined && !entries.get(file)!.fn;
    },
    get heldBytes() {
      return held;
    },
    resolve(rawPath) {
      const path = safePath(rawPath);
      return path === null ? undefined : lookup(this, path);
    },
  };
}

function filtered(manifest: AssetManifest, only: NonNullable<StaticStoreOptions['only']>) {
  const kept = new Map<string, AssetEntry>();
  for (const [path, entry] of manifest.files.entries()) if (only(path, entry)) kept.set(path, entry);
  return { get size() { return kept.size; }, has: (path: string) => kept.has(path), get: (path: string) => kept.get(path), paths: () => kept.keys() };
}

/**
 * A file's bytes as served. Its Blob (a copy of the bytes) is made only if a body stream is asked for: node:http
 * writes the bytes themselves (node-http.ts), and the engine's reads parse them (stores.ts), so made at once it
 * only doubled the memory each file held and the allocator's churn for every file read.
 */
function variant(bytes: Buffer, etag: string, encoding?: 'br' | 'gzip'): StaticVariant {
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let blob: Blob | undefined;
  return {
    bytes: view,
    get blob() {
      return (blob ??= new Blob([view as Uint8Array<ArrayBuffer>]));
    },
    etag,
    ...(encoding ? { encoding } : {}),
  };
}
