/**
 * A handler that never answers must not leave its client waiting forever, on any host: past the deadline the
 * client gets a 503 `unavailable` envelope with Retry-After, and the handler's signal is aborted so its work
 * stops. The deadline is for the answer to start; a stream that has started (an /ask event stream) is not cut.
 */
import { errorResponse } from '../errors.ts';
import type { Middleware } from '../types.ts';

export function deadline(timeoutMs: number): Middleware {
  return (request, ctx, next) =>
    new Promise<Response>((resolve, reject) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        ctx.abort?.();
        ctx.log.error('no answer within the deadline', { method: request.method, path: ctx.url.pathname, timeout_ms: timeoutMs });
        resolve(
          errorResponse('unavailable', {
            message: 'The service did not finish answering in time.',
            hint: 'Try again in a moment.',
            headers: { 'Retry-After': '1' },
          }),
        );
      }, timeoutMs);
      next().then(
        (response) => {
          clearTimeout(timer);
          // The 503 went out already; this late answer has nowhere to go.
          if (late) void response.body?.cancel().catch(() => {});
          else resolve(response);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (!late) reject(err);
        },
      );
    });
}
