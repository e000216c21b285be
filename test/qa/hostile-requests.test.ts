/**
 * QA regressions found by probing the running server with hostile requests: methods that fetch's Request cannot
 * represent (TRACE, TRACK, CONNECT), a Host header that is syntactically plausible but not a valid authority, and
 * Astro's own internal routes (/_server-islands/*) answering errors outside the contract's envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { startHost, type HostName } from '../helpers/hosts.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { raw, rawBody, rawSocket } from '../pipeline/util.ts';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
});
afterAll(() => server?.stop());


const header = (text: string, name: string) => new RegExp(`\\r\\n${name}: ([^\\r]*)`, 'i').exec(text)?.[1];

// On both hosts that parse HTTP themselves (the Cloudflare preview's framing is wrangler's and workerd's: a Host it
// cannot parse gets their own 500 before the Worker runs).
describe.each(['node', 'bun'] satisfies HostName[])('%s host', (host) => {
  let hostServer: RunningServer;
  beforeAll(async () => {
    hostServer = host === 'node' ? server : await startHost(host, { distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
  });
  afterAll(() => (host === 'node' ? undefined : hostServer?.stop()));

  describe('methods a Web Request cannot carry', () => {
    // (TRACK, lowercase and unknown methods never get this far: Node's HTTP parser answers them a bare 400.)
    for (const method of ['TRACE']) {
      it(`${method} is a 405 method_not_allowed envelope with Allow, not a 400 about the request target`, async () => {
        const res = await rawSocket(hostServer.port, `${method} /status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
        expect(res.status).toBe(405);
        expect(header(res.text, 'allow')).toMatch(/\bGET\b/);
        const body = ErrorEnvelopeSchema.parse(JSON.parse(rawBody(res.text)));
        expect(body.error.code).toBe('method_not_allowed');
      });
    }

    it('CONNECT is answered with a 405 envelope instead of a silently dropped connection', async () => {
      const res = await rawSocket(hostServer.port, 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n');
      expect(res.status).toBe(405);
      expect(header(res.text, 'allow')).toBeTruthy();
      expect(ErrorEnvelopeSchema.parse(JSON.parse(rawBody(res.text))).error.code).toBe('method_not_allowed');
    });
  });

  describe('Host header', () => {
    it('a Host that is no valid authority (or none, on HTTP/1.0) falls back to the server address instead of failing the request', async () => {
      const requests = [
        ...['example.com:99999', '[::1:::]', '', 'a b', 'a%b'].map((value) => `GET /status HTTP/1.1\r\nHost: ${value}\r\nConnection: close\r\n\r\n`),
        'GET /status HTTP/1.0\r\n\r\n',
      ];
      for (const request of requests) {
        const res = await rawSocket(hostServer.port, request);
        expect(res.status, request).toBe(200);
        expect(JSON.parse(rawBody(res.text)).status).toBe('ok');
        expect(header(res.text, 'x-ratelimit-limit'), request).toBe('100000');
      }
    });
  });
});

describe("Astro's internal routes", () => {
  const cases: Array<{ method: string; path: string; headers?: Record<string, string> }> = [
    { method: 'GET', path: '/_server-islands/x' },
    { method: 'GET', path: '/_server-islands/x?e=1&p=2&s=3' },
    { method: 'POST', path: '/_server-islands/x', headers: { 'content-type': 'application/json' } },
    { method: 'DELETE', path: '/_server-islands/x' },
    { method: 'PATCH', path: '/_server-islands/x' },
    { method: 'OPTIONS', path: '/_server-islands/x' },
  ];
  for (const c of cases) {
    it(`${c.method} ${c.path} answers an error in the contract's envelope`, async () => {
      const res = await raw(server.url, c.path, { method: c.method, headers: { accept: 'application/json', ...c.headers }, body: c.method === 'GET' ? undefined : '{}' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      const body = ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString()));
      expect(body.error.code).toMatch(/^[a-z_]+$/);
      if (res.status === 405) expect(res.headers.allow).toBeTruthy();
      expect(res.headers['x-ratelimit-limit']).toBe('100000');
    });
  }

  it('a server island that does not exist is a 404 not_found for an API client', async () => {
    const res = await raw(server.url, '/_server-islands/x?e=1&p=2&s=3', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString())).error.code).toBe('not_found');
  });
});
