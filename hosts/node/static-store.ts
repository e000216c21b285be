/**
 * The build output, read into memory once at start: every file's bytes, its precompressed variants (the .br and
 * .gz files the build wrote beside it, see src/integration/precompress.ts), content type, ETags, cache policy and,
 * for HTML, a CSP that allows its inline scripts by hash. A prebuilt document is then answered without touching
 * the disk, and nothing outside the folder can be answered: the map only holds what the walk below found inside
 * it (no symlinks followed, no dot-files except .well-known), and lookups only take paths safePath accepted.
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
  /** Every asset, by URL path. */
  readonly files: ReadonlyMap<string, StaticAsset>;
  /** The asset a raw (still percent-encoded) URL path names, or undefined (also for any unsafe path). */
  resolve(rawPath: string): StaticAsset | undefined;
}

export function loadStaticStore(clientDir: string): StaticStore {
  const raw = new Map<string, { body: Buffer; mtimeMs: number }>();
  const walk = (dir: string, urlDir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') && !(urlDir === '' && entry.name === '.well-known')) continue;
      const full = join(dir, entry.name);
      const urlPath = `${urlDir}/${entry.name}`;
      // lstat, not stat: a symlink in the build output could point anywhere; it is never followed.
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full, urlPath);
      else if (stat.isFile()) raw.set(urlPath, { body: readFileSync(full), mtimeMs: stat.mtimeMs });
    }
  };
  walk(clientDir, '');

  const files = new Map<string, StaticAsset>();
  for (const [path, { body, mtimeMs }] of raw) {
    // foo.br / foo.gz beside foo are foo's variants, not documents of their own.
    const base = /\.(br|gz)$/.exec(path) ? path.slice(0, -3) : undefined;
    if (base && raw.has(base)) continue;
    const type = contentTypeFor(path);
    const mtimeSec = Math.floor(mtimeMs / 1000);
    const tag = createHash('sha1').update(body).digest('base64url').slice(0, 22);
    const asset: StaticAsset = {
      path,
      type,
      cacheControl: cacheControlFor(path, type),
      lastModified: new Date(mtimeSec * 1000).toUTCString(),
      mtimeSec,
      identity: variant(body, `"${tag}"`),
      seekable: /^(audio|video)\//.test(type),
    };
    if (isCompressible(type) && body.byteLength >= MIN_COMPRESS_BYTES) {
      // Prefer what the build wrote (maximum compression); compress here only what it did not (another build).
      const br = raw.get(`${path}.br`)?.body ?? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } });
      const gz = raw.get(`${path}.gz`)?.body ?? gzipSync(body, { level: 9 });
      if (br.byteLength < body.byteLength) asset.br = variant(br, `"${tag}-br"`, 'br');
      if (gz.byteLength < body.byteLength) asset.gzip = variant(gz, `"${tag}-gz"`, 'gzip');
    }
    if (type.startsWith('text/html')) asset.csp = contentSecurityPolicy(inlineScriptHashes(body.toString('utf8')));
    files.set(path, asset);
  }

  return {
    files,
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
