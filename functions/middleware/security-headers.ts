/**
 * Headers every response carries, whatever produced it: no MIME sniffing, a conservative referrer policy, and for
 * HTML a Content-Security-Policy (and no framing). The prebuilt pages bring a CSP of their own that also allows
 * their inline scripts by hash (the build's asset manifest holds it); anything else that is HTML gets the
 * default policy below.
 */
import { responseHeader } from '../memory-response.ts';
import type { Middleware } from '../types.ts';
import { contentSecurityPolicy, DEFAULT_CSP } from '../../contract/http-policy.ts';

export { contentSecurityPolicy, DEFAULT_CSP };

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
