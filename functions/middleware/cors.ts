/**
 * CORS, so browser apps on other origins can read the public documents and API. Everything public is readable
 * from anywhere (`Access-Control-Allow-Origin: *`; nothing here uses cookies, and a bearer token is sent
 * explicitly), except API routes that do not declare `cors: true`. The headers go on every response of an allowed
 * path, errors and 429s included, so a browser app can read why it failed. A preflight (OPTIONS with
 * Access-Control-Request-Method) gets the allowed methods and headers here; the OPTIONS request itself is then
 * answered by the dispatcher (204 with Allow), after the rate limit, like every other request.
 */
import { Router } from '../router.ts';
import type { Middleware } from '../types.ts';

/** Response headers a cross-origin script may read. */
const EXPOSE = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'ETag',
  'Link',
  'WWW-Authenticate',
  'Mcp-Session-Id',
  'PAYMENT-REQUIRED',
  'X-Payment-Required',
  // What an app needs to read a byte range of an episode's audio or a document (206's range and size, whether
  // ranges are served) and a 405's methods: none of them is a CORS-safelisted response header.
  'Content-Range',
  'Accept-Ranges',
  'Allow',
].join(', ');

const DEFAULT_ALLOW_HEADERS = 'Accept, Authorization, Content-Type, Last-Event-ID, Mcp-Protocol-Version, Mcp-Session-Id, Prefer, Range';
const STATIC_METHODS = 'GET, HEAD, OPTIONS';
/** Header names a preflight may ask for: tokens only, and not too many. */
const HEADER_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*,\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+){0,31}$/;

export function cors(): Middleware {
  // Not async: it only adds headers, so it hands on next()'s promise instead of wrapping it in another.
  return (request, ctx, next) => {
    const route = ctx.route;
    if (route && route.cors !== true) return next();
    const headers = ctx.headers;
    headers.set('Access-Control-Allow-Origin', '*');
    headers.set('Access-Control-Expose-Headers', EXPOSE);
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      headers.set('Access-Control-Allow-Methods', route ? Router.allow(route) : STATIC_METHODS);
      const asked = request.headers.get('access-control-request-headers')?.trim();
      headers.set('Access-Control-Allow-Headers', asked && HEADER_LIST.test(asked) ? asked : DEFAULT_ALLOW_HEADERS);
      headers.set('Access-Control-Max-Age', '86400');
    }
    return next();
  };
}
