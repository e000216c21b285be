/**
 * `npm start`: one Node process serving the built site and the API through the pipeline in functions/.
 * Builds first when there is no build output.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Readable } from 'node:stream';
import { createApp } from '../../functions/app.ts';
import { DataStore } from '../../functions/data.ts';
import { ENV_HELP, readConfig } from './config.ts';
import { createLogger } from './log.ts';
import { loadStaticStore, type StaticFile } from './static-store.ts';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`Usage: npm start [-- --help]\n\nServes the built podcast site and its API.\n\n${ENV_HELP}`);
  process.exit(0);
}

const config = readConfig();
const log = createLogger(config.logLevel);
const clientDir = resolve(config.distDir, 'client');

if (!existsSync(join(clientDir, 'episodes.json'))) {
  log.info('no build output found; building first', { dir: clientDir });
  const result = spawnSync(process.execPath, [resolve('node_modules/astro/bin/astro.mjs'), 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const files = loadStaticStore(clientDir);
const lookup = (pathname: string): StaticFile | undefined =>
  files.get(pathname) ?? files.get(`${pathname.replace(/\/$/, '')}/index.html`);

const data = new DataStore(async (path) => {
  const file = files.get(path);
  return file ? new Response(file.body, { headers: { 'Content-Type': file.type } }) : new Response(null, { status: 404 });
});

const app = createApp({
  env: config,
  data,
  log,
  serveStatic: (request, ctx) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const file = lookup(decodeURIComponent(ctx.url.pathname));
    if (!file) return undefined;
    return new Response(request.method === 'HEAD' ? null : file.body, {
      headers: { 'Content-Type': file.type, ETag: file.etag, 'Last-Modified': file.lastModified },
    });
  },
});

const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
  const controller = new AbortController();
  res.on('close', () => controller.abort());
  const host = req.headers.host ?? `${config.host}:${config.port}`;
  const method = req.method ?? 'GET';
  const request = new Request(`http://${host}${req.url ?? '/'}`, {
    method,
    headers: req.headers as Record<string, string>,
    body: method === 'GET' || method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream),
    duplex: 'half',
    signal: controller.signal,
  } as RequestInit);
  const response = await app.fetch(request, { clientIp: req.socket.remoteAddress ?? 'unknown', signal: controller.signal });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) return res.end();
  Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
});

server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info('listening', { url: `http://${config.host}:${port}/` });
});
