/**
 * Prebuilt files on a host whose static layer holds the bytes (a Worker's assets binding, a CDN origin): the
 * build's manifest says what each file is (type, cache policy, CSP, ETag). Only files the function layer must
 * answer reach this (the contract's documents, which carry X-RateLimit-*); the CDN answers the rest itself.
 *
 * Small documents are fetched once per isolate and then answered from memory like the Node host does (ETag/304,
 * ranges; measured with bench/hosts.ts: a round trip to the assets layer per request made workerd's
 * /episodes.json ~30x slower than its /api/search). Larger ones are passed through to the platform's fetcher
 * per request, which does what a file server does, so an isolate's memory stays bounded.
 */
import { createStaticResponder, invalidPathResponse, notReadResponse, safePath, wantsHtmlPage, type StaticAsset } from './static.ts';
import type { RequestContext } from './types.ts';
import type { AssetEntry, AssetManifest } from '../contract/schemas/asset-manifest.ts';

/** Fetches a file of the build by its URL path, forwarding the request's validators and range. */
export type PlatformAssetFetch = (path: string, request: Request) => Promise<Response>;

/** Request headers a file server needs to answer conditionally, partially or compressed. */
const FORWARDED = ['if-none-match', 'if-modified-since', 'range', 'if-range', 'accept-encoding'];

export function forwardedAssetRequest(url: string, request: Request): Request {
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Request(url, { method: request.method === 'HEAD' ? 'HEAD' : 'GET', headers });
}

export function entryFor(manifest: AssetManifest, path: string): [string, AssetEntry] | undefined {
  for (const candidate of [path, path.endsWith('/') ? `${path}index.html` : `${path}/index.html`]) {
    const entry = manifest.files.get(candidate);
    if (entry) return [candidate, entry];
  }
  return undefined;
}

/** Documents up to this size are kept in memory once fetched, up to CACHE_BUDGET bytes in all. */
const CACHE_MAX_FILE = 1024 * 1024;
const CACHE_BUDGET = 24 * 1024 * 1024;

export function createRemoteStaticResponder(manifest: AssetManifest, fetchAsset: PlatformAssetFetch) {
  const cached = new Map<string, StaticAsset>();
  let cachedBytes = 0;
  const memory = createStaticResponder({ get: (path) => cached.get(path) });
  /** Fetches a small document once and keeps it; false when it is not kept (too large, budget spent, failed). */
  const ensureCached = async (file: string, entry: AssetEntry, request: Request): Promise<boolean> => {
    if (cached.has(file)) return true;
    if (entry.identity.size > CACHE_MAX_FILE || cachedBytes + entry.identity.size > CACHE_BUDGET) return false;
    const res = await fetchAsset(file, new Request(request.url));
    if (res.status !== 200) {
      void res.body?.cancel().catch(() => {});
      return false;
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (cached.has(file)) return true;
    cachedBytes += bytes.byteLength;
    cached.set(file, {
      path: file,
      type: entry.type,
      cacheControl: entry.cacheControl,
      lastModified: new Date(entry.mtime * 1000).toUTCString(),
      mtimeSec: entry.mtime,
      identity: { bytes, blob: new Blob([bytes]), etag: entry.identity.etag },
      seekable: entry.seekable ?? false,
      ...(entry.csp ? { csp: entry.csp } : {}),
    });
    return true;
  };
  const respond = async (request: Request, ctx: RequestContext): Promise<Response | undefined> => {
    const path = safePath(ctx.url.pathname);
    if (path === null) return invalidPathResponse();
    const found = entryFor(manifest, path);
    if (!found) return undefined;
    const [file, entry] = found;
    const refused = notReadResponse(request, ctx);
    if (refused) return refused;
    if (await ensureCached(file, entry, request)) return memory(request, ctx);
    return withEntryHeaders(await fetchAsset(file, request), entry, 200);
  };
  /** The build's 404 page for a browser (GET/HEAD asking for HTML); undefined otherwise. */
  const notFoundPage = async (request: Request): Promise<Response | undefined> => {
    if (!wantsHtmlPage(request)) return undefined;
    const entry = manifest.files.get('/404.html');
    if (!entry) return undefined;
    const page = await fetchAsset('/404.html', new Request(request.url, { method: request.method }));
    return withEntryHeaders(page, entry, 404);
  };
  return Object.assign(respond, { notFoundPage });
}

/** The platform's answer, with what the build decided about the file (the platform may guess otherwise). */
function withEntryHeaders(response: Response, entry: AssetEntry, status: 200 | 404): Response {
  if (response.status >= 400 && status === 200) return response;
  const headers = new Headers(response.headers);
  headers.set('Content-Type', entry.type);
  if (status === 404) headers.set('Cache-Control', 'no-store');
  else headers.set('Cache-Control', entry.cacheControl);
  if (entry.csp) headers.set('Content-Security-Policy', entry.csp);
  if (entry.seekable) headers.set('Accept-Ranges', 'bytes');
  return new Response(response.body, { status: status === 404 ? 404 : response.status, headers });
}
