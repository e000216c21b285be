/**
 * Turns whatever a later step throws into the contract's envelope: an ApiError into its own status and code, any
 * other exception into a 500 `internal_error` whose body says nothing about the cause (the stack goes to the log).
 */
import { ApiError, apiErrorResponse, errorResponse } from '../errors.ts';
import type { Middleware } from '../types.ts';

export function errorBoundary(): Middleware {
  return async (request, ctx, next) => {
    try {
      return await next();
    } catch (err) {
      if (err instanceof ApiError) return apiErrorResponse(err);
      ctx.log.error('unhandled error', {
        method: request.method,
        path: ctx.url.pathname,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      return errorResponse('internal_error');
    }
  };
}
