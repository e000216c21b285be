/**
 * The request pipeline every request goes through, static documents included, composed in a fixed order:
 *
 *   access log → errors → response deadline → security headers → CORS → rate limit → bearer auth → [extra middleware]
 *     → API route | prebuilt file | page fallback (Astro) | 404
 *
 * Web-standard only (Request in, Response out), so any host can mount it: hosts/node for Node, or an adapter.
 * Middleware that only adds response headers (rate limit, CORS, security) puts them in ctx.headers; they are
 * merged into whatever answers, without overriding a header the answer set itself.
 */
import { errorResponse } from './errors.ts';
import { baseUrlOrRelative } from './base-url.ts';
import { Router } from './router.ts';
import { apiRoutes } from './routes.ts';
import type { DataStore } from './data.ts';
import { configureSearchCaches } from './search/engine.ts';
import type { Handler, Logger, Middleware, RequestContext, Route, ServiceEnv } from './types.ts';
import { accessLog } from './middleware/access-log.ts';
import { errorBoundary } from './middleware/error-boundary.ts';
import { deadline } from './middleware/deadline.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { cors } from './middleware/cors.ts';
import { DEFAULT_RATE_LIMIT, rateLimit } from './middleware/rate-limit.ts';
import { resolveClientIp } from './middleware/client-ip.ts';
import { MemoryRateLimitStore } from './ratelimit/memory.ts';
import type { RateLimitStore } from './ratelimit/store.ts';
import { MemorySingleUseStore } from './single-use/memory.ts';
import type { SingleUseStore } from './single-use/store.ts';
import { bearerAuth } from './oauth/bearer.ts';
import { MemoryResponse } from './memory-response.ts';
import { safePath } from './static.ts';
import { PendingHeaders } from './middleware/pending-headers.ts';

export type { Middleware, Next } from './types.ts';

export interface AppOptions {
  env: ServiceEnv;
  data: DataStore;
  log: Logger;
  /**
   * The prebuilt files' manifest question: whether a CDN host answers this path from its static layer (the
   * manifest's entry has no `fn`). A GET or HEAD for such a file is not counted against the rate limit, here as there.
   */
  cdnServed?: (path: string) => boolean;
  /** Answers prebuilt files; returns undefined when there is no such file. */
  serveStatic?: (request: Request, ctx: RequestContext) => Promise<Response | undefined> | Response | undefined;
  /** Renders what is a page but was not prebuilt (Astro's handler); undefined when it has nothing either. */
  fallback?: (request: Request, ctx: RequestContext) => Promise<Response | undefined>;
  /** The friendly HTML 404 page for a browser (Accept: text/html); undefined to answer the JSON envelope. */
  notFoundPage?: (request: Request, ctx: RequestContext) => Response | undefined | Promise<Response | undefined>;
  /** Extra middleware, run in order after the built-in ones and before dispatch. */
  middleware?: Middleware[];
  routes?: Route[];
  /** The contract's limit (60 per minute) and an in-memory store unless told otherwise. */
  rateLimit?: { store?: RateLimitStore; max?: number; windowMs?: number };
  /** Single-use state (OAuth codes, revocations, registrations): this process's memory unless told otherwise. */
  singleUse?: SingleUseStore;
}

export interface PlatformInfo {
  /** The socket's remote address; TRUST_PROXY decides whether forwarded headers override it. */
  clientIp: string;
  /** Aborted when the client goes away (or the server shuts down). */
  signal?: AbortSignal;
}

export interface App {
  fetch(request: Request, platform: PlatformInfo): Promise<Response>;
  router: Router;
  /**
   * The 405 for a method a host cannot hand to fetch (a Web Request refuses CONNECT, TRACE and TRACK), with the
   * target path's real Allow: the host answers it itself, outside the pipeline.
   */
  refuseMethod(method: string, target: string): Response;
}

export function createApp(options: AppOptions): App {
  const router = new Router(options.routes ?? apiRoutes);
  const chain: Middleware[] = [
    accessLog(),
    errorBoundary(),
    deadline(options.env.responseTimeoutMs),
    securityHeaders(),
    cors(),
    rateLimit({
      store: options.rateLimit?.store ?? new MemoryRateLimitStore(),
      max: options.rateLimit?.max ?? options.env.rateLimitMax ?? DEFAULT_RATE_LIMIT.max,
      windowMs: options.rateLimit?.windowMs ?? options.env.rateLimitWindowMs ?? DEFAULT_RATE_LIMIT.windowMs,
      ...(options.cdnServed ? { uncounted: cdnRead(options.cdnServed) } : {}),
    }),
    // Optional bearer token (functions/oauth/bearer.ts): after the rate limit, so a flood of bad tokens is
    // throttled like anything else, and before any handler, so ctx.auth is set when it runs.
    bearerAuth(),
    ...(options.middleware ?? []),
  ];
  const dispatch = createDispatcher(options);

  const run = (request: Request, ctx: RequestContext, index: number): Promise<Response> => {
    const mw = chain[index];
    if (!mw) return dispatch(request, ctx);
    return mw(request, ctx, () => run(request, ctx, index + 1));
  };

  const { env, data, log } = options;
  // Before any engine is made (the first search): how much of the index this process keeps loaded.
  configureSearchCaches(env.searchCacheMb, env.searchCachePerPassage);
  const singleUse = options.singleUse ?? new MemorySingleUseStore();
  return {
    router,
    refuseMethod(method, target) {
      const route = target.startsWith('/') ? router.match(target.split('?')[0]!) : undefined;
      const allow = route ? Router.allow(route) : 'GET, HEAD, OPTIONS';
      const response = errorResponse('method_not_allowed', {
        message: `${method} is not supported by this service.`,
        hint: `Use one of: ${allow}.`,
        headers: { Allow: allow },
      });
      response.headers.set('X-Content-Type-Options', 'nosniff');
      return response;
    },
    async fetch(request, platform) {
      let ctx: RequestContext | undefined;
      try {
        const url = new URL(request.url);
        // The handlers' signal: aborted when the client goes away (the host says so) or at the response deadline.
        const deadlineController = new AbortController();
        const clientSignal = platform.signal ?? request.signal;
        ctx = {
          url,
          clientIp: resolveClientIp(request.headers, platform.clientIp, env.trustProxy, env.trustProxyHeader),
          peerIp: platform.clientIp,
          env,
          data,
          log,
          signal: AbortSignal.any([clientSignal, deadlineController.signal]),
          abort: () => deadlineController.abort(),
          headers: new PendingHeaders(),
          singleUse,
          route: router.match(url.pathname),
        };
        const response = await run(request, ctx, 0);
        return withHeaders(response, ctx.headers);
      } catch (err) {
        // Only reachable if the pipeline itself failed (the error boundary catches handlers): never hang or crash.
        log.error('pipeline failure', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        const response = errorResponse('internal_error');
        return ctx ? withHeaders(response, ctx.headers) : response;
      }
    },
  };
}

/** A GET or HEAD, on no API route, for a prebuilt file a CDN host would answer without the function layer. */
function cdnRead(cdnServed: (path: string) => boolean) {
  return (request: Request, ctx: RequestContext): boolean => {
    if (ctx.route || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
    const path = safePath(ctx.url.pathname);
    return path !== null && cdnServed(path);
  };
}

/** Adds the headers middleware collected (rate limit, CORS, security) without losing the handler's own. */
export function withHeaders(response: Response, extra: Headers): Response {
  if (response instanceof MemoryResponse) {
    response.addMissing(extra);
    return response;
  }
  let target = response;
  extra.forEach((value, key) => {
    if (target.headers.has(key)) return;
    try {
      target.headers.set(key, value);
    } catch {
      // Immutable headers (Response.redirect, a fetch() result): copy once, then go on.
      const copy = new Response(target.body, { status: target.status, statusText: target.statusText, headers: target.headers });
      copy.headers.set(key, value);
      target = copy;
    }
  });
  return target;
}

/** Past this a HEAD answer goes without Content-Length rather than read on (an API answer is a few KB). */
const HEAD_COUNT_MAX_BYTES = 4 * 1024 * 1024;

/** The bytes in a body, read to its end; undefined past `max` (the rest is cancelled) or when it fails. */
async function bodyLength(body: ReadableStream<Uint8Array> | null, max: number): Promise<number | undefined> {
  if (!body) return 0;
  const reader = body.getReader();
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return length;
      length += value.byteLength;
      if (length > max) {
        void reader.cancel().catch(() => {});
        return undefined;
      }
    }
  } catch {
    return undefined;
  }
}

function createDispatcher(options: AppOptions) {
  return async (request: Request, ctx: RequestContext): Promise<Response> => {
    const route = ctx.route;
    if (route) {
      if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: Router.allow(route) } });
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const handler = (route.methods as Record<string, Handler | undefined>)[method];
      if (!handler) {
        const allow = Router.allow(route);
        return errorResponse('method_not_allowed', {
          message: `${request.method} is not supported on ${route.path}.`,
          hint: `Use one of: ${allow}.`,
          headers: { Allow: allow },
        });
      }
      const response = await handler(request, ctx);
      if (request.method !== 'HEAD') return response;
      // HEAD says what GET would send (RFC 9110 §9.3.2): its Content-Length, or none. A body-less answer without one
      // is not enough, since a host may add its own (Bun adds 0, announcing an empty document); so the GET body the
      // handler made is counted.
      const headers = new Headers(response.headers);
      if (!headers.has('content-length')) {
        const length = await bodyLength(response.body, HEAD_COUNT_MAX_BYTES);
        if (length !== undefined) headers.set('Content-Length', String(length));
      } else void response.body?.cancel().catch(() => {});
      return new Response(null, { status: response.status, statusText: response.statusText, headers });
    }
    const file = await options.serveStatic?.(request, ctx);
    if (file) return file;
    const page = await options.fallback?.(request, ctx);
    if (page) return page;
    const html = await options.notFoundPage?.(request, ctx);
    if (html) return html;
    return errorResponse('not_found', {
      message: `Nothing exists at ${ctx.url.pathname}.`,
      // From the configured site URL: the Host header is the client's to set, and a hint must not echo it.
      hint: `See ${await baseUrlOrRelative(ctx)}/docs.md for the service's addresses.`,
    });
  };
}
