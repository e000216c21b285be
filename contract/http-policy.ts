/**
 * What every host must answer the same way for a file of the build, decided once: its media type, cache policy,
 * whether it is worth compressing, the Content-Security-Policy of an HTML page, and whether a request for it must
 * go through the function layer (the pipeline adds X-RateLimit-* and the rest) or may be answered by a CDN's
 * static layer directly. The build writes the result per file into the asset manifest
 * (src/integration/asset-manifest.ts → /_manifest.json); hosts read the manifest, they never re-derive it.
 */

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

/** The media type of a file of the build, by its URL path. */
export function contentTypeFor(path: string): string {
  if (path === '/.well-known/api-catalog') return 'application/linkset+json';
  if (path.startsWith('/.well-known/') && !/\.[a-z0-9]+$/i.test(path)) return 'application/json; charset=utf-8';
  if (path === '/robots.txt') return 'text/plain; charset=utf-8';
  if (path.endsWith('/sitemap.xml') || /sitemap[-\w]*\.xml$/.test(path)) return 'application/xml; charset=utf-8';
  const ext = /\.[a-z0-9]+$/i.exec(path)?.[0]?.toLowerCase() ?? '';
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Cache policy per kind of file. */
export function cacheControlFor(path: string, type: string): string {
  // Astro fingerprints these file names: a new build gets new names.
  if (path.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  // Pages and the 404 page: always revalidate (cheap with the ETag), so a deploy shows at once.
  if (type.startsWith('text/html')) return 'public, max-age=0, must-revalidate';
  // Episode audio and artwork change rarely, and are large.
  if (/^(audio|video|image|font)\//.test(type)) return 'public, max-age=86400';
  // Documents (feed, JSON, llms.txt, transcripts) change with each build: a short freshness, then revalidate.
  return 'public, max-age=300';
}

/** Text formats worth compressing. */
export function isCompressible(type: string): boolean {
  return /^text\/|^application\/(json|javascript|xml|rss\+xml|atom\+xml|ld\+json|linkset\+json|manifest\+json|x-subrip)|\+json|\+xml|^image\/svg\+xml/.test(type);
}

/** Smaller files are not worth compressing: the headers would outweigh the saving. */
export const MIN_COMPRESS_BYTES = 512;

const BASE_CSP = [
  "default-src 'self'",
  "img-src 'self' data: https:",
  "media-src 'self' https:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/** The CSP for an HTML document; scriptHashes are 'sha256-...' sources of its inline scripts. */
export function contentSecurityPolicy(scriptHashes: string[] = []): string {
  const scripts = ["script-src 'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' ');
  return [...BASE_CSP, scripts].join('; ');
}

/** The policy for HTML the build did not make (error pages, anything a handler answers in HTML). */
export const DEFAULT_CSP = contentSecurityPolicy();

/**
 * Files that are the contract's read documents (and the other machine-readable documents beside them): every
 * 200 answer for them carries X-RateLimit-* (the contract), so on a CDN they are routed through the function
 * layer first. Pages, scripts, styles, images and audio are served by the static layer directly.
 */
export function isFunctionRouted(path: string): boolean {
  if (path.startsWith('/.well-known/')) return true;
  if (/^\/(transcripts|chapters|search)\//.test(path)) return true;
  // Root-level documents: episodes.json, search-index.json, rss.xml, llms.txt, docs.md, openapi.json, ...
  return /^\/[^/]+\.(json|xml|txt|md)$/.test(path) && path !== '/robots.txt' && path !== '/sitemap.xml' && path !== MANIFEST_PATH;
}

/** Where the build writes the asset manifest (a file of the output, read by hosts at start). */
export const MANIFEST_PATH = '/_manifest.json';
