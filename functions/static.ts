/**
 * Answers prebuilt files from memory, Web-standard. Everything that can be worked out once (bytes, precompressed
 * variants, ETags, content types, cache policy) was worked out when the files were loaded; per request this only
 * picks a representation and builds the Response:
 *
 * - conditional requests (functions/conditional.ts): If-Match / If-Unmodified-Since → 412, If-None-Match /
 *   If-Modified-Since → 304, each against the negotiated variant;
 * - content negotiation: br or gzip when the client accepts it and a smaller variant exists (Vary: Accept-Encoding);
 * - byte ranges on the identity bytes (players seek in MP3s): 206, or 416 when the range is outside the file;
 * - GET and HEAD only (OPTIONS: 204 with Allow; anything else: 405 with Allow).
 *
 * Paths are decoded once and checked by safePath before any lookup: no `..` or `.` segment, backslash, NUL or
 * control character, however it was encoded, can reach the file map.
 */
import { httpDate, preconditionStatus } from './conditional.ts';
import { errorResponse } from './errors.ts';
import { MemoryResponse, type HeaderPairs } from './memory-response.ts';
import type { RequestContext } from './types.ts';

export type Encoding = 'br' | 'gzip';

export interface StaticVariant {
  bytes: Uint8Array;
  /**
   * The same bytes as a Blob, made once: the body stream, if anyone asks for one, is made from it. A host may make
   * it on first use (hosts/node/static-store.ts): a Blob is a second copy of the bytes.
   */
  blob: Blob;
  etag: string;
  encoding?: Encoding;
}

export interface StaticAsset {
  /** URL path, e.g. /rss.xml */
  path: string;
  type: string;
  cacheControl: string;
  lastModified: string;
  /** Last-Modified in whole seconds since the epoch (HTTP dates have no finer resolution). */
  mtimeSec: number;
  identity: StaticVariant;
  br?: StaticVariant;
  gzip?: StaticVariant;
  /** Content-Security-Policy for HTML documents (inline scripts allowed by hash). */
  csp?: string;
  /** Media a player seeks in: Accept-Ranges is advertised (ranges are honoured on every file). */
  seekable?: boolean;
}

export interface StaticFiles {
  /** The asset at an exact, already decoded and checked path. */
  get(path: string): StaticAsset | undefined;
  /**
   * The same, without keeping it if it was not held already: for documents whose reader keeps its own parsed,
   * bounded copy (the search engine's shards and passage chunks). Defaults to get().
   */
  peek?(path: string): StaticAsset | undefined;
}

export const STATIC_ALLOW = 'GET, HEAD, OPTIONS';

const BUILTIN_404 = new TextEncoder().encode(
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Page not found</title></head><body><main><h1>Page not found</h1><p>There is nothing at this address.</p>' +
    '<p><a href="/">Go to the home page</a></p></main></body></html>',
);

/**
 * The decoded path if it is safe to look up, else null: it must start with "/", decode cleanly, and contain no
 * NUL, control character or backslash, and no "." or ".." segment.
 */
export function safePath(raw: string): string | null {
  if (!raw.startsWith('/')) return null;
  let path = raw;
  if (raw.includes('%')) {
    try {
      path = decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return null;
  if (/(^|\/)\.{1,2}(\/|$)/.test(path)) return null;
  return path;
}

/** What `find` gives for the file a URL path names: the path itself, else the directory's index.html. */
function atPathOrIndex<T>(find: (path: string) => T | undefined, path: string): T | undefined {
  return find(path) ?? find(path.endsWith('/') ? `${path}index.html` : `${path}/index.html`);
}

/** The file a URL path names (see atPathOrIndex); undefined when there is none. */
export function lookupPath(has: (path: string) => boolean, path: string): string | undefined {
  return atPathOrIndex((candidate) => (has(candidate) ? candidate : undefined), path);
}

/** The asset a URL path names (see atPathOrIndex). */
export function lookup(files: StaticFiles, path: string): StaticAsset | undefined {
  return atPathOrIndex((candidate) => files.get(candidate), path);
}

export interface StaticResponder {
  (request: Request, ctx: RequestContext): Response | undefined;
  /** The HTML 404 page (the build's 404.html, else a minimal one) for a GET/HEAD asking for text/html; else undefined. */
  notFoundPage(request: Request): Response | undefined;
}

/** 400 for a request path safePath refuses (every static responder, before any lookup). */
export function invalidPathResponse(): Response {
  return errorResponse('invalid_path', {
    message: 'The request path is not allowed.',
    hint: 'Paths may not contain "." or ".." segments, backslashes or control characters, encoded or not.',
  });
}

/** For a path that is a prebuilt document: OPTIONS 204, any method but GET/HEAD 405; undefined for GET/HEAD. */
export function notReadResponse(request: Request, ctx: RequestContext): Response | undefined {
  const method = request.method;
  if (method === 'GET' || method === 'HEAD') return undefined;
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: STATIC_ALLOW } });
  return errorResponse('method_not_allowed', {
    message: `${method} is not supported on ${ctx.url.pathname}: it is a prebuilt document.`,
    hint: `Use one of: ${STATIC_ALLOW}.`,
    headers: { Allow: STATIC_ALLOW },
  });
}

/** Whether a request not answered otherwise gets the build's 404 page: a browser asking for HTML with GET/HEAD. */
export function wantsHtmlPage(request: Request): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && Boolean(request.headers.get('accept')?.includes('text/html'));
}

export function createStaticResponder(files: StaticFiles): StaticResponder {
  const respond = (request: Request, ctx: RequestContext): Response | undefined => {
    const path = safePath(ctx.url.pathname);
    if (path === null) return invalidPathResponse();
    const asset = lookup(files, path);
    if (!asset) return undefined;
    return notReadResponse(request, ctx) ?? serve(request, asset, 200);
  };
  const notFoundPage = (request: Request): Response | undefined => {
    if (!wantsHtmlPage(request)) return undefined;
    const page = files.get('/404.html');
    if (page) return serve(request, page, 404);
    // A build without a 404 page still answers a browser in HTML.
    const head = request.method === 'HEAD';
    return new MemoryResponse(head ? null : BUILTIN_404, null, {
      status: 404,
      headers: [
        ['Content-Type', 'text/html; charset=utf-8'],
        ['Content-Length', String(BUILTIN_404.byteLength)],
        ['Cache-Control', 'no-store'],
      ],
    });
  };
  return Object.assign(respond, { notFoundPage });
}

function serve(request: Request, asset: StaticAsset, status: 200 | 404): Response {
  const headers = request.headers;
  const compressible = asset.br !== undefined || asset.gzip !== undefined;
  const variant = compressible ? negotiate(headers.get('accept-encoding'), asset) : asset.identity;
  if (status === 200) {
    const precondition = preconditionStatus(headers, { etag: variant.etag, mtimeSec: asset.mtimeSec });
    if (precondition === 304) return new MemoryResponse(null, null, { status: 304, headers: baseHeaders(asset, variant, compressible) });
    if (precondition === 412) return preconditionFailed(asset.path);
    const range = headers.get('range');
    if (range !== null && request.method === 'GET') {
      const partial = rangeResponse(range, headers.get('if-range'), asset, compressible);
      if (partial) return partial;
    }
  }
  // The 404 page stands for "nothing here", which may change at any moment: never cached, no validators.
  const out: HeaderPairs =
    status === 404
      ? [['Cache-Control', 'no-store'], ...(compressible ? [['Vary', 'Accept-Encoding'] as [string, string]] : [])]
      : baseHeaders(asset, variant, compressible);
  out.push(['Content-Type', asset.type], ['Content-Length', String(variant.bytes.byteLength)]);
  if (variant.encoding) out.push(['Content-Encoding', variant.encoding]);
  if (asset.csp) out.push(['Content-Security-Policy', asset.csp]);
  const head = request.method === 'HEAD';
  return new MemoryResponse(head ? null : variant.bytes, head ? null : () => variant.blob, { status, headers: out });
}

function baseHeaders(asset: StaticAsset, variant: StaticVariant, compressible: boolean): HeaderPairs {
  const out: HeaderPairs = [
    ['ETag', variant.etag],
    ['Last-Modified', asset.lastModified],
    ['Cache-Control', asset.cacheControl],
  ];
  // Ranges work on every file; they are advertised where clients look for them (players seeking in media).
  if (asset.seekable) out.push(['Accept-Ranges', 'bytes']);
  if (compressible) out.push(['Vary', 'Accept-Encoding']);
  return out;
}

/** Accept-Encoding strings repeat (every browser sends the same few): remember the answer per string. */
const preferenceCache = new Map<string, Encoding[]>();

/** The best representation the client accepts: br, then gzip, then identity at equal quality. */
function negotiate(header: string | null, asset: StaticAsset): StaticVariant {
  if (!header) return asset.identity;
  let order = preferenceCache.get(header);
  if (!order) {
    order = encodingPreference(header);
    if (preferenceCache.size >= 256) preferenceCache.clear();
    preferenceCache.set(header, order);
  }
  for (const encoding of order) {
    const variant = asset[encoding];
    if (variant) return variant;
  }
  return asset.identity;
}

/** RFC 9110 §12.4.2's qvalue: 0 to 1, at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The accepted encodings among br and gzip, best first. */
export function encodingPreference(header: string): Encoding[] {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.toLowerCase().split(';');
    const name = rawName.trim();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/.exec(p);
      if (m) weight = QVALUE.test(m[1]) ? Number(m[1]) : NaN;
    }
    // A malformed weight (q=-1, q=, q=abc) leaves the coding unlisted rather than read as q=1, the most wanted.
    if (Number.isFinite(weight)) q.set(name, weight);
  }
  const star = q.get('*');
  const weightOf = (name: string) => q.get(name) ?? star ?? 0;
  // Stable sort: at equal quality br stays ahead of gzip (smaller).
  return (['br', 'gzip'] as const).filter((e) => weightOf(e) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}

/** A 206 or 416 for a single byte range; undefined to answer the whole file (multiple or unusable ranges). */
function rangeResponse(header: string, ifRange: string | null, asset: StaticAsset, compressible: boolean): Response | undefined {
  if (!ifRangeMatches(ifRange, asset.identity.etag, asset.mtimeSec)) return undefined;
  const size = asset.identity.bytes.byteLength;
  const range = byteRange(header, size);
  if (range === 'unsatisfiable') return unsatisfiableRange(size);
  if (!range) return undefined;
  const { start, end } = range;
  const bytes = asset.identity.bytes.subarray(start, end + 1);
  const out = baseHeaders(asset, asset.identity, compressible);
  out.push(
    ['Content-Type', asset.type],
    ['Content-Length', String(bytes.byteLength)],
    ['Content-Range', `bytes ${start}-${end}/${size}`],
  );
  return new MemoryResponse(bytes, null, { status: 206, headers: out });
}

/** Whether a range may be answered: no If-Range, or one naming this file (its strong ETag, or its Last-Modified). */
export function ifRangeMatches(ifRange: string | null, etag: string, mtimeSec?: number): boolean {
  if (ifRange === null) return true;
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === etag;
  return mtimeSec !== undefined && httpDate(ifRange) === mtimeSec * 1000;
}

/**
 * The one byte range a Range header asks of a file of `size` bytes (last byte included), 'unsatisfiable' when it
 * lies outside the file, undefined when the whole file is the answer (several ranges, or a header not understood).
 */
export function byteRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  // Range units are case-insensitive (RFC 9110 §14.1).
  const m = /^bytes=(\d*)-(\d*)$/i.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** The 412 for a GET or HEAD whose If-Match or If-Unmodified-Since names another version of the file. */
export function preconditionFailed(path: string): Response {
  return errorResponse('precondition_failed', {
    message: `${path} has changed since the version the If-Match or If-Unmodified-Since header names.`,
    hint: 'Send the ETag or Last-Modified of a response you received from this address, or drop the header to get the current version.',
  });
}

/** The 416 for a range outside a file of `size` bytes. */
export function unsatisfiableRange(size: number): Response {
  return errorResponse('range_not_satisfiable', {
    message: `The requested range is outside the file (${size} bytes).`,
    hint: `Ask for bytes between 0 and ${size - 1}, e.g. Range: bytes=0-1023.`,
    headers: { 'Content-Range': `bytes */${size}` },
  });
}
