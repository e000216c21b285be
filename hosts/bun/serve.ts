/**
 * `npm run preview:bun`: the service on Bun's own HTTP server (Bun.serve), which speaks Request/Response
 * natively, so this host only loads the build and hands each request to the pipeline. HOST, PORT, SITE_URL and
 * the other settings, and their defaults, as for `npm start` (hosts/node/config.ts: a long-running server, so the
 * index budget grows with the show and STATIC_CACHE_MB bounds the files held); it serves an existing build
 * (`npm run build`).
 */
import { resolve } from 'node:path';
import { createApp } from '../../functions/app.ts';
import { standardResponse } from '../../functions/memory-response.ts';
import { createStaticResponder } from '../../functions/static.ts';
import { prepareSigningKey } from '../../functions/oauth/keys.ts';
import { createLogger } from '../node/log.ts';
import { readConfig } from '../node/config.ts';
import { loadStaticStore } from '../node/static-store.ts';
import { dataStoreOver, sharedStores } from '../node/stores.ts';

declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response>;
  }): { url: URL; stop(closeActive?: boolean): Promise<void> };
};

const env = readConfig(process.env);
const log = createLogger(env.logLevel);
const store = loadStaticStore(resolve(env.distDir, 'client'), { maxBytes: env.staticCacheMb * 2 ** 20 });
const data = dataStoreOver(store);
const { limiter, singleUse } = await sharedStores(env, log);
await prepareSigningKey(env, log).catch(() => {});
const serveStatic = createStaticResponder(store);
const app = createApp({ env, data, log, serveStatic, notFoundPage: (request) => serveStatic.notFoundPage(request), rateLimit: { store: limiter }, singleUse });

const server = Bun.serve({
  hostname: env.host,
  port: env.port,
  async fetch(request, bun) {
    return standardResponse(await app.fetch(request, { clientIp: bun.requestIP(request)?.address ?? '', signal: request.signal }));
  },
});
log.info('listening', { url: server.url.href, runtime: 'bun', files: store.files.size });

const stop = async (signal: string) => {
  log.info('shutting down', { reason: signal });
  await server.stop();
  await limiter.close?.();
  log.flush();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
