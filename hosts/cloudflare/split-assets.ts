/**
 * Files larger than Workers static assets accept (25 MiB; at 1,000 hour-long episodes the contract's
 * /search-index.json is ~56 MiB) are uploaded as byte slices `<path>.part<k>` (hosts/cloudflare/build.ts), listed
 * at PARTS_PATH, and the file itself is left out of the upload. The Worker answers such a path by streaming the
 * parts' bodies one after another from the assets binding: never more than one chunk of it in the isolate's memory.
 */
import { etagMatches } from '../../functions/static.ts';

/** Where the build lists the files it split (a JSON object; `{}` when none). */
export const PARTS_PATH = '/_parts.json';

export interface SplitFile {
  /** URL paths of the parts, in order; their bytes joined are the file's. */
  parts: string[];
  /** The file's size in bytes. */
  size: number;
  /** What the build's manifest says of it. */
  type: string;
  etag: string;
}

export type PartsIndex = Record<string, SplitFile>;

export interface AssetFetcher {
  fetch(request: Request): Promise<Response>;
}

/**
 * The assets binding, answering the split files too (GET and HEAD; If-None-Match gives 304; a range gets the
 * whole file). Any other path goes to the binding unchanged.
 */
export function withSplitAssets(assets: AssetFetcher, index: PartsIndex): AssetFetcher {
  if (Object.keys(index).length === 0) return assets;
  return {
    fetch(request) {
      const url = new URL(request.url);
      let path = url.pathname;
      try {
        path = decodeURIComponent(path);
      } catch {
        // Not a path the build wrote; the binding answers it.
      }
      const file = Object.hasOwn(index, path) ? index[path] : undefined;
      if (!file) return assets.fetch(request);
      return Promise.resolve(joinedResponse(assets, url.origin, request, file));
    },
  };
}

function joinedResponse(assets: AssetFetcher, origin: string, request: Request, file: SplitFile): Response {
  const headers = new Headers({ ETag: file.etag, 'Content-Type': file.type });
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response(null, { status: 405, headers: { Allow: 'GET, HEAD' } });
  }
  const inm = request.headers.get('if-none-match');
  if (inm !== null && etagMatches(inm, [file.etag])) return new Response(null, { status: 304, headers });
  headers.set('Content-Length', String(file.size));
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  return new Response(withKnownLength(joinedParts(assets, origin, file), file.size), { status: 200, headers });
}

type LengthStream = new (length: number) => TransformStream<Uint8Array, Uint8Array>;

/**
 * The body as one of known length where the runtime can say so: workerd drops the Content-Length header of a
 * Response whose body is a stream made in JavaScript and sends it chunked, so a podcast app would not learn the
 * size of what it downloads. Its FixedLengthStream carries the length to the response (and fails the body if the
 * bytes come out shorter or longer). Elsewhere (Node, in tests) the header is kept as it is.
 */
export function withKnownLength(body: ReadableStream<Uint8Array>, length: number): ReadableStream<Uint8Array> {
  const FixedLength = (globalThis as { FixedLengthStream?: LengthStream }).FixedLengthStream;
  return FixedLength ? body.pipeThrough(new FixedLength(length)) : body;
}

/** The parts' bodies one after another, each fetched when the previous one is done (pulled: backpressure holds). */
function joinedParts(assets: AssetFetcher, origin: string, file: SplitFile): ReadableStream<Uint8Array> {
  let next = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (!reader) {
            if (next === file.parts.length) {
              controller.close();
              return;
            }
            const part = file.parts[next++]!;
            const res = await assets.fetch(new Request(`${origin}${encodeURI(part)}`));
            if (res.status !== 200 || !res.body) {
              void res.body?.cancel().catch(() => {});
              throw new Error(`part ${part} answered ${res.status}: the upload is incomplete, deploy again`);
            }
            reader = res.body.getReader();
          }
          const { done, value } = await reader.read();
          if (done) {
            reader = undefined;
            continue;
          }
          if (value.byteLength === 0) continue;
          controller.enqueue(value);
          return;
        }
      },
      async cancel(reason) {
        await reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
