/**
 * The build output: the walk at start lists every file (no reads); a file's bytes, its precompressed variants (the
 * .br and .gz files the build wrote beside it, see src/integration/precompress.ts), content type, ETags, cache
 * policy and, for HTML, a CSP that allows its inline scripts by hash are made on its first request and kept in a
 * least-recently-used set bounded in bytes, so memory and start time do not grow with the show. Nothing outside
 * the folder can be answered: only what the walk below found inside it (no symlinks followed, no dot-files except
 * .well-known), and lookups only take paths safePath accepted.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import {
  cacheControlFor,
  isCompressible,
  lookup,
  safePath,
  type StaticAsset,
  type StaticFiles,
  type StaticVariant,
} from '../../functions/static.ts';
import { contentSecurityPolicy } from '../../functions/middleware/security-headers.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/rss+xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.srt': 'application/x-subrip; charset=utf-8',
  '.vtt': 'text/vtt; charset=utf-8',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.yaml': 'application/yaml; charset=utf-8',
};

export function contentTypeFor(path: string): string {
  if (path === '/.well-known/api-catalog') return 'application/linkset+json';
  if (path.startsWith('/.well-known/') && !/\.[a-z0-9]+$/i.test(path)) return 'application/json; charset=utf-8';
  if (path === '/robots.txt') return 'text/plain; charset=utf-8';
  if (path.endsWith('/sitemap.xml') || /sitemap[-\w]*\.xml$/.test(path)) return 'application/xml; charset=utf-8';
  const ext = /\.[a-z0-9]+$/i.exec(path)?.[0]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Smaller files are not worth compressing: the headers would outweigh the saving. */
const MIN_COMPRESS_BYTES = 512;

export interface StaticStore extends StaticFiles {
  /** Every servable path (the files themselves load on first use). */
  readonly files: { readonly size: number; has(path: string): boolean };
  /** The asset a raw (still percent-encoded) URL path names, or undefined (also for any unsafe path). */
  resolve(rawPath: string): StaticAsset | undefined;
  /** Bytes of file content held in memory now (identity + variants). */
  readonly heldBytes: number;
}

export interface StaticStoreOptions {
  /**
   * Most bytes of file content held in memory at once (default 64 MB). At network scale the build output is
   * ~430 MB plus ~300 MB of .br/.gz (N = 1,000): reading it all at start took 26% of a 6.5 s cold start and
   * most of 3 GB RSS (bench/). Files are now read on first request and kept in a least-recently-used set.
   */
  maxBytes?: number;
}

/** Above this size an ETag is made from size and mtime instead of a hash of the bytes (no read needed to answer a conditional request). */
const HASH_LIMIT = 1024 * 1024;

interface Entry {
  full: string;
  br?: string;
  gz?: string;
}

export function loadStaticStore(clientDir: string, options: StaticStoreOptions = {}): StaticStore {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const raw = new Map<string, Entry>();
  const walk = (dir: string, urlDir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') && !(urlDir === '' && entry.name === '.well-known')) continue;
      const full = join(dir, entry.name);
      const urlPath = `${urlDir}/${entry.name}`;
      // The directory entry's own type (no stat, ~17k files at N = 1,000): a symlink in the build output could
      // point anywhere; it is neither a file nor a directory here, so it is never followed.
      // (A file system that reports no type gets an lstat.)
      const known = entry.isDirectory() || entry.isFile() || entry.isSymbolicLink();
      const kind = known ? entry : lstatSync(full);
      if (kind.isDirectory()) walk(full, urlPath);
      else if (kind.isFile()) raw.set(urlPath, { full });
    }
  };
  walk(clientDir, '');
  // foo.br / foo.gz beside foo are foo's variants, not documents of their own.
  const entries = new Map<string, Entry>();
  for (const [path, e] of raw) {
    const base = /\.(br|gz)$/.exec(path) ? path.slice(0, -3) : undefined;
    if (base && raw.has(base)) continue;
    entries.set(path, { ...e, br: raw.get(`${path}.br`)?.full, gz: raw.get(`${path}.gz`)?.full });
  }

  const loaded = new Map<string, { asset: StaticAsset; bytes: number }>();
  let held = 0;
  const evict = () => {
    for (const [oldest, value] of loaded) {
      if (held <= maxBytes) break;
      loaded.delete(oldest);
      held -= value.bytes;
    }
  };
  const load = (path: string, e: Entry): StaticAsset => {
    // lstat again when loading: only regular files are answered (a file replaced by a symlink since the walk is not).
    const stat = lstatSync(e.full);
    if (!stat.isFile()) throw new Error(`${e.full} is not a regular file`);
    const body = readFileSync(e.full);
    const type = contentTypeFor(path);
    const mtimeSec = Math.floor(stat.mtimeMs / 1000);
    const tag =
      body.byteLength > HASH_LIMIT
        ? `${body.byteLength.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}`
        : createHash('sha1').update(body).digest('base64url').slice(0, 22);
    const asset: StaticAsset = {
      path,
      type,
      cacheControl: cacheControlFor(path, type),
      lastModified: new Date(mtimeSec * 1000).toUTCString(),
      mtimeSec,
      identity: variant(body, `"${tag}"`),
      seekable: /^(audio|video)\//.test(type),
    };
    const record = { asset, bytes: body.byteLength };
    if (isCompressible(type) && body.byteLength >= MIN_COMPRESS_BYTES) {
      // The .br/.gz variants are read (or, for a build that did not write them, made) when a client first asks
      // for that encoding: the search engine's own reads (DataStore) and most clients need only one of the three.
      const lazy = (encoding: 'br' | 'gzip', file: string | undefined, make: () => Buffer) => {
        let value: StaticVariant | null | undefined;
        Object.defineProperty(asset, encoding, {
          enumerable: true,
          get() {
            if (value === undefined) {
              let bytes: Buffer;
              try {
                bytes = file ? readFileSync(file) : make();
              } catch {
                bytes = make();
              }
              value = bytes.byteLength < body.byteLength ? variant(bytes, `"${tag}-${encoding === 'br' ? 'br' : 'gz'}"`, encoding) : null;
              if (value) {
                record.bytes += bytes.byteLength;
                if (loaded.get(path) === record) held += bytes.byteLength;
              }
            }
            return value ?? undefined;
          },
        });
      };
      // Prefer what the build wrote (maximum compression); compress here only what it did not (another build).
      lazy('br', e.br, () => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }));
      lazy('gzip', e.gz, () => gzipSync(body, { level: 9 }));
    }
    if (type.startsWith('text/html')) asset.csp = contentSecurityPolicy(inlineScriptHashes(body.toString('utf8')));
    // A file larger than a quarter of the budget is answered but not kept.
    if (record.bytes <= maxBytes / 4) {
      loaded.set(path, record);
      held += record.bytes;
      evict();
    }
    return asset;
  };

  const get = (path: string): StaticAsset | undefined => {
    const hit = loaded.get(path);
    if (hit) {
      loaded.delete(path);
      loaded.set(path, hit);
      // Variants read since the last lookup may have pushed the total over the bound.
      if (held > maxBytes) evict();
      return hit.asset;
    }
    const e = entries.get(path);
    if (!e) return undefined;
    try {
      return load(path, e);
    } catch {
      // Removed since the start (a redeploy in place): not there.
      return undefined;
    }
  };

  return {
    files: { get size() { return entries.size; }, has: (path: string) => entries.has(path) },
    get,
    get heldBytes() {
      return held;
    },
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

/** sha256 sources for the inline <script> elements of a page (external ones are covered by 'self'). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    if (/\bsrc\s*=/i.test(attrs)) continue;
    // JSON-LD and other data blocks are not executed, so they need no allowance.
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    hashes.add(`sha256-${createHash('sha256').update(m[2] ?? '', 'utf8').digest('base64')}`);
  }
  return [...hashes];
}
