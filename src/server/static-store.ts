/**
 * The build output, read into memory once at start: every file's bytes, content type and ETag, so a prebuilt
 * document is answered without touching the disk.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';

export interface StaticFile {
  body: Uint8Array;
  type: string;
  etag: string;
  lastModified: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/rss+xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.srt': 'application/x-subrip; charset=utf-8',
  '.mp3': 'audio/mpeg',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
};

export function contentTypeFor(path: string): string {
  if (path === '/.well-known/api-catalog') return 'application/linkset+json';
  if (path.startsWith('/.well-known/') && !/\.[a-z0-9]+$/i.test(path)) return 'application/json; charset=utf-8';
  if (path === '/robots.txt') return 'text/plain; charset=utf-8';
  if (path.endsWith('/sitemap.xml') || /sitemap[-\w]*\.xml$/.test(path)) return 'application/xml; charset=utf-8';
  const ext = /\.[a-z0-9]+$/i.exec(path)?.[0]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

export function loadStaticStore(clientDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        const urlPath = `/${relative(clientDir, full).split(sep).join('/')}`;
        const body = readFileSync(full);
        const stat = statSync(full);
        files.set(urlPath, {
          body,
          type: contentTypeFor(urlPath),
          etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
          lastModified: stat.mtime.toUTCString(),
        });
      }
    }
  };
  walk(clientDir);
  return files;
}
