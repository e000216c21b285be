/**
 * Prebuilt files on a host whose static layer holds the bytes (a Worker's assets binding, a CDN origin): the
 * build's manifest says what each file is (type, cache policy, CSP, ETag). Only files the function layer must
 * answer reach this (the contract's documents, which carry X-RateLimit-*); the CDN answers the rest itself.
 *
 * Small documents are fetched once per isolate and then answered from memory like the Node host does (ETag/304,
 * ranges; measured with bench/hosts.ts: a round trip to the assets layer per request made workerd's
 * /episodes.json ~30x slower than its /api/search). Larger ones are passed through to the platform's fetcher
 * per request, so an isolate's memory stays bounded. A platform may answer a range with the whole file (Workers
 * static assets do: their asset worker has no Range handling); then the range is cut from that body here, so the
 * Accept-Ranges advertised on seekable files holds on every platform.
 */
import { byteRange, createStaticResponder, ifRangeMatches, invalidPathResponse, lookupPath, notReadResponse, safePath, unsatisfiableRange, wantsHtmlPage, type StaticAsset } from './static.ts';
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
  // A range counts bytes of the file itself: a compressed body could not be cut where the range says.
  if (headers.has('range')) headers.delete('accept-encoding');
  return new Request(url, { method: request.method === 'HEAD' ? 'HEAD' : 'GET', headers });
}

export function entryFor(manifest: AssetManifest, path: string): [string, AssetEntry] | undefined {
  const file = lookupPath((candidate) => manifest.files.has(candidate), path);
  return file === undefined ? undefined : [file, manifest.files.get(file)!];
}

/** Whether a decoded, checked path names a file of the website (no `fn`): see AppOptions.cdnServed. */
export function cdnServedBy(manifest: AssetManifest): (path: string) => boolean {
  return (path) => {
    const found = entryFor(manifest, path);
    return found !== undefined && !found[1].fn;
  };
}

/** Documents up to this size are kept in memory once fetched, up to CACHE_BUDGET bytes in all. */
const CACHE_MAX_FILE = 1024 * 1024;
const CACHE_BUDGET = 24 * 1024 * 1024;

export interface RemoteStaticOptions {
  /**
   * A body cut from the platform's as one whose length the runtime sends as Content-Length (a runtime may send a
   * stream made in JavaScript chunked, without it). Default: the body as it is.
   */
  knownLength?: (body: ReadableStream<Uint8Array>, length: number) => ReadableStream<Uint8Array>;
}

export function createRemoteStaticResponder(manifest: AssetManifest, fetchAsset: PlatformAssetFetch, options: RemoteStaticOptions = {}) {
  const knownLength = options.knownLength ?? ((body) => body);
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
    return withEntryHeaders(honourRange(request, await fetchAsset(file, request), entry, knownLength), entry, 200);
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

/**
 * The platform's answer to a GET, with the Range the request asked for applied when the platform sent the whole
 * file instead (a 200): a 206 of those bytes, or the 416 when the range is outside the file. A 206 of the
 * platform's own, or a body that is not the file's bytes as the manifest knows them, is left as it is.
 */
function honourRange(request: Request, response: Response, entry: AssetEntry, knownLength: NonNullable<RemoteStaticOptions['knownLength']>): Response {
  const header = request.headers.get('range');
  if (header === null || request.method !== 'GET' || response.status !== 200 || !response.body) return response;
  if (response.headers.has('content-encoding')) return response;
  const size = entry.identity.size;
  const declared = response.headers.get('content-length');
  if (declared !== null && Number(declared) !== size) return response;
  // The client's If-Range holds the ETag it was sent: the platform's own (Workers' assets layer has its own hash).
  const ifRange = request.headers.get('if-range');
  const platformTag = response.headers.get('etag');
  if (!ifRangeMatches(ifRange, entry.identity.etag, entry.mtime) && !(platformTag && ifRange === platformTag)) return response;
  const range = byteRange(header, size);
  if (!range) return response;
  if (range === 'unsatisfiable') {
    void response.body.cancel().catch(() => {});
    return unsatisfiableRange(size);
  }
  const length = range.end - range.start + 1;
  const headers = new Headers(response.headers);
  headers.set('Content-Length', String(length));
  headers.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  return new Response(knownLength(sliceBody(response.body, range.start, length), length), { status: 206, headers });
}

/**
 * `length` bytes of a body from byte `start`: what comes before is read and dropped, and the body is cancelled as
 * soon as the range is complete (a seek near the start of an hour of audio does not read the rest).
 */
export function sliceBody(body: ReadableStream<Uint8Array>, start: number, length: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let skip = start;
  let left = length;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    controller.close();
    void reader.cancel().catch(() => {});
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (left === 0) return finish(controller);
        for (;;) {
          const { done, value } = await reader.read();
          if (done) throw new Error(`the body ended ${left} bytes before the end of the range`);
          if (skip >= value.byteLength) {
            skip -= value.byteLength;
            continue;
          }
          const chunk = value.subarray(skip, skip + Math.min(left, value.byteLength - skip));
          skip = 0;
          left -= chunk.byteLength;
          controller.enqueue(chunk);
          if (left === 0) finish(controller);
          return;
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
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
