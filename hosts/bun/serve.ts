/**
 * `npm run preview:bun`: the service on Bun's own HTTP server (Bun.serve), which speaks Request/Response
 * natively, so this host only loads the build and hands each request to the pipeline. HOST, PORT, SITE_URL and
 * the other settings as for `npm start` (functions/env.ts); it serves an existing build (`npm run build`).
 */
import { resolve } from 'node:path';
import { createApp } from '../../functions/app.ts';
import { DataStore } from '../../functions/data.ts';
import { readServiceEnv } from '../../functions/env.ts';
import { standardResponse } from '../../functions/memory-response.ts';
import { createStaticResponder } from '../../functions/static.ts';
import { prepareSigningKey } from '../../functions/oauth/keys.ts';
import type { RateLimitStore } from '../../functions/ratelimit/store.ts';
import { MemoryRateLimitStore } from '../../functions/ratelimit/memory.ts';
import { MemorySingleUseStore } from '../../functions/single-use/memory.ts';
import type { SingleUseStore } from '../../functions/single-use/store.ts';
import { createLogger } from '../node/log.ts';
import { loadStaticStore } from '../node/static-store.ts';

declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response>;
  }): { url: URL; stop(closeActive?: boolean): Promise<void> };
};

const vars = process.env;
const env = readServiceEnv(vars);
const log = createLogger(env.logLevel);
const store = loadStaticStore(resolve(vars.DIST_DIR || 'dist', 'client'));
const data = new DataStore(async (path) => {
  const file = store.get(path);
  return file ? new Response(file.identity.blob, { headers: { 'Content-Type': file.type } }) : new Response(null, { status: 404 });
});
let limiter: RateLimitStore = new MemoryRateLimitStore();
let singleUse: SingleUseStore = new MemorySingleUseStore();
if (env.redisUrl) {
  const { RedisSharedStore } = await import('../node/redis-store.ts');
  const redis = new RedisSharedStore({ url: env.redisUrl, log });
  await redis.ready(2_000);
  limiter = redis;
  singleUse = redis;
}
await prepareSigningKey(env, log).catch(() => {});
const serveStatic = createStaticResponder(store);
const app = createApp({ env, data, log, serveStatic, notFoundPage: (request) => serveStatic.notFoundPage(request), rateLimit: { store: limiter }, singleUse });

const server = Bun.serve({
  hostname: vars.HOST || 'localhost',
  port: Number(vars.PORT ?? 4321),
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
