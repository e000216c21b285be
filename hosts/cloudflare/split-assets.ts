/**
 * Files larger than Workers static assets accept (25 MiB; at 1,000 hour-long episodes the contract's
 * /search-index.json is ~56 MiB) are uploaded as byte slices `<path>.part<k>` (hosts/cloudflare/build.ts), listed
 * at PARTS_PATH, and the file itself is left out of the upload. The Worker answers such a path by streaming the
 * parts' bodies one after another from the assets binding: never more than one chunk of it in the isolate's memory.
 * A range is answered from the parts it spans only, so a player seeking near the end of a long episode does not
 * make the Worker read the episode from its start.
 */
import { preconditionStatus } from '../../functions/conditional.ts';
import { byteRange, ifRangeMatches, preconditionFailed, unsatisfiableRange } from '../../functions/static.ts';
import { sliceBody } from '../../functions/static-remote.ts';

/** Where the build lists the files it split (a JSON object; `{}` when none). */
export const PARTS_PATH = '/_parts.json';

export interface SplitFile {
  /** URL paths of the parts, in order; their bytes joined are the file's. */
  parts: string[];
  /** The file's size in bytes. */
  size: number;
  /** The size of every part but the last (which may be smaller): part k starts at byte k * partSize. */
  partSize: number;
  /** What the build's manifest says of it. */
  type: string;
  etag: string;
}

export type PartsIndex = Record<string, SplitFile>;

export interface AssetFetcher {
  fetch(request: Request): Promise<Response>;
}

/**
 * The assets binding, answering the split files too (GET and HEAD; If-None-Match gives 304; a single byte range
 * gives 206, or 416 outside the file). Any other path goes to the binding unchanged.
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
  const precondition = preconditionStatus(request.headers, { etag: file.etag });
  if (precondition === 304) return new Response(null, { status: 304, headers });
  if (precondition === 412) return preconditionFailed(new URL(request.url).pathname);
  headers.set('Content-Length', String(file.size));
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  const header = request.headers.get('range');
  // The index has no Last-Modified: for an If-Range date the whole file is sent, and the responder, which knows the
  // date from the manifest, cuts the range from it (functions/static-remote.ts).
  const range = header !== null && ifRangeMatches(request.headers.get('if-range'), file.etag) ? byteRange(header, file.size) : undefined;
  if (range === 'unsatisfiable') return unsatisfiableRange(file.size);
  if (range) {
    const first = Math.floor(range.start / file.partSize);
    const length = range.end - range.start + 1;
    headers.set('Content-Length', String(length));
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    const body = sliceBody(joinedParts(assets, origin, file, first), range.start - first * file.partSize, length);
    return new Response(withKnownLength(body, length), { status: 206, headers });
  }
  return new Response(withKnownLength(joinedParts(assets, origin, file, 0), file.size), { status: 200, headers });
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

/**
 * The parts' bodies one after another from part `from`, each fetched when the previous one is done (pulled:
 * backpressure holds).
 */
function joinedParts(assets: AssetFetcher, origin: string, file: SplitFile, from: number): ReadableStream<Uint8Array> {
  let next = from;
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
