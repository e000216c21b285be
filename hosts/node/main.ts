/**
 * `npm start`: one Node process serving the built site and the API through the pipeline in functions/.
 * Builds first when there is no build output. `npm start -- --help` lists the settings.
 *
 * The host's own work is small and done once: read the build output into memory (static-store.ts), connect the
 * rate-limit store, set up Astro's handler (imported on first use) if the build has pages rendered at run time,
 * compose the pipeline (functions/app.ts). Per request it only converts between node:http and Request/Response (node-http.ts).
 *
 * SIGHUP takes up a new build without a restart: the build output is read into memory again and swapped in for
 * the requests that arrive after it; requests in flight finish on the build they started with.
 */
import { enableCompileCache } from 'node:module';
import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawn } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { Server as NetServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../functions/app.ts';
import { errorResponse } from '../../functions/errors.ts';
import { createStaticResponder } from '../../functions/static.ts';
import type { Route } from '../../functions/types.ts';
import { ENV_HELP, exitOnArgs, readConfig, type ServerConfig } from './config.ts';
import { createLogger, type ServerLogger } from './log.ts';
import { loadStaticStore, manifestVersion } from './static-store.ts';
import { MANIFEST_VERSION } from '../../contract/schemas/asset-manifest.ts';
import type { ErrorCode } from '../../contract/errors.ts';
import { dataStoreOver, sharedStores } from './stores.ts';
import { loadAstroFallback } from './astro-bridge.ts';
import { buildRefusal, builtForOtherSettings } from './build-guard.ts';
import { prepareSigningKey } from '../../functions/oauth/keys.ts';
import { BadRequestError, MethodNotAllowedError, checkFraming, toRequest, writeResponse } from './node-http.ts';
import { Connections, DRAIN_CHECK_MS, idleGrace } from './connections.ts';
import { exposedCollection, idleCollector } from './idle-gc.ts';

// Caches compiled code on disk between starts when this file is run directly; `npm start` runs start.ts, which
// turns the cache on before these imports are compiled (bench/, N = 1,000: CPU to the first answer −0.3–0.5 s).
enableCompileCache?.();

export interface ServiceOptions {
  config?: ServerConfig;
  log?: ServerLogger;
  /** The API routes (default: functions/routes.ts). */
  routes?: Route[];
}

export interface Service {
  server: Server;
  url: string;
  config: ServerConfig;
  log: ServerLogger;
  /** Stops accepting, lets requests in flight finish (at most config.shutdownTimeoutMs), closes Redis. */
  shutdown(reason?: string): Promise<void>;
  /**
   * Reads the build output again and serves it to every request that starts after this resolves (SIGHUP).
   * Resolves to false, still serving the previous build, when the new one cannot be loaded.
   */
  reload(reason?: string): Promise<boolean>;
}

/**
 * `astro build` into distDir, in a child process. A signal meant for the service while it builds (a process manager
 * stopping it, a second Ctrl-C) is passed on to the build and awaited: the service is not listening yet, and a build
 * left running on its own would go on writing into the folder after the service has gone.
 */
async function buildOnce(distDir: string): Promise<{ status: number | null; stoppedBy?: NodeJS.Signals }> {
  const child = spawn(process.execPath, [resolve('node_modules/astro/bin/astro.mjs'), 'build'], {
    stdio: 'inherit',
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ASTRO_OUT_DIR: resolve(distDir) },
  });
  let stoppedBy: NodeJS.Signals | undefined;
  const pass = (signal: NodeJS.Signals) => {
    stoppedBy ??= signal;
    child.kill(signal);
  };
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
  for (const signal of signals) process.on(signal, pass);
  try {
    const status = await new Promise<number | null>((done, fail) => {
      child.once('error', fail);
      child.once('exit', (code) => done(code));
    });
    return { status, ...(stoppedBy ? { stoppedBy } : {}) };
  } finally {
    for (const signal of signals) process.off(signal, pass);
  }
}

/** An HTTP method token (RFC 9110 §5.6.2's tchar) at the start of a request line, followed by its space. */
const METHOD_TOKEN = /^[!#-'*+.^`|~\w-]+(?= )/;

/**
 * What a request node:http could not parse is told (RFC 9110): a request line alone over half the header budget is
 * a URL too long (414), the rest of an overflow is the headers (431); a method llhttp does not know (`FOO`, or `get`:
 * methods are case-sensitive) is one this server does not implement (501), not a malformed request.
 */
export function clientErrorAnswer(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, headersTimeoutMs: number): [string, ErrorCode, string] {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const raw = err.rawPacket;
    const lineEnd = raw?.indexOf('\r\n') ?? -1;
    const inRequestLine = raw !== undefined && METHOD_TOKEN.test(raw.subarray(0, 32).toString('latin1')) && (lineEnd < 0 || lineEnd > maxHeaderSize / 2);
    return inRequestLine
      ? ['414 URI Too Long', 'uri_too_long', `The URL is too long: keep the request line under ${Math.floor(maxHeaderSize / 2 / 1024)} KB (send a long query to POST /ask as a JSON body).`]
      : ['431 Request Header Fields Too Large', 'invalid_request', `The request line and headers are too large: over ${Math.floor(maxHeaderSize / 1024)} KB together.`];
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ['408 Request Timeout', 'request_timeout', `The request was not received in time (headers within ${headersTimeoutMs / 1000} s).`];
  // (Only a method token followed by its space is a method; `GET` alone, or a line that starts with a space, is not.)
  // (Named only when it is short enough to be one: at most 24 characters.)
  const method = err.code === 'HPE_INVALID_METHOD' ? METHOD_TOKEN.exec(err.rawPacket?.subarray(0, 25).toString('latin1') ?? '')?.[0] : undefined;
  if (method) return ['501 Not Implemented', 'not_implemented', `The method ${method} is not implemented here (methods are case-sensitive): use GET, HEAD, POST or OPTIONS.`];
  return ['400 Bad Request', 'invalid_request', 'The request is not valid HTTP/1.1.'];
}

export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const config = options.config ?? readConfig();
  const log = options.log ?? createLogger(config.logLevel);
  const clientDir = resolve(config.distDir, 'client');

  const reason = buildReason(clientDir, config);
  const refused =
    reason &&
    buildRefusal(reason, {
      distDir: config.distDir,
      contentDir: config.vars.CONTENT_DIR || 'content',
      named: Boolean(config.vars.DIST_DIR),
      siteUrl: config.vars.SITE_URL,
    });
  if (refused) throw new Error(refused);
  if (reason) {
    log.info(`${reason}; building first`, { dir: clientDir });
    log.flush();
    const result = await buildOnce(config.distDir);
    if (result.stoppedBy) throw new Error(`stopped by ${result.stoppedBy} during the build, which was stopped too`);
    if (result.status !== 0) throw new Error(`the build failed (exit code ${result.status})`);
  }

  // One shared store for the rate-limit budget and single-use state (OAuth codes, revocations, registrations).
  const { limiter, singleUse } = await sharedStores(config, log);

  // Says at start which token key is in use (and warns when it is a temporary one), not at the first token.
  await prepareSigningKey(config, log).catch(() => {
    // Already logged with what to fix; token endpoints answer 500 until the key is fixed, reads are unaffected.
  });

  /**
   * One build, in memory, with the pipeline over it. The rate-limit store, signing keys and logger are the
   * process's and carry over; the files, the documents parsed from them and their search index are the build's.
   */
  const loadBuild = async (generation: number) => {
    const store = loadStaticStore(clientDir, { maxBytes: config.staticCacheMb * 2 ** 20 });
    // A reload refuses a folder caught mid-build (astro empties it first) and keeps the build it has.
    for (const required of generation ? ['/episodes.json', '/service.json'] : []) {
      if (!store.get(required)) throw new Error(`${clientDir} has no ${required}: not a complete build`);
    }
    const data = dataStoreOver(store);
    const fallback = loadAstroFallback(resolve(config.distDir), generation, (err) => {
      log.warn('Astro server handler could not be loaded; pages not prerendered will answer 404', { error: err.message });
    });
    const serveStatic = createStaticResponder(store);
    const app = createApp({
      env: config,
      data,
      log,
      routes: options.routes,
      serveStatic,
      cdnServed: (path) => store.cdnServed(path),
      fallback,
      notFoundPage: (request) => serveStatic.notFoundPage(request),
      rateLimit: { store: limiter },
      singleUse,
    });
    return { app, store, fallback };
  };
  let generation = 0;
  /** The build new requests are answered from; a request keeps the one it started with. */
  let current = await loadBuild(generation);

  const inFlight = new Set<AbortController>();
  let shuttingDown = false;
  /** Every open connection: requests in progress on it, and when it last finished one (see shutdown). */
  const connections = new Connections<Socket>(idleGrace(config.shutdownTimeoutMs));
  const fallbackHost = `${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  // Returns the memory V8 keeps after a burst of requests once the server goes quiet (idle-gc.ts); npm start
  // passes --expose-gc, without which there is none.
  const collection = exposedCollection();
  const collector = collection
    ? idleCollector({
        idleMs: config.idleGcMs,
        busy: () => inFlight.size > 0,
        collect: () => {
          const started = performance.now();
          const before = process.memoryUsage.rss();
          collection();
          log.info('idle collection', { duration_ms: Math.round(performance.now() - started), rss_before: before, rss_after: process.memoryUsage.rss() });
        },
      })
    : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const controller = new AbortController();
    inFlight.add(controller);
    collector?.activity();
    const socket = req.socket;
    connections.began(socket);
    res.once('close', () => {
      inFlight.delete(controller);
      collector?.activity();
      if (!res.writableFinished) controller.abort();
      connections.ended(socket);
    });
    let response: Response;
    let refused = false;
    try {
      checkFraming(req);
      const request = toRequest(req, { fallbackHost, trustProxy: config.trustProxy, trustProxyHeader: config.trustProxyHeader, writeContinue: () => res.writeContinue() });
      const { app } = current;
      response = await app.fetch(request, { clientIp: req.socket.remoteAddress ?? '', signal: controller.signal });
    } catch (err) {
      // Only a request too malformed to become a Request gets here: the pipeline itself never throws.
      if (err instanceof MethodNotAllowedError) {
        response = current.app.refuseMethod(req.method ?? '', req.url ?? '/');
      } else if (err instanceof BadRequestError) {
        response = errorResponse(err.code, { message: err.message, hint: err.hint });
        refused = true;
      } else {
        log.error('request could not be handled', { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        response = errorResponse('internal_error');
      }
      response.headers.set('X-Content-Type-Options', 'nosniff');
      log.info('request', { method: req.method, path: null, status: response.status, duration_ms: 0, ip: req.socket.remoteAddress });
    }
    if (res.headersSent || res.destroyed) {
      // The client went away while the answer was being made: it has nowhere to go.
      void response.body?.cancel().catch(() => {});
      return;
    }
    // While shutting down, no connection is kept for another request; nor after a request framed badly.
    await writeResponse(req, res, response, { close: shuttingDown || refused });
  };

  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: Math.max(30_000, config.headersTimeoutMs),
      // Node checks both timeouts on this interval (30 s by default, which let slow headers run 27 s past 10):
      // checking four times per timeout cuts a slow client within a quarter of it past the configured value.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))),
    },
    (req, res) => void handle(req, res),
  );
  server.on('connection', (socket: Socket) => {
    connections.opened(socket);
    socket.once('close', () => connections.closed(socket));
  });
  // CONNECT never reaches the request handler (node:http hands over the raw socket): answer it, then close,
  // rather than drop the connection without a word. This is not a proxy.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    const response = current.app.refuseMethod('CONNECT', req.url ?? '');
    void response.text().then((body) => {
      const head = [`HTTP/1.1 405 Method Not Allowed`, 'Connection: close', 'X-Content-Type-Options: nosniff', `Content-Length: ${Buffer.byteLength(body)}`];
      response.headers.forEach((value, name) => head.push(`${name}: ${value}`));
      if (socket.writable) socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
      else socket.destroy();
      log.info('request', { method: 'CONNECT', path: null, status: 405, duration_ms: 0, ip: req.socket.remoteAddress });
    });
  });
  // An Expect other than 100-continue: node:http would answer a bare 417 of its own, outside the pipeline (no
  // envelope, no rate limit). RFC 9110 §10.1.1 lets a server ignore an expectation it does not know, so the request
  // is served as if it had none, like every other request.
  server.on('checkExpectation', (req, res) => void handle(req, res));
  // Expect: 100-continue. node:http would send 100 Continue at once, inviting a body that a 413, 415 or 429 then
  // refuses; the pipeline sends it when a handler first reads the body (toRequest's writeContinue).
  server.on('checkContinue', (req, res) => void handle(req, res));
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    // Unparseable HTTP (bad request line, oversized headers) or too slow (headers not complete within
    // HEADERS_TIMEOUT_MS, the whole request within its deadline): answered in the contract's envelope, then closed.
    if (socket.writable && !socket.writableEnded) {
      const [status, code, message] = clientErrorAnswer(err, config.headersTimeoutMs);
      const body = JSON.stringify({ error: { code, message } });
      socket.end(
        `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      log.info('request', { method: null, path: null, status: Number(status.slice(0, 3)), error: err.code, ip: (socket as Socket).remoteAddress });
    } else socket.destroy();
  });

  await new Promise<void>((done, fail) => {
    // The socket's error ("getaddrinfo ENOTFOUND x", "EADDRINUSE") names neither setting that chose the address.
    const refused = (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'the port is in use' : err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN' ? 'HOST is not an address or a name of this machine' : err.message;
      fail(new Error(`cannot listen on HOST=${config.host} PORT=${config.port}: ${why} (${err.code ?? err.message})`));
    };
    server.once('error', refused);
    server.listen(config.port, config.host, () => {
      server.off('error', refused);
      done();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}/`;
  log.info('listening', { url, pid: process.pid, files: current.store.files.size, rateLimit: `${config.rateLimitMax}/${config.rateLimitWindowMs}ms`, store: config.redisUrl ? 'redis' : 'memory', astroFallback: Boolean(current.fallback) });

  let reloading: Promise<boolean> | undefined;
  const reload = (reason = 'reload') => {
    // Signals that arrive while a reload runs share it: the files it reads are the newest anyway.
    reloading ??= (async () => {
      const started = performance.now();
      try {
        const next = await loadBuild(++generation);
        current = next;
        log.info('reloaded', { reason, files: next.store.files.size, duration_ms: Math.round(performance.now() - started) });
        return true;
      } catch (err) {
        log.error('reload failed; still serving the previous build', { reason, error: (err as Error).message });
        return false;
      } finally {
        reloading = undefined;
      }
    })();
    return reloading;
  };

  /**
   * Graceful shutdown, as a careful proxy drains: stop accepting connections, answer every request in flight or
   * still arriving with `Connection: close`, and close a keep-alive connection only once it is done. http.Server's
   * own close() would also drop idle keep-alive connections at once, and a client writing its next request on one
   * at that moment gets a reset; here an idle connection gets a grace (IDLE_GRACE_MS, counted from the later
   * of its last answer and the start of the shutdown) to send one, which is answered with Connection: close, before
   * it is closed with a FIN. At the deadline, whatever is left is cut.
   *
   * Nor does the listener close at once: connections waiting in its backlog would be reset (a client sees ECONNRESET
   * on a request it has sent), so it stays open until they are taken (connections.ts listenerDone, at most the same
   * grace); what it takes meanwhile is answered with Connection: close like the rest.
   */
  let stopping: Promise<void> | undefined;
  const shutdown = (reason = 'shutdown') => {
    stopping ??= (async () => {
      shuttingDown = true;
      collector?.stop();
      const since = performance.now();
      const open = connections.size;
      log.info('shutting down', { reason, inFlight: inFlight.size, connections: open });
      let listening = true;
      let onClosed!: () => void;
      const closed = new Promise<void>((done) => (onClosed = done));
      const acceptedAtSignal = connections.accepted;
      // net.Server's close: stop listening, leave open connections to drain (not http.Server's, see above).
      const stopListening = () => {
        listening = false;
        NetServer.prototype.close.call(server, () => onClosed());
        log.info('stopped listening', { acceptedWhileShuttingDown: connections.accepted - acceptedAtSignal });
      };
      let closedIdle = 0;
      const closeIdle = () => {
        if (listening && connections.listenerDone(since)) stopListening();
        for (const socket of connections.idle(since)) {
          closedIdle++;
          socket.end();
          setTimeout(() => socket.destroy(), 1_000).unref();
        }
      };
      closeIdle();
      const drain = setInterval(closeIdle, DRAIN_CHECK_MS);
      let forced = 0;
      const force = setTimeout(() => {
        forced = connections.size;
        log.warn('requests still in flight at the shutdown deadline; closing them', { inFlight: inFlight.size, connections: forced });
        for (const controller of inFlight) controller.abort();
        if (listening) stopListening();
        server.closeAllConnections();
        for (const socket of connections.keys()) socket.destroy();
      }, config.shutdownTimeoutMs);
      await closed;
      clearInterval(drain);
      clearTimeout(force);
      await limiter.close?.();
      log.info('stopped', { reason, connections: open, closedIdle, forced });
      log.flush();
    })();
    return stopping;
  };

  return { server, url, config, log, shutdown, reload };
}

/** Runs the service until SIGTERM or SIGINT; a second signal exits at once. */
export async function main(options: ServiceOptions = {}): Promise<void> {
  exitOnArgs('npm start', `Usage: npm start [-- --help]\n\nServes the built podcast site and its API on one port.\n\n${ENV_HELP}`);
  let service: Service;
  // A SIGHUP while starting (a deploy script's `npm run build && kill -HUP`) would otherwise end the process, as
  // Node does by default: it is kept, and the build taken up again once listening.
  let hupWhileStarting = false;
  const hupEarly = () => {
    hupWhileStarting = true;
  };
  process.on('SIGHUP', hupEarly);
  try {
    service = await startService(options);
  } catch (err) {
    console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'could not start', error: (err as Error).message }));
    process.exit(1);
  }
  const { log } = service;
  // A failure outside any request (a timer in a handler, a dropped promise) is logged; the process goes on
  // serving rather than dropping every other request with it.
  process.on('unhandledRejection', (reason) => log.error('unhandled rejection', { error: reason instanceof Error ? (reason.stack ?? reason.message) : String(reason) }));
  process.on('uncaughtException', (err) => log.error('uncaught exception', { error: err.stack ?? err.message }));
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) {
      log.warn('second signal: exiting now', { signal });
      log.flush();
      process.exit(1);
    }
    void service.shutdown(signal).then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // After `npm run build` into the folder being served: take up the new build without dropping a request.
  process.on('SIGHUP', () => void service.reload('SIGHUP'));
  process.off('SIGHUP', hupEarly);
  if (hupWhileStarting) void service.reload('SIGHUP while starting');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

/**
 * Why `npm start` must build before serving, or undefined. Besides a missing build, an editor's change to content/
 * or public/ after the last build is caught for the default build folder, so `npm start` never serves stale episodes.
 * An explicit DIST_DIR (tests, deployments) is served as it is.
 */
function buildReason(clientDir: string, config: ServerConfig): string | undefined {
  const marker = join(clientDir, 'episodes.json');
  if (!existsSync(marker)) return 'no build output found';
  // Every absolute URL in the build (feed, documents, pages) was made from the site address it was built for.
  const otherSettings = builtForOtherSettings(clientDir, config.vars);
  if (otherSettings) return otherSettings;
  if (config.vars.DIST_DIR) return undefined;
  // Served as it is, an output of another version would be refused at start (readManifest says why).
  const version = manifestVersion(clientDir);
  if (version !== MANIFEST_VERSION) return `the build output was made by another version of the service (manifest version ${version ?? 'unknown'}, not ${MANIFEST_VERSION})`;
  const builtAt = statSync(marker).mtimeMs;
  const newest = (dir: string): number => {
    if (!existsSync(dir)) return 0;
    let latest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
    }
    return latest;
  };
  const contentDir = config.vars.CONTENT_DIR || 'content';
  return Math.max(newest(resolve(contentDir)), newest(resolve('public'))) > builtAt ? 'content changed since the last build' : undefined;
}

