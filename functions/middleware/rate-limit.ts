/**
 * The contract's request rate: `max` requests per window per client, on every path a request reaches the
 * function layer for: the API, the contract's documents, and anything that is not a prebuilt file. Every such
 * response carries X-RateLimit-Limit / -Remaining / -Reset; the request past the budget is answered 429 with
 * Retry-After and the `rate_limited` envelope, before any handler runs.
 *
 * What `uncounted` accepts (pages, scripts, images and audio: the files a CDN host answers from its static layer,
 * never reaching the function) goes on without a count or the headers, on every host alike. Counted, one visit
 * to an episode (its page, scripts, artwork, and a range request for every seek in the audio) spent the
 * budget of a minute in seconds, and the listener met a 429.
 */
import { errorResponse } from '../errors.ts';
import type { RateLimitHit, RateLimitStore } from '../ratelimit/store.ts';
import type { Middleware, RequestContext } from '../types.ts';
import { expandIpv6 } from './client-ip.ts';

export const DEFAULT_RATE_LIMIT = { max: 60, windowMs: 60_000 } as const;

export interface RateLimitOptions {
  store: RateLimitStore;
  max: number;
  windowMs: number;
  /** Requests that are neither counted nor told the budget (see above); all are counted without it. */
  uncounted?: (request: Request, ctx: RequestContext) => boolean;
}

export function rateLimit(options: RateLimitOptions): Middleware {
  const { store, max, windowMs, uncounted } = options;
  const limit = String(max);
  const per = windowMs === 60_000 ? 'minute' : `${windowMs / 1000} seconds`;
  const decide = (hit: RateLimitHit, now: number, headers: Headers, next: () => Promise<Response>): Promise<Response> => {
    headers.set('X-RateLimit-Limit', limit);
    headers.set('X-RateLimit-Remaining', String(Math.max(0, max - hit.count)));
    headers.set('X-RateLimit-Reset', String(Math.ceil(hit.resetAt / 1000)));
    if (hit.count <= max) return next();
    const retryAfter = Math.max(1, Math.ceil((hit.resetAt - now) / 1000));
    return Promise.resolve(
      errorResponse('rate_limited', {
        message: `Too many requests: the limit is ${max} requests per ${per} per client.`,
        hint: `Retry after ${retryAfter} seconds (the Retry-After header); X-RateLimit-Remaining shows what is left.`,
        headers: { 'Retry-After': String(retryAfter) },
      }),
    );
  };
  // Not async: with the in-memory store the count is known at once, and the request goes on without a detour.
  return (request, ctx, next) => {
    if (uncounted?.(request, ctx)) return next();
    const now = Date.now();
    const hit = store.hit(rateKey(ctx.clientIp), windowMs, now);
    return hit instanceof Promise ? hit.then((h) => decide(h, now, ctx.headers, next)) : decide(hit, now, ctx.headers, next);
  };
}

/**
 * The counter's key: the address, except that IPv6 clients are counted per /64, the block one subscriber
 * usually holds whole (otherwise a single host could rotate through 2^64 addresses for fresh budgets).
 */
export function rateKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const groups = expandIpv6(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}
