/**
 * Headers every response carries, whatever produced it: no MIME sniffing, a conservative referrer policy, and for
 * HTML a Content-Security-Policy (and no framing). The prebuilt pages bring a CSP of their own that also allows
 * their inline scripts by hash (computed when the build output is loaded); anything else that is HTML gets the
 * default policy below.
 */
import { responseHeader } from '../memory-response.ts';
import type { Middleware } from '../types.ts';

const BASE_CSP = [
  "default-src 'self'",
  "img-src 'self' data: https:",
  "media-src 'self' https:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/** The CSP for an HTML document; scriptHashes are 'sha256-...' sources of its inline scripts. */
export function contentSecurityPolicy(scriptHashes: string[] = []): string {
  const scripts = ["script-src 'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' ');
  return [...BASE_CSP, scripts].join('; ');
}

export const DEFAULT_CSP = contentSecurityPolicy();

export function securityHeaders(): Middleware {
  return async (_request, ctx, next) => {
    ctx.headers.set('X-Content-Type-Options', 'nosniff');
    ctx.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    const response = await next();
    if (responseHeader(response, 'content-type')?.startsWith('text/html')) {
      ctx.headers.set('Content-Security-Policy', DEFAULT_CSP);
      ctx.headers.set('X-Frame-Options', 'DENY');
    }
    return response;
  };
}
