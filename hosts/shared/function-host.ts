/**
 * The pipeline for a Node-runtime function platform (Netlify Functions, Vercel Functions): the platform's CDN
 * serves the site; the function answers the API and the contract's documents (so they carry X-RateLimit-*), read
 * from the copy of the build deployed with the function. One app per warm instance, made on the first request.
 * Without REDIS_URL each instance keeps its own rate-limit budget (documented per platform in the README).
 */
import { resolve } from 'node:path';
import { createApp, withHeaders, type App } from '../../functions/app.ts';
import { readServiceEnv } from '../../functions/env.ts';
import { standardResponse } from '../../functions/memory-response.ts';
import { createStaticResponder } from '../../functions/static.ts';
import { prepareSigningKey } from '../../functions/oauth/keys.ts';
import { createLogger } from '../node/log.ts';
import { loadStaticStore } from '../node/static-store.ts';
import { dataStoreOver, sharedStores } from '../node/stores.ts';

let app: Promise<App> | undefined;

async function createFunctionApp(clientDir: string): Promise<App> {
  const env = readServiceEnv(process.env);
  const log = createLogger(env.logLevel);
  // Only what the function answers or reads: the contract's documents and the data files (fn), the 404 page.
  const store = loadStaticStore(clientDir, { only: (path, entry) => Boolean(entry.fn) || path === '/404.html' });
  const data = dataStoreOver(store);
  const { limiter, singleUse } = await sharedStores(env, log);
  await prepareSigningKey(env, log).catch(() => {});
  const serveStatic = createStaticResponder(store);
  return createApp({ env, data, log, serveStatic, notFoundPage: (request) => serveStatic.notFoundPage(request), rateLimit: { store: limiter }, singleUse });
}

/** Answers one request; clientIp is what the platform says the client's address is. */
export async function handle(request: Request, clientIp: string, clientDir = resolve(process.env.DIST_DIR || 'dist', 'client')): Promise<Response> {
  app ??= createFunctionApp(clientDir).catch((err: unknown) => {
    app = undefined;
    throw err;
  });
  // Every answer of the function is counted and carries this client's X-RateLimit-*: the platform's CDN must not
  // keep one and give it to others (Netlify and Vercel read CDN-Cache-Control before Cache-Control, which stays
  // as the contract has it for browsers and apps).
  const response = await (await app).fetch(request, { clientIp, signal: request.signal });
  return standardResponse(withHeaders(response, new Headers({ 'CDN-Cache-Control': 'no-store' })));
}
