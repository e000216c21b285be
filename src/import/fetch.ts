/**
 * Fetching what a feed links to (the feed itself, transcripts, chapters, audio), with a size limit and a timeout.
 * A failure is a FetchFailure whose message says why in a few words ("HTTP 404", "larger than 10 MB", "no network
 * (ENOTFOUND)"), for the list the importer prints at the end.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

export class FetchFailure extends Error {}

export interface FetchOptions {
  maxBytes: number;
  timeoutMs: number;
  fetch?: FetchLike;
}

const mb = (n: number) =>
  n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${Math.round(n / 1024)} KB` : `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

function reason(error: unknown, timeoutMs: number): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  if (e instanceof FetchFailure) return e.message;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  const code = e?.cause?.code;
  if (code) return ['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN'].includes(code) ? `no network (${code})` : `cannot connect (${code})`;
  return e?.cause?.message ?? e?.message ?? String(error);
}

async function open(url: string, options: FetchOptions): Promise<Response> {
  if (!/^https?:\/\//i.test(url)) throw new FetchFailure('not an http(s) URL');
  const res = await (options.fetch ?? fetch)(url, {
    redirect: 'follow',
    signal: AbortSignal.timeout(options.timeoutMs),
    headers: { 'user-agent': 'podcast-listener-service-import/1.0' },
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new FetchFailure(`HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await res.body?.cancel();
    throw new FetchFailure(`larger than ${mb(options.maxBytes)} (${mb(declared)})`);
  }
  return res;
}

/** The body of url as bytes, or a FetchFailure. */
export async function fetchBytes(url: string, options: FetchOptions): Promise<Buffer> {
  try {
    const res = await open(url, options);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > options.maxBytes) throw new FetchFailure(`larger than ${mb(options.maxBytes)}`);
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  } catch (error) {
    throw new FetchFailure(reason(error, options.timeoutMs));
  }
}

/** Streams url into path (for audio, which can be large); the partial file is removed on failure. Resolves to the byte count. */
export async function fetchToFile(url: string, path: string, options: FetchOptions): Promise<number> {
  try {
    const res = await open(url, options);
    const out = createWriteStream(path);
    let size = 0;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > options.maxBytes) throw new FetchFailure(`larger than ${mb(options.maxBytes)}`);
        if (!out.write(chunk)) await new Promise<void>((done) => out.once('drain', () => done()));
      }
    } finally {
      await new Promise<void>((done, fail) => out.end((err?: Error | null) => (err ? fail(err) : done())));
    }
    return size;
  } catch (error) {
    await rm(path, { force: true });
    throw new FetchFailure(reason(error, options.timeoutMs));
  }
}

/** Runs tasks with at most `limit` at a time. */
export async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  });
  await Promise.all(workers);
}
