/** Small clients for the pipeline tests: raw bytes over node:http, raw request lines over node:net, log waits. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer } from 'node:net';
import type { RunningServer } from '../helpers/server.ts';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose answer is not decompressed or otherwise touched (fetch would decode gzip/br). */
export function raw(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = { ...init.headers };
    if (init.body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
      headers['content-length'] = String(Buffer.byteLength(init.body));
    }
    const req = httpRequest(`${base}${path}`, { method: init.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Sends bytes exactly as given (no client-side path normalisation) and returns the status and the whole answer. */
export function rawSocket(port: number, text: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write(text));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(all)?.[1] ?? 0), text: all });
    });
  });
}

export type LogEntry = Record<string, unknown>;

export function logEntries(server: RunningServer): LogEntry[] {
  return server.logs.filter((l): l is LogEntry => typeof l === 'object' && l !== null);
}

/**
 * Resolves with the first log entry (from index `from` on) that matches, checking again whenever the server
 * writes output; rejects after timeoutMs.
 */
export function waitForLog(server: RunningServer, match: (e: LogEntry) => boolean, from = 0, timeoutMs = 15_000): Promise<LogEntry> {
  const find = () => server.logs.slice(from).find((l): l is LogEntry => typeof l === 'object' && l !== null && match(l));
  const now = find();
  if (now) return Promise.resolve(now);
  const streams = [server.process.stdout!, server.process.stderr!];
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      for (const s of streams) s.off('data', check);
    };
    // The helper's line reader was attached first, so by the time this runs the new lines are in server.logs.
    const check = () =>
      setImmediate(() => {
        const hit = find();
        if (hit) {
          done();
          resolve(hit);
        }
      });
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no matching log line within ${timeoutMs} ms; last lines:\n${server.logs.slice(-10).map((l) => JSON.stringify(l)).join('\n')}`));
    }, timeoutMs);
    for (const s of streams) s.on('data', check);
  });
}

/**
 * A port nobody listens on right now, for servers that need a number up front and may be restarted on it (Redis,
 * astro dev, the bench's inspector). Chosen below the system's ephemeral range (Linux: 32768-60999), which every
 * `listen(0)` and every outgoing connection draws from: a port probed free there could be handed to another test's
 * socket before the server binds it (a CI run once lost the Cloudflare preview so, when it still took a number).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
    if (attempt === 50) throw new Error('no free port below the ephemeral range after 50 tries');
  }
}

/** The body of a raw HTTP/1.1 answer (chunked or not). */
export function rawBody(text: string): string {
  const [head, ...rest] = text.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  if (!/\r\ntransfer-encoding: chunked/i.test(head!)) return body;
  let out = '';
  let i = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', i);
    const size = Number.parseInt(body.slice(i, eol), 16);
    if (!size) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
}
