/**
 * Astro's Node handler as the pipeline's last fallback, for pages that were not prerendered.
 *
 * @astrojs/node in middleware mode exports `handler(req, res, next)` for node:http: it renders into `res`, or
 * calls `next()` when no route of its own matches. The pipeline, though, must see a Response (to add its headers,
 * log the status, turn "nothing here" into a 404). So the handler gets a request-like object made from the Web
 * Request and a response-like object that turns what Astro writes (writeHead, write, end) back into a Response,
 * streamed as it is written. Only the members Astro's request builder and writeResponse use are provided.
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RequestContext } from '../../functions/types.ts';
import { ERROR_CODES, errorResponse, type ErrorCode } from '../../functions/errors.ts';

export type NodeHandler = (req: unknown, res: unknown, next?: (err?: unknown) => void) => unknown;
export type Fallback = (request: Request, ctx: RequestContext) => Promise<Response | undefined>;

/**
 * Astro's handler for dist/server/entry.mjs when the build made one; undefined when there is nothing Astro renders
 * at run time. The entry is imported on the first request that reaches it, not at start: every page of this site is
 * prerendered, so most processes never need it, and it brought Astro's runtime and its dependencies (zod, devalue,
 * unstorage…) into memory (bench/, N = 1,000: ~18 MB RSS, 6 MB of heap). An entry that cannot be loaded is reported
 * through onError once and the fallback answers nothing (a 404) from then on. A generation above 0 (a reload)
 * imports the entry afresh rather than the module cached before.
 */
export function loadAstroFallback(distDir: string, generation = 0, onError: (err: Error) => void = () => {}): Fallback | undefined {
  const entry = join(distDir, 'server', 'entry.mjs');
  if (!existsSync(entry)) return undefined;
  const href = pathToFileURL(entry).href + (generation ? `?generation=${generation}` : '');
  let loading: Promise<Fallback | undefined> | undefined;
  return async (request, ctx) => {
    loading ??= (import(href) as Promise<{ handler?: NodeHandler }>).then(
      (mod) => (typeof mod.handler === 'function' ? withEnvelopeErrors(astroFallback(mod.handler)) : undefined),
      (err: Error) => {
        onError(err);
        return undefined;
      },
    );
    const fallback = await loading;
    return fallback?.(request, ctx);
  };
}

/**
 * Astro also answers for routes of its own that are not pages (/_server-islands/*, its cross-site form check),
 * with empty or plain-text errors. Every error the service gives is the contract's envelope, so: Astro's 404
 * means "nothing here" (the pipeline's own 404, JSON or the HTML page for a browser), and any other error
 * becomes the envelope with the same status.
 */
export function withEnvelopeErrors(fallback: Fallback): Fallback {
  return async (request, ctx) => {
    const response = await fallback(request, ctx);
    if (!response || response.status < 400) return response;
    void response.body?.cancel().catch(() => {});
    if (response.status === 404) return undefined;
    const allow = response.headers.get('allow') ?? 'GET, HEAD, OPTIONS';
    return errorResponse(codeForStatus(response.status), {
      status: response.status,
      hint: `See ${ctx.url.origin}/docs.md for the service's addresses.`,
      headers: response.status === 405 ? { Allow: allow } : undefined,
    });
  };
}

function codeForStatus(status: number): ErrorCode {
  const known = (Object.keys(ERROR_CODES) as ErrorCode[]).find((code) => ERROR_CODES[code].status === status);
  return known ?? (status >= 500 ? 'internal_error' : 'invalid_parameter');
}

export function astroFallback(handler: NodeHandler): Fallback {
  return (request, ctx) =>
    new Promise<Response | undefined>((resolve, reject) => {
      const socket = Object.assign(new EventEmitter(), {
        remoteAddress: ctx.clientIp,
        encrypted: ctx.url.protocol === 'https:',
        destroyed: false,
      });
      const req = Object.assign(new EventEmitter(), {
        method: request.method,
        url: `${ctx.url.pathname}${ctx.url.search}`,
        headers: nodeHeaders(request.headers),
        socket,
        // Astro reads a body from `req.body` when it is async-iterable (a ReadableStream is).
        body: request.body ?? undefined,
        complete: false,
        async *[Symbol.asyncIterator]() {},
      });
      const res = new CapturedResponse(req, resolve);
      const onAbort = () => {
        socket.destroyed = true;
        socket.emit('close');
        res.abort();
      };
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      res.once('close', () => ctx.signal.removeEventListener('abort', onAbort));
      const next = (err?: unknown) => {
        ctx.signal.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve(undefined);
      };
      Promise.resolve()
        .then(() => handler(req, res, next))
        // Astro has written its answer or called next() by the time its promise settles; should it have done
        // neither, "nothing here" is the answer rather than a request that never ends.
        .then(() => resolve(undefined), reject);
    });
}

function nodeHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** Collects what Astro writes into a ServerResponse and hands it on as a streamed Web Response. */
export class CapturedResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  settled = false;
  readonly req: unknown;
  readonly #headers = new Headers();
  readonly #resolve: (response: Response) => void;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;

  constructor(req: unknown, resolve: (response: Response) => void) {
    super();
    this.req = req;
    this.#resolve = resolve;
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.#headers.delete(name);
    for (const v of Array.isArray(value) ? value : [value]) this.#headers.append(name, String(v));
    return this;
  }

  getHeader(name: string): string | undefined {
    return this.#headers.get(name) ?? undefined;
  }

  removeHeader(name: string): void {
    this.#headers.delete(name);
  }

  writeHead(status: number, reasonOrHeaders?: unknown, maybeHeaders?: unknown): this {
    this.statusCode = status;
    let headers = maybeHeaders;
    if (typeof reasonOrHeaders === 'string') this.statusMessage = reasonOrHeaders;
    else headers = reasonOrHeaders;
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) this.#headers.append(String(headers[i]), String(headers[i + 1]));
    } else if (headers && typeof headers === 'object') {
      for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) this.#headers.append(name, String(v));
      }
    }
    this.#start();
    return this;
  }

  flushHeaders(): void {
    this.#start();
  }

  write(chunk: unknown, encodingOrCb?: unknown, cb?: unknown): boolean {
    this.#start();
    if (chunk !== undefined && chunk !== null && !this.writableEnded) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk as ArrayBufferLike);
      if (bytes.byteLength) this.#controller?.enqueue(bytes);
    }
    const callback = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return true;
  }

  end(chunk?: unknown, encodingOrCb?: unknown, cb?: unknown): this {
    if (typeof chunk === 'function') {
      cb = chunk;
      chunk = undefined;
    }
    if (chunk !== undefined) this.write(chunk);
    this.#start();
    if (!this.writableEnded) {
      this.writableEnded = true;
      this.#controller?.close();
      this.emit('finish');
      this.emit('close');
    }
    const callback = typeof encodingOrCb === 'function' ? encodingOrCb : cb;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return this;
  }

  destroy(err?: unknown): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.#start();
    if (!this.writableEnded) {
      this.writableEnded = true;
      this.#controller?.error(err ?? new Error('response destroyed'));
      this.emit('close');
    }
    return this;
  }

  /** The client went away: tell Astro (it listens for close) and stop the stream. */
  abort(): void {
    if (this.writableEnded) return;
    this.writableEnded = true;
    this.destroyed = true;
    try {
      this.#controller?.close();
    } catch {
      // already closed
    }
    this.emit('close');
  }

  #start(): void {
    if (this.headersSent) return;
    this.headersSent = true;
    this.settled = true;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.abort(),
    });
    const nullBody = this.statusCode === 204 || this.statusCode === 304;
    if (nullBody) void body.cancel().catch(() => {});
    this.#resolve(new Response(nullBody ? null : body, {
      status: this.statusCode,
      statusText: this.statusMessage,
      headers: this.#headers,
    }));
  }
}
