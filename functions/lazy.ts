/**
 * Code that only some requests need, loaded by the first of them instead of at every start: /api/search and /ask,
 * the answers a cold start waits for, need none of the MCP, OAuth or donate handlers, nor jose. The route table
 * stays static (path, methods, CORS), since the router, CORS and the Allow header read it before any handler runs.
 *
 * Always pass `() => import('./literal-path.ts')`: a literal specifier is what lets esbuild (wrangler, the
 * Netlify and Vercel bundles) put the module into the bundle; a computed one would be left as a file lookup at
 * run time that fails on those platforms.
 */
import type { Handler } from './types.ts';

/**
 * `load` run once, its promise shared by every caller. A failed load is forgotten, so the next caller tries again
 * (a transient failure must not break a route for the life of the process).
 */
export function importOnce<M>(load: () => Promise<M>): () => Promise<M> {
  let pending: Promise<M> | undefined;
  return () => {
    if (!pending) {
      const attempt = load();
      pending = attempt;
      attempt.catch(() => {
        if (pending === attempt) pending = undefined;
      });
    }
    return pending;
  };
}

/** A handler that loads its module on the first request, then answers with the handler `pick` takes from it. */
export function lazy<M>(load: () => Promise<M>, pick: (module: M) => Handler): Handler {
  const loadHandler = importOnce(async () => pick(await load()));
  let handler: Handler | undefined;
  return async (request, ctx) => {
    // Once loaded, called directly: the first request paid for the import, the others pay nothing.
    handler ??= await loadHandler();
    return handler(request, ctx);
  };
}
