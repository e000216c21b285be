/**
 * Bad input and failures through the real server (with the test routes of fixtures/server.ts): body limits,
 * content types, malformed JSON, a handler that throws, the access log, and a graceful shutdown that lets a
 * request in flight finish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { SERVICE_ENV_NAMES } from '../../functions/env.ts';
import { logEntries, raw, waitForLog } from './util.ts';

const FIXTURE = 'test/pipeline/fixtures/server.ts';
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), entry: FIXTURE, env: { RATE_LIMIT_MAX: '100000', RESPONSE_TIMEOUT_MS: '1000' } });
});
afterAll(() => server?.stop());

const envelope = (body: Buffer) => ErrorEnvelopeSchema.parse(JSON.parse(body.toString()));

describe('request bodies', () => {
  it('echoes a valid JSON body (control)', async () => {
    const res = await raw(server.url, '/__test/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"bread"}' });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ received: { query: 'bread' } });
  });

  it('413 for a body over 64 KB, declared or streamed', async () => {
    const big = JSON.stringify({ query: 'x'.repeat(70 * 1024) });
    const declared = await raw(server.url, '/__test/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(envelope(declared.body).error.code).toBe('payload_too_large');
    expect(declared.headers['x-ratelimit-limit']).toBe('100000');

    // Chunked, with no Content-Length: the limit is enforced while reading.
    const streamed = await new Promise<{ status: number; body: Buffer }>((done, fail) => {
      const req = httpRequest(`${server.url}/__test/json`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      });
      req.on('error', fail);
      for (let i = 0; i < 8; i++) req.write('x'.repeat(10 * 1024));
      req.end();
    });
    expect(streamed.status).toBe(413);
    expect(envelope(streamed.body).error.code).toBe('payload_too_large');
  });

  it('400 invalid_body (the contract: a bad body is 400) for a JSON endpoint sent another content type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const res = await raw(server.url, '/__test/json', { method: 'POST', headers: type ? { 'content-type': type } : {}, body: '{"query":"x"}' });
      expect(res.status, String(type)).toBe(400);
      const body = envelope(res.body);
      expect(body.error.code).toBe('invalid_body');
      expect(body.error.hint).toContain('application/json');
    }
  });

  it('400 for malformed JSON', async () => {
    for (const text of ['{"query":', 'not json', '']) {
      const res = await raw(server.url, '/__test/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      expect(res.status, text).toBe(400);
      expect(envelope(res.body).error.code).toBe('invalid_json');
    }
  });

  it('405 with Allow on a route that only takes POST, and the preflight names POST', async () => {
    const res = await raw(server.url, '/__test/json');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST, OPTIONS');
    expect(envelope(res.body).error.code).toBe('method_not_allowed');
    const preflight = await raw(server.url, '/__test/json', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type');
  });

  it('routes without cors: true get no Access-Control-Allow-Origin', async () => {
    const res = await raw(server.url, '/__test/throw', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
  });
});

describe('a handler that throws', () => {
  it('is a 500 envelope without the cause in the body, logged with its stack, and the process goes on', async () => {
    const from = server.logs.length;
    const res = await raw(server.url, '/__test/throw');
    expect(res.status).toBe(500);
    const text = res.body.toString();
    const body = envelope(res.body);
    expect(body.error.code).toBe('internal_error');
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toMatch(/\bat .*\.ts:\d+/);
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const logged = await waitForLog(server, (e) => e.msg === 'unhandled error', from);
    expect(String(logged.error)).toContain('secret internal detail');
    expect(String(logged.error)).toContain('fixtures/server.ts');
    // Still serving.
    expect((await raw(server.url, '/episodes.json')).status).toBe(200);
  });
});

describe('a handler that never answers', () => {
  it('gets a 503 envelope at the deadline (RESPONSE_TIMEOUT_MS), its signal is aborted, and the process goes on', async () => {
    const from = server.logs.length;
    const res = await raw(server.url, '/__test/hang');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(envelope(res.body).error.code).toBe('unavailable');
    await waitForLog(server, (e) => e.msg === 'test hang aborted', from);
    await waitForLog(server, (e) => e.msg === 'no answer within the deadline' && e.path === '/__test/hang', from);
    expect((await raw(server.url, '/episodes.json')).status).toBe(200);
  });
});

describe('access log', () => {
  it('writes one JSON line per request: time, method, path (no query), status, duration, client IP', async () => {
    const from = server.logs.length;
    const missing = `/nothing-here-${Date.now()}`;
    await raw(server.url, '/llms.txt?q=private-search-words');
    await raw(server.url, missing, { method: 'HEAD' });
    const first = await waitForLog(server, (e) => e.msg === 'request' && e.path === '/llms.txt', from);
    const second = await waitForLog(server, (e) => e.msg === 'request' && e.path === missing, from);
    expect(first).toMatchObject({ level: 'info', method: 'GET', status: 200, ip: '127.0.0.1' });
    expect(second).toMatchObject({ method: 'HEAD', status: 404, ip: '127.0.0.1' });
    expect(new Date(String(first.time)).toISOString()).toBe(first.time);
    expect(typeof first.duration_ms).toBe('number');
    expect(JSON.stringify(logEntries(server).slice(from))).not.toContain('private-search-words');
    const lines = logEntries(server).slice(from).filter((e) => e.msg === 'request' && (e.path === '/llms.txt' || e.path === missing));
    expect(lines).toHaveLength(2);
  });
});

describe('--help', () => {
  it('lists the settings from the environment', () => {
    const out = spawnSync(process.execPath, [resolve('hosts/node/main.ts'), '--help'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    // The service's settings (one list, functions/env.ts) and the Node host's own.
    for (const name of [...SERVICE_ENV_NAMES, 'HOST', 'PORT', 'SHUTDOWN_TIMEOUT_MS']) {
      expect(out.stdout).toContain(name);
    }
  });
});

describe('an argument npm start does not take', () => {
  it('stops before listening, saying which environment variable to set instead', () => {
    const out = spawnSync(process.execPath, [resolve('hosts/node/main.ts'), '--port', '5000'], { encoding: 'utf8', env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('npm start takes no argument "--port": its settings come from the environment (PORT=5000 npm start)');
    expect(out.stdout).not.toContain('listening');
  });

  it('the same under npm run preview:cloudflare', () => {
    const out = spawnSync(process.execPath, [resolve('hosts/cloudflare/preview.ts'), '--port', '5000'], { encoding: 'utf8', env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('npm run preview:cloudflare takes no argument "--port": its settings come from the environment (PORT=5000 npm run preview:cloudflare)');
  });

  it('the same under npm run preview:bun', () => {
    const out = spawnSync(resolve('node_modules/.bin/bun'), [resolve('hosts/bun/serve.ts'), '--dist-dir=/srv/podcast'], { encoding: 'utf8', env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('npm run preview:bun takes no argument "--dist-dir=/srv/podcast": its settings come from the environment (DIST_DIR=/srv/podcast npm run preview:bun)');
  });
});

describe('settings npm start cannot use', () => {
  it('an address it cannot listen on is named by its settings, HOST and PORT, not only by the socket error', () => {
    const distDir = inject('distDir');
    const out = spawnSync(process.execPath, [resolve('hosts/node/main.ts')], { encoding: 'utf8', env: { ...process.env, PORT: '0', HOST: 'no-such-host.invalid', DIST_DIR: distDir, LOG_LEVEL: 'error' } });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('cannot listen on HOST=no-such-host.invalid PORT=0: HOST is not an address or a name of this machine (ENOTFOUND)');
  });

  it('a setting a typo made into another is refused at start, by name (REDIS_URL had failed as "Invalid URL")', () => {
    const out = spawnSync(process.execPath, [resolve('hosts/node/main.ts')], { encoding: 'utf8', env: { ...process.env, PORT: '0', HOST: '127.0.0.1', REDIS_URL: 'localhost:6379', DIST_DIR: inject('distDir') } });
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('REDIS_URL must be redis://host:port (or rediss:// for TLS), got \\"localhost:6379\\"');
  });
});

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting (once its backlog is taken), finishes the request in flight, then exits 0', async () => {
    const own = await startServer({ distDir: inject('distDir'), entry: FIXTURE });
    // A slow upload: headers and half the body now, the rest after the signal.
    const socket = connect(own.port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.write('POST /__test/slow-echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nhello');
    await waitForLog(own, (e) => e.msg === 'test route entered');

    const exited = own.stop('SIGTERM');
    await waitForLog(own, (e) => e.msg === 'shutting down');
    expect(logEntries(own).find((e) => e.msg === 'shutting down')?.inFlight).toBe(1);
    // No new connections once the listener has taken what waited in its backlog (test/qa/shutdown-load.test.ts).
    await waitForLog(own, (e) => e.msg === 'stopped listening');
    const refused = await new Promise<string>((done) => {
      const probe = connect(own.port, '127.0.0.1');
      probe.on('connect', () => {
        probe.destroy();
        done('connected');
      });
      probe.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');

    socket.write('world');
    await closed;
    const answer = Buffer.concat(received).toString();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('{"length":10}');
    expect(await exited).toBe(0);
    expect(logEntries(own).some((e) => e.msg === 'stopped')).toBe(true);
  });
});
