/**
 * Between node:http and the Web-standard pipeline: an IncomingMessage becomes a Request, a Response is written
 * back to the ServerResponse (directly from memory when the bytes are known, else streamed with backpressure).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { DRAIN_BODY_BYTES, expectsContinue } from '../../functions/body.ts';
import { MemoryResponse } from '../../functions/memory-response.ts';
import { forwardedParams, type ProxyHeader } from '../../functions/middleware/client-ip.ts';

/** A Host header we are willing to put into a URL: a name or address and an optional port. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

/** A request the host refuses before it becomes a Request; the message and hint go into the 400 envelope. */
export class BadRequestError extends Error {
  readonly hint: string;
  readonly code: 'invalid_path' | 'invalid_request';
  constructor(message: string, hint = 'Send an origin-form path, e.g. GET /episodes.json.', code: 'invalid_path' | 'invalid_request' = 'invalid_path') {
    super(message);
    this.hint = hint;
    this.code = code;
  }
}

/**
 * What a careful proxy refuses in the framing itself (RFC 9112 §3.2, §2.3; nginx does the same): a request with
 * more than one Host header (which one names the site is ambiguous, the classic cache-poisoning and routing
 * confusion), and a request line whose version is not HTTP/1.0 or HTTP/1.1 (HTTP/2 is never spoken in an HTTP/1
 * request line). Throws BadRequestError; the connection is then closed.
 */
export function checkFraming(req: IncomingMessage): void {
  if (req.httpVersionMajor !== 1 || (req.httpVersionMinor !== 0 && req.httpVersionMinor !== 1)) {
    throw new BadRequestError(`HTTP/${req.httpVersion} is not spoken here.`, 'Send HTTP/1.1 (or HTTP/1.0) in the request line.', 'invalid_request');
  }
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) throw new BadRequestError('The request has more than one Host header.', 'Send exactly one Host header.', 'invalid_request');
}

/**
 * Methods the Fetch standard forbids in a Request (it throws on them), so they can never reach the pipeline:
 * the host answers them itself (405).
 */
export const UNREPRESENTABLE_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

export class MethodNotAllowedError extends Error {}

export interface RequestOptions {
  /** Used when the Host header is missing or malformed. */
  fallbackHost: string;
  /** Honour X-Forwarded-Proto (only behind a trusted proxy). */
  trustProxy: number;
  /** TRUST_PROXY_HEADER (default x-forwarded-for). */
  trustProxyHeader?: ProxyHeader;
  /**
   * Sends `100 Continue` (res.writeContinue) to a client that asked for one (`Expect: 100-continue`): called when a
   * handler first reads the body, so a request refused before that (413 for its declared length, 415, 429, 404)
   * gets its answer instead of an invitation to send a body nobody will read (RFC 9110 §10.1.1).
   */
  writeContinue?: () => void;
}

/**
 * The Web Request for an incoming message. No AbortSignal is attached (undici makes that costly); the pipeline
 * gets the host's signal as ctx.signal instead.
 */
export function toRequest(req: IncomingMessage, options: RequestOptions): Request {
  const target = req.url ?? '/';
  let path: string;
  if (target.startsWith('/')) path = target;
  else if (/^https?:\/\//i.test(target)) {
    // Absolute-form (proxies): keep only the path and query; the Host header names the site.
    const u = URL.parse(target);
    if (!u) throw new BadRequestError('The request target is not valid.');
    path = `${u.pathname}${u.search}`;
  } else throw new BadRequestError('The request target is not valid.');
  const hostHeader = req.headers.host;
  const host = hostHeader && hostHeader.length <= 260 && HOST.test(hostHeader) ? hostHeader : options.fallbackHost;
  let proto = 'http';
  if (options.trustProxy > 0) {
    // The scheme the nearest proxy says the client used, from the same kind of header as the client's address.
    const last = options.trustProxyHeader === 'forwarded'
      ? forwardedParams(req.headers.forwarded, 'proto').at(-1)
      : req.headers['x-forwarded-proto']?.toString().split(',').at(-1);
    if (last?.trim().toLowerCase() === 'https') proto = 'https';
  }
  const method = req.method ?? 'GET';
  if (UNREPRESENTABLE_METHODS.has(method)) throw new MethodNotAllowedError(method);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // A Host that passes the pattern but is no valid authority (port 99999, a malformed IPv6 literal) is treated
  // like a missing one, rather than failing the whole request.
  let url = `${proto}://${host}${path}`;
  if (host !== options.fallbackHost && !URL.canParse(url)) url = `${proto}://${options.fallbackHost}${path}`;
  try {
    return newRequest(req, url, method, hasBody, options.writeContinue);
  } catch (err) {
    if (err instanceof TypeError) throw new BadRequestError('The request target is not valid.');
    throw err;
  }
}

function newRequest(req: IncomingMessage, url: string, method: string, hasBody: boolean, writeContinue?: () => void): Request {
  return new Request(url, {
    method,
    headers: req.headers as Record<string, string>,
    body: hasBody ? bodyStream(req, awaitsContinue(req) ? writeContinue : undefined) : undefined,
    duplex: hasBody ? 'half' : undefined,
  } as RequestInit);
}

/**
 * A body the handler left unread (a 405 for a POST, or any handler that answers without reading) is read and thrown
 * away, within these bounds and DRAIN_BODY_BYTES, before the answer: closing a socket with unread bytes in it makes
 * the kernel send a reset, which can destroy the answer before the client reads it (functions/body.ts does the same
 * for the bodies the handlers refuse; see DRAIN_BODY_BYTES there). Past the bounds the host answers at once and
 * closes.
 */
const DRAIN_MAX_MS = 2_000;
/** A client that sends nothing for this long is not going to finish its body; answer it without waiting more. */
const DRAIN_IDLE_MS = 500;

/**
 * A request's Web body, for the drain: `stop` keeps it from taking more bytes; `reading` is true while a handler holds
 * a reader it has not cancelled (it may still be reading, so the host must not take the bytes from under it).
 */
const bodies = new WeakMap<IncomingMessage, { stop(): void; reading(): boolean; continued(): boolean }>();

/** A request whose client waits for `100 Continue` before it sends its body (node:http asks only of HTTP/1.1 ones). */
function awaitsContinue(req: IncomingMessage): boolean {
  return req.httpVersion === '1.1' && expectsContinue(req.headers.expect);
}

/**
 * The request body as a Web stream. Unlike Readable.toWeb, cancelling it (a handler stopping at its size limit)
 * does not destroy the socket, so the handler's 413 can still reach the client; writeResponse drains the rest.
 */
function bodyStream(req: IncomingMessage, writeContinue?: () => void): ReadableStream<Uint8Array> {
  let stopped = false;
  // Awaiting the first read (only a client that waits for 100 Continue): the stream then has no high-water mark, so
  // its first pull is a handler's read, not the stream filling itself.
  let continued = !writeContinue;
  const stop = () => {
    stopped = true;
    req.pause();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          if (stopped) return;
          // A copy, so the bytes do not pin the socket's read buffer (Readable.toWeb copies too).
          controller.enqueue(new Uint8Array(chunk));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          if (!stopped) controller.close();
        });
        req.once('error', (err) => {
          if (!stopped) controller.error(err);
        });
        req.once('close', () => {
          if (!stopped && !req.complete) controller.error(new Error('The client closed the connection before the body ended.'));
        });
      },
      pull() {
        if (stopped) return;
        if (!continued) {
          continued = true;
          writeContinue!();
        }
        req.resume();
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: continued ? 64 * 1024 : 0, size: (chunk) => chunk.byteLength },
  );
  bodies.set(req, { stop, reading: () => stream.locked && !stopped, continued: () => continued });
  return stream;
}

/** Reads and discards the rest of an unread body, within the drain's bounds. */
function drainBody(req: IncomingMessage): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const body = bodies.get(req);
  if (req.destroyed || declared > DRAIN_BODY_BYTES || body?.reading()) return Promise.resolve();
  body?.stop();
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = () => {
      clearTimeout(overall);
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      req.off('error', finish);
      req.pause();
      resolve();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.byteLength;
      if (bytes > DRAIN_BODY_BYTES) finish();
      else idle.refresh();
    };
    const overall = setTimeout(finish, DRAIN_MAX_MS);
    const idle = setTimeout(finish, DRAIN_IDLE_MS);
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
    req.resume();
  });
}

/**
 * How long a connection closed with the client still sending (a body past the drain's bounds) stays half-open,
 * reading and throwing away what arrives, before it is closed (Go's server waits 500 ms the same way).
 */
const LINGER_MS = 1_000;

/**
 * After the answer, Node closes a `Connection: close` socket at once (socket.destroySoon), and closing it with the
 * client's bytes still arriving makes the kernel reset the connection, which can destroy the answer before the
 * client reads it: a client that sends its whole 8 MB before reading saw no 413 in 19 tries of 20. So this socket
 * half-closes instead (FIN after the answer) and keeps reading until the client closes its side or LINGER_MS pass,
 * as Apache's lingering close does. Each such connection is held at most LINGER_MS longer.
 */
function lingerOnClose(req: IncomingMessage): void {
  const socket = req.socket;
  socket.destroySoon = function lingeringClose(this: Socket) {
    const close = () => this.destroy();
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    this.once('end', close);
    this.once('close', () => clearTimeout(timer));
    this.end();
    // The exchange is over: the handler's body stream takes no more bytes (it pauses the body when full), and the
    // HTTP parser, which still reads the socket, hands them to a flowing body that throws them away.
    bodies.get(req)?.stop();
    req.on('data', () => {});
    req.resume();
  };
}

/** Writes a Response out; resolves when it is written (or the client went away). Never rejects. */
export async function writeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  options: { close?: boolean } = {},
): Promise<void> {
  // A prebuilt file: its header list and bytes go out as they are (see functions/memory-response.ts).
  const direct = response instanceof MemoryResponse ? response.direct() : undefined;
  const headers: string[] = [];
  if (direct) for (const [name, value] of direct.headers) headers.push(name, value);
  else {
    response.headers.forEach((value, name) => {
      headers.push(name, value);
    });
  }
  // A body the handler did not read to the end (a 405 for a POST; a 413 for one announced past the drain) is drained
  // before the answer, and the connection is closed after it: what is left past the drain's bounds is never parsed
  // as the next request.
  const unread = req.method !== 'GET' && req.method !== 'HEAD' && !req.complete;
  if (unread) {
    req.on('error', () => {});
    // A client still waiting for 100 Continue sends no body to drain: it reads this answer and sends none (RFC
    // 9110 §10.1.1), or sends it after its own wait, which the lingering close reads and throws away.
    const waiting = awaitsContinue(req) && !(bodies.get(req)?.continued() ?? false);
    if (!waiting) await drainBody(req);
    if (!req.complete) lingerOnClose(req);
  }
  if (unread || options.close) headers.push('Connection', 'close');
  try {
    res.writeHead(response.status, response.statusText || undefined, headers);
  } catch {
    // An invalid header from a handler: answer a plain 500 rather than crash.
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Internal Server Error');
    return;
  }
  if (direct) {
    if (direct.bytes && req.method !== 'HEAD') res.end(direct.bytes);
    else res.end();
    return;
  }
  if (!response.body || req.method === 'HEAD') {
    void response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = (response.body as unknown as NodeReadableStream<Uint8Array>).getReader();
  const onClose = () => void reader.cancel().catch(() => {});
  res.once('close', onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) {
        await new Promise<void>((resume) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resume();
          };
          res.on('drain', go);
          res.on('close', go);
        });
      }
    }
    res.end();
  } catch {
    // The stream failed midway: the status is already sent, so the only honest signal left is a cut connection.
    res.destroy();
  } finally {
    res.off('close', onClose);
  }
}
