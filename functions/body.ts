/**
 * Reading request bodies safely: a size limit enforced while streaming (not after), a time limit, and the
 * content type checked first. Every JSON or form endpoint reads its body through here.
 */
import { ApiError, quoteInput } from './errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;
export const BODY_TIMEOUT_MS = 10_000;
/**
 * A body over the limit is still read, and thrown away, up to this many bytes before the 413 goes out. A server that
 * answers and stops reading leaves the rest unread on the connection, and what happens then is up to the host: the
 * kernel resets a socket closed with unread bytes, which can destroy the answer before the client reads it (Go's
 * net/http and nginx read on for the same reason), and Wrangler's local runtime failed the next request on the same
 * connection with a 503 ("Your worker restarted mid-request"). Past this the handler stops reading and the host closes.
 */
export const DRAIN_BODY_BYTES = 4 * 1024 * 1024;

export interface BodyOptions {
  maxBytes?: number;
  timeoutMs?: number;
}

/** Whether an Expect header's value asks for `100 Continue` before the body is sent (RFC 9110 §10.1.1). */
export function expectsContinue(expect: string | null | undefined): boolean {
  return /^\s*100-continue\s*$/i.test(expect ?? '');
}

/** The media type of a request, lower-cased, without parameters ("application/json"). */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Reads the raw body as text, failing with 413 past maxBytes (once the rest is drained, up to DRAIN_BODY_BYTES) and
 * 408 past timeoutMs.
 */
export async function readText(request: Request, options: BodyOptions = {}): Promise<string> {
  // No endpoint takes an encoded body (RFC 9110 §8.4): said as such, not as bytes that are not UTF-8 or JSON. The
  // contract's status for a bad body is 400; Accept-Encoding in the answer names what is taken (§12.5.3).
  const coding = (request.headers.get('content-encoding') ?? '').trim().toLowerCase();
  if (coding && coding !== 'identity') {
    throw new ApiError('invalid_body', {
      message: `The request body is sent with Content-Encoding ${quoteInput(coding)}; bodies are taken unencoded.`,
      hint: 'Send the body as plain JSON or form text, without a Content-Encoding header.',
      headers: { 'Accept-Encoding': 'identity' },
    });
  }
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  // Announced too large: not worth reading, but drained when small enough to (see DRAIN_BODY_BYTES), unless the
  // client waits for 100 Continue before sending it: then it is told at once and sends nothing (RFC 9110 §10.1.1).
  const refused = Number.isFinite(declared) && declared > maxBytes;
  const waiting = expectsContinue(request.headers.get('expect'));
  if (refused && (declared > DRAIN_BODY_BYTES || waiting)) throw tooLarge(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError('request_timeout', { hint: `Send the body within ${Math.round((options.timeoutMs ?? BODY_TIMEOUT_MS) / 1000)} seconds.` })), options.timeoutMs ?? BODY_TIMEOUT_MS);
  });
  let tooBig = refused;
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) tooBig = true;
      if (size > DRAIN_BODY_BYTES) break;
      if (!tooBig) chunks.push(value);
    }
    if (tooBig) throw tooLarge(maxBytes);
  } catch (err) {
    void reader.cancel().catch(() => {});
    // A body already known to be too large that also stops arriving is answered as too large.
    if (tooBig) throw tooLarge(maxBytes);
    if (err instanceof ApiError) throw err;
    throw new ApiError('invalid_body', { message: 'The request body could not be read.' });
  } finally {
    clearTimeout(timer);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(all);
  } catch {
    throw new ApiError('invalid_body', { message: 'The request body is not valid UTF-8.' });
  }
}

/**
 * Reads a JSON body: 400 invalid_body unless the content type is JSON (the contract's status for a bad body; the
 * hint names the header to send), 413 when too large, 400 when malformed.
 */
export async function readJson(request: Request, options: BodyOptions = {}): Promise<unknown> {
  const type = mediaType(request);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new ApiError('invalid_body', {
      message: `Expected a JSON body, got ${type ? `"${type}"` : 'no Content-Type'}.`,
      hint: 'Send the header Content-Type: application/json.',
    });
  }
  const text = await readText(request, options);
  if (!text.trim()) throw new ApiError('invalid_json', { message: 'The request body is empty; a JSON object is required.' });
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError('invalid_json', { message: `The request body is not valid JSON: ${(err as Error).message}` });
  }
}

/** Reads an application/x-www-form-urlencoded body (OAuth endpoints): 400 invalid_body for another type. */
export async function readForm(request: Request, options: BodyOptions = {}): Promise<URLSearchParams> {
  const type = mediaType(request);
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ApiError('invalid_body', {
      message: `Expected a form body, got ${type ? `"${type}"` : 'no Content-Type'}.`,
      hint: 'Send the header Content-Type: application/x-www-form-urlencoded.',
    });
  }
  return new URLSearchParams(await readText(request, options));
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('payload_too_large', {
    message: `The request body is larger than ${Math.round(maxBytes / 1024)} KB.`,
    hint: `Send at most ${maxBytes} bytes.`,
  });
}
