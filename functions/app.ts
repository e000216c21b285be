/**
 * The request pipeline every request goes through, static documents included, composed in a fixed order:
 *
 *   errors → security headers → CORS → rate limit → bearer auth → API route | static file | page fallback | 404
 *
 * Web-standard only (Request in, Response out), so any host can mount it: src/server for Node, or an adapter.
 */
import { ApiError, apiErrorResponse, errorResponse } from './errors.ts';
import { Router } from './router.ts';
import { apiRoutes } from './routes.ts';
import type { DataStore } from './data.ts';
import type { Handler, Logger, RequestContext, Route, ServiceEnv } from './types.ts';

export type Next = () => Promise<Response>;
export type Middleware = (request: Request, ctx: RequestContext, next: Next) => Promise<Response>;

export interface AppOptions {
  env: ServiceEnv;
  data: DataStore;
  log: Logger;
  /** Answers prebuilt files; returns undefined when there is no such file. */
  serveStatic?: (request: Request, ctx: RequestContext) => Promise<Response | undefined> | Response | undefined;
  /** Renders what is a page but was not prebuilt (Astro's handler); undefined when it has nothing either. */
  fallback?: (request: Request, ctx: RequestContext) => Promise<Response | undefined>;
  /** Extra middleware, run in order after the built-in ones and before dispatch. */
  middleware?: Middleware[];
  routes?: Route[];
}

export interface PlatformInfo {
  clientIp: string;
  signal?: AbortSignal;
}

export interface App {
  fetch(request: Request, platform: PlatformInfo): Promise<Response>;
  router: Router;
}

export function createApp(options: AppOptions): App {
  const router = new Router(options.routes ?? apiRoutes);
  const chain: Middleware[] = [errorBoundary(options.log), ...(options.middleware ?? [])];
  const dispatch = createDispatcher(router, options);

  const run = (request: Request, ctx: RequestContext, index: number): Promise<Response> => {
    const mw = chain[index];
    if (!mw) return dispatch(request, ctx);
    return mw(request, ctx, () => run(request, ctx, index + 1));
  };

  return {
    router,
    async fetch(request, platform) {
      const ctx: RequestContext = {
        url: new URL(request.url),
        clientIp: platform.clientIp,
        env: options.env,
        data: options.data,
        log: options.log,
        signal: platform.signal ?? request.signal,
        headers: new Headers(),
      };
      const response = await run(request, ctx, 0);
      return withHeaders(response, ctx.headers);
    },
  };
}

/** Adds the headers middleware collected (rate limit, CORS, security) without losing the handler's own. */
export function withHeaders(response: Response, extra: Headers): Response {
  let headers: Headers | undefined;
  extra.forEach((value, key) => {
    if (response.headers.has(key)) return;
    headers ??= new Headers(response.headers);
    headers.set(key, value);
  });
  if (!headers) return response;
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function errorBoundary(log: Logger): Middleware {
  return async (request, ctx, next) => {
    try {
      return await next();
    } catch (err) {
      if (err instanceof ApiError) return apiErrorResponse(err);
      log.error('unhandled error', { path: ctx.url.pathname, method: request.method, error: String((err as Error)?.stack ?? err) });
      return errorResponse('internal_error');
    }
  };
}

function createDispatcher(router: Router, options: AppOptions) {
  return async (request: Request, ctx: RequestContext): Promise<Response> => {
    const route = router.match(ctx.url.pathname);
    if (route) {
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
      return request.method === 'HEAD' ? new Response(null, response) : response;
    }
    const file = await options.serveStatic?.(request, ctx);
    if (file) return file;
    const page = await options.fallback?.(request, ctx);
    if (page) return page;
    return errorResponse('not_found', {
      message: `Nothing exists at ${ctx.url.pathname}.`,
      hint: `See ${ctx.url.origin}/docs.md for the service's addresses.`,
    });
  };
}
