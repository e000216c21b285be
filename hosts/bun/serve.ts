/**
 * `npm run preview:bun`: the service on Bun's own HTTP server (Bun.serve), which speaks Request/Response
 * natively, so this host only loads the build and hands each request to the pipeline. HOST, PORT, SITE_URL and
 * the other settings, and their defaults, as for `npm start` (hosts/node/config.ts: a long-running server, so the
 * index budget grows with the show and STATIC_CACHE_MB bounds the files held); it serves an existing build
 * (`npm run build`).
 */
import { resolve } from 'node:path';
import { createApp } from '../../functions/app.ts';
import { errorResponse } from '../../functions/errors.ts';
import { standardResponse } from '../../functions/memory-response.ts';
import { createStaticResponder } from '../../functions/static.ts';
import { prepareSigningKey } from '../../functions/oauth/keys.ts';
import { DRAIN_CHECK_MS, idleGrace } from '../node/connections.ts';
import { createLogger } from '../node/log.ts';
import { ENV_HELP, exitOnArgs, readConfig } from '../node/config.ts';
import { loadStaticStore } from '../node/static-store.ts';
import { dataStoreOver, sharedStores } from '../node/stores.ts';

declare const Bun: {
  serve(options: {
    hostname: string;
    port: number;
    fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response>;
  }): { url: URL; pendingRequests: number; stop(closeActive?: boolean): Promise<void> };
};

exitOnArgs(
  'npm run preview:bun',
  `Usage: npm run preview:bun [-- --help]\n\nServes the built podcast site and its API on Bun.\n\n${ENV_HELP}\n\n` +
    `HEADERS_TIMEOUT_MS and IDLE_GC_MS are npm start's only: Bun's own parser reads the request headers (and closes a\nslow one after ~12 s), and Bun runs without --expose-gc.`,
);
const env = readConfig(process.env);
const log = createLogger(env.logLevel);
const store = loadStaticStore(resolve(env.distDir, 'client'), { maxBytes: env.staticCacheMb * 2 ** 20 });
const data = dataStoreOver(store);
const { limiter, singleUse } = await sharedStores(env, log);
await prepareSigningKey(env, log).catch(() => {});
const serveStatic = createStaticResponder(store);
const app = createApp({ env, data, log, serveStatic, cdnServed: (path) => store.cdnServed(path), notFoundPage: (request) => serveStatic.notFoundPage(request), rateLimit: { store: limiter }, singleUse });

/**
 * Bun hands over a URL that does not parse where the Host header is no valid authority: relative when it is empty,
 * malformed or absent (HTTP/1.0), absolute with the bad authority in it otherwise (a port past 65535, a broken IPv6
 * literal); and CONNECT's authority-form target as is. The Node host falls back to the server's own address for
 * the first and answers the second 405 (hosts/node/node-http.ts); so does this one, rather than let the pipeline
 * fail on the URL.
 */
function absolute(request: Request): Request | Response {
  if (URL.canParse(request.url)) return request;
  if (request.method === 'CONNECT') {
    // As the Node host does: the connection was asked to become a tunnel and is not reused.
    const refused = app.refuseMethod(request.method, request.url);
    refused.headers.set('Connection', 'close');
    return refused;
  }
  const path = request.url.startsWith('/') ? request.url : /^https?:\/\/[^/?#]*([/?][^#]*)?$/i.exec(request.url)?.[1];
  if (path === undefined) {
    return errorResponse('invalid_path', { message: 'The request target is not valid.', hint: 'Send an origin-form path, e.g. GET /episodes.json.' });
  }
  return new Request(new URL(path.startsWith('/') ? path : `/${path}`, server.url), request);
}

let shuttingDown = false;
const server = Bun.serve({
  hostname: env.host,
  port: env.port,
  async fetch(incoming, bun) {
    const request = absolute(incoming);
    if (request instanceof Response) return request;
    const response = standardResponse(await app.fetch(request, { clientIp: bun.requestIP(incoming)?.address ?? '', signal: incoming.signal }));
    // Bun writes a Date on a GET's answer but not on a HEAD's (RFC 9110 §6.6.1 asks for one on every answer).
    const undated = request.method === 'HEAD' && !response.headers.has('date');
    if (!shuttingDown && !undated) return response;
    // A response's own headers may be immutable: the changed ones go on a copy.
    const headers = new Headers(response.headers);
    if (undated) headers.set('date', new Date().toUTCString());
    // While shutting down, no connection is kept for another request.
    if (shuttingDown) headers.set('connection', 'close');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  },
});
log.info('listening', { url: server.url.href, runtime: 'bun', files: store.files.size });

/**
 * Graceful shutdown, as the Node host drains (hosts/node/main.ts), within what Bun.serve shows: it has no
 * per-connection events, only the requests. Bun's own stop() closes idle keep-alive connections at once and
 * stops listening, so a client writing its next request on one at that moment, or whose connection still waits
 * in the listen backlog, gets a reset (under load every one of 50 keep-alive clients did). So for one idle grace
 * (IDLE_GRACE_MS) the server goes on listening and answering, each answer with `Connection: close`; then stop()
 * closes the connections that stayed idle through it, lets those with a request in flight finish, and resolves once
 * every connection is closed. At the deadline (SHUTDOWN_TIMEOUT_MS) whatever is left is cut.
 */
async function shutdown(reason: string) {
  shuttingDown = true;
  log.info('shutting down', { reason, inFlight: server.pendingRequests });
  const grace = idleGrace(env.shutdownTimeoutMs);
  await new Promise((resolve) => setTimeout(resolve, grace));
  // Back from a stall, timers run before the sockets are read: one more short wait lets the loop read a request
  // written meanwhile, so stop() finds it in flight instead of closing its connection as idle under it (without
  // it, 3 runs of 5 of test/qa/shutdown-load's stalled case saw 16-39 resets).
  await new Promise((resolve) => setTimeout(resolve, DRAIN_CHECK_MS));
  let forced = 0;
  const deadline = setTimeout(() => {
    forced = server.pendingRequests;
    log.warn('requests still in flight at the shutdown deadline; closing them', { inFlight: forced });
    void server.stop(true);
  }, Math.max(0, env.shutdownTimeoutMs - grace));
  const stopped = server.stop();
  log.info('stopped listening', { inFlight: server.pendingRequests });
  await stopped;
  clearTimeout(deadline);
  await limiter.close?.();
  log.info('stopped', { reason, forced });
  log.flush();
}

let signals = 0;
const onSignal = (signal: string) => {
  if (++signals > 1) {
    log.warn('second signal: exiting now', { signal });
    log.flush();
    process.exit(1);
  }
  void shutdown(signal).then(() => process.exit(0));
};
process.on('SIGTERM', () => onSignal('SIGTERM'));
process.on('SIGINT', () => onSignal('SIGINT'));
