/**
 * One structured line per request, written when the response is ready to go out (its status is known; a long
 * stream is not waited for): time, method, path (no query string: it may hold what a listener searched for),
 * status, duration and client address.
 */
import type { Middleware } from '../types.ts';

export function accessLog(): Middleware {
  return async (request, ctx, next) => {
    const start = performance.now();
    let status = 500;
    try {
      const response = await next();
      status = response.status;
      return response;
    } finally {
      ctx.log.info('request', {
        method: request.method,
        path: ctx.url.pathname,
        status,
        duration_ms: Math.round((performance.now() - start) * 100) / 100,
        ip: ctx.clientIp,
      });
    }
  };
}
