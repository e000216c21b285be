/**
 * Request framing as a careful reverse proxy does it (RFC 9112, nginx): absolute URLs in answers come from the
 * configured site URL and never from the Host header; a duplicate Host or a request line claiming another HTTP
 * version is 400; a client that does not finish its headers is cut at HEADERS_TIMEOUT_MS with 408. Each answer is
 * the contract's envelope, and the connection is closed after a refused request.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { connect } from 'node:net';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { rawBody, rawSocket } from '../pipeline/util.ts';

const HEADERS_TIMEOUT_MS = 1_000;
let server: RunningServer;
let site: string;

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000', HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) } });
  site = String(((await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as { issuer: string }).issuer);
});
afterAll(() => server?.stop());


const envelopeOf = (text: string) => ErrorEnvelopeSchema.parse(JSON.parse(rawBody(text))).error;

describe('hints and links come from the site URL, never from Host', () => {
  const hostile = ['evil.example', 'evil.example:8080', '127.0.0.1.evil.example', 'EVIL.EXAMPLE'];
  const requests = [
    (host: string) => `GET /nope HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
    (host: string) => `GET /api/search HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    (host: string) => `GET /ask?q= HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    (host: string) => `GET /agent/auth HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    (host: string) => `GET /mcp HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`,
    (host: string) => `GET /oauth/register HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    (host: string) => `GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    (host: string) => `GET /mcp HTTP/1.1\r\nHost: ${host}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
  ];
  it('no answer echoes a hostile Host header, and error hints name the configured site', async () => {
    for (const host of hostile) {
      for (const make of requests) {
        const text = make(host);
        const res = await rawSocket(server.port, text);
        expect(res.status, text).toBeGreaterThan(0);
        expect(res.status, text).toBeLessThan(500);
        expect(res.text.toLowerCase(), text).not.toContain('evil.example');
        if (res.status >= 400) expect(envelopeOf(res.text).hint ?? '', text).not.toMatch(/evil/i);
      }
    }
    const res = await rawSocket(server.port, requests[0]!('evil.example'));
    expect(envelopeOf(res.text).hint).toBe(`See ${site}/docs.md for the service's addresses.`);
  });
});

describe('framing', () => {
  it('answers two Host headers with 400 and closes the connection', async () => {
    for (const hosts of [['a.example', 'b.example'], ['a.example', 'a.example'], ['a.example', '']]) {
      const res = await rawSocket(server.port, `GET /status HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}`).join('\r\n')}\r\n\r\n`);
      expect(res.status, hosts.join(',')).toBe(400);
      expect(res.text).toMatch(/\r\nconnection: close\r\n/i);
      expect(envelopeOf(res.text).code).toBe('invalid_request');
    }
  });

  it('answers a request line that is not HTTP/1.0 or HTTP/1.1 with 400', async () => {
    for (const version of ['HTTP/2.0', 'HTTP/1.2', 'HTTP/3.0', 'HTTP/0.9', 'HTTP/9.9', 'HTTP/1.10', 'http/1.1']) {
      const res = await rawSocket(server.port, `GET /status ${version}\r\nHost: a.example\r\n\r\n`);
      expect(res.status, version).toBe(400);
      if (rawBody(res.text)) expect(['invalid_request']).toContain(envelopeOf(res.text).code);
    }
    for (const version of ['HTTP/1.1', 'HTTP/1.0']) {
      const res = await rawSocket(server.port, `GET /status ${version}\r\nHost: a.example\r\nConnection: close\r\n\r\n`);
      expect(res.status, version).toBe(200);
    }
  });

  it('refuses header injection, obs-fold, bare LF, conflicting lengths and smuggling shapes with 400, never 5xx', async () => {
    const cases = [
      'GET /status HTTP/1.1\r\nHost: a\r\nX: a\r\n b\r\n\r\n',
      'GET /status HTTP/1.1\r\nHost: a\nX-Injected: 1\r\n\r\n',
      'POST /ask HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!',
      'POST /ask HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'POST /ask HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n',
      'POST /ask HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n',
      'GET /status HTTP/1.1\r\nHost: a\r\nX\u0000: 1\r\n\r\n',
      'GET /st atus HTTP/1.1\r\nHost: a\r\n\r\n',
      'GET /status HTTP/1.1\r\n\r\n',
    ];
    for (const text of cases) {
      const started = performance.now();
      const res = await rawSocket(server.port, text);
      expect(res.status, JSON.stringify(text)).toBe(400);
      // Refused at once, not left to time out.
      expect(performance.now() - started, JSON.stringify(text)).toBeLessThan(HEADERS_TIMEOUT_MS / 2);
    }
    // A Host that is no valid authority falls back to the configured address (test/qa/hostile-requests.test.ts).
    expect((await rawSocket(server.port, 'GET /status HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n')).status).toBe(200);
  });
});

describe('what node:http cannot parse', () => {
  it('a URL over half the header budget is 414, oversized headers 431, each in the envelope', async () => {
    const long = await rawSocket(server.port, `GET /api/search?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(long.status).toBe(414);
    expect(envelopeOf(long.text).code).toBe('uri_too_long');
    expect(envelopeOf(long.text).message).toMatch(/POST \/ask/);
    const headers = await rawSocket(server.port, `GET /status HTTP/1.1\r\nHost: a\r\nCookie: a=${'b'.repeat(17_000)}\r\n\r\n`);
    expect(headers.status).toBe(431);
    expect(envelopeOf(headers.text).code).toBe('invalid_request');
  });

  it('a method the server does not know is 501 not_implemented naming it; methods are case-sensitive', async () => {
    for (const method of ['FOO', 'get', 'BREW']) {
      const res = await rawSocket(server.port, `${method} /status HTTP/1.1\r\nHost: a\r\n\r\n`);
      expect(res.status, method).toBe(501);
      expect(res.text).toMatch(/\r\nconnection: close\r\n/i);
      const error = envelopeOf(res.text);
      expect(error.code).toBe('not_implemented');
      expect(error.message).toContain(method);
    }
  });
});

describe('Expect: 100-continue', () => {
  /** Sends the head, resolves with the first bytes the server writes back; `then` sends more on the same socket. */
  function exchange(head: string) {
    const socket = connect(server.port, '127.0.0.1');
    let all = '';
    const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(all)));
    const first = new Promise<string>((resolve, reject) => {
      socket.once('data', (chunk) => resolve(chunk.toString('latin1')));
      socket.once('error', reject);
    });
    socket.on('data', (chunk) => (all += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.write(head);
    return { first, closed, send: (bytes: string) => socket.write(bytes) };
  }

  it('invites the body only when a handler reads it, then answers', async () => {
    const body = JSON.stringify({ query: 'sourdough' });
    const ask = exchange(`POST /ask HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    expect(await ask.first).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    ask.send(body);
    const text = await ask.closed;
    expect(text).toMatch(/\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(JSON.parse(rawBody(text.slice(text.indexOf('\r\n\r\n') + 4))).results.length).toBeGreaterThan(0);
  });

  it('answers a body it will refuse at once, without 100 Continue, and closes the connection', async () => {
    const cases: Array<[string, number]> = [
      ['POST /ask HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n', 413],
      ['POST /ask HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n', 413],
      ['POST /ask HTTP/1.1\r\nHost: a\r\nContent-Type: text/csv\r\nContent-Length: 20\r\n', 400],
      ['POST /episodes.json HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 20\r\n', 405],
    ];
    for (const [head, status] of cases) {
      const refused = exchange(`${head}Expect: 100-continue\r\n\r\n`);
      expect(await refused.first, head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      const text = await refused.closed;
      expect(text, head).not.toContain('100 Continue');
      expect(text, head).toMatch(/\r\nconnection: close\r\n/i);
    }
  });
});

describe('slow clients', () => {
  it('cuts a client whose headers are not complete within HEADERS_TIMEOUT_MS, with 408 and the envelope', async () => {
    const started = performance.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('connect', () => socket.write('GET /status HTTP/1.1\r\nHost: a.example\r\nX-Slow: '));
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    });
    const elapsed = performance.now() - started;
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(envelopeOf(text).code).toBe('request_timeout');
    expect(elapsed).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    // Checked four times per timeout: cut within a quarter past it (plus scheduling slack on a busy machine).
    expect(elapsed).toBeLessThan(HEADERS_TIMEOUT_MS * 1.25 + 750);
  });

  it('keeps trickling headers from extending the deadline', async () => {
    const started = performance.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      let timer: ReturnType<typeof setInterval> | undefined;
      socket.on('connect', () => {
        socket.write('GET /status HTTP/1.1\r\nHost: a.example\r\n');
        timer = setInterval(() => socket.writable && socket.write('X-Drip: 1\r\n'), 100);
      });
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        clearInterval(timer);
        resolve(Buffer.concat(chunks).toString('latin1'));
      });
    });
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(performance.now() - started).toBeLessThan(HEADERS_TIMEOUT_MS * 1.25 + 750);
  });

  it('answers a body that stops arriving with 408 request_timeout after 10 s, and closes the connection', async () => {
    const started = performance.now();
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('connect', () => socket.write('POST /ask HTTP/1.1\r\nHost: a.example\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":'));
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    });
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(envelopeOf(text).code).toBe('request_timeout');
    expect(performance.now() - started).toBeGreaterThanOrEqual(9_900);
  }, 20_000);

  it('still answers well-behaved clients meanwhile', async () => {
    expect((await fetch(`${server.url}/status`)).status).toBe(200);
  });
});
