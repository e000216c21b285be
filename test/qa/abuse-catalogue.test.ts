/**
 * The standing hostile-input catalogue: what an attacker sends first, replayed on every `npm test` against the
 * real server. Path traversal in its encodings, oversized and malformed bodies, search-query syntax, methods,
 * byte ranges and header injection. Each case names the statuses the contract allows; every answer is checked
 * for the same invariants: never a 5xx, the JSON envelope with a known code on an error, no byte of a file outside
 * the build output, nothing injected into the response headers, no echo of a hostile Host. The whole catalogue runs
 * on every host the project supports (npm start, the Cloudflare preview in workerd, Bun), each serving the same build.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { RunningServer } from '../helpers/server.ts';
import { HOSTS, startHost } from '../helpers/hosts.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { ERROR_CODES } from '../../contract/errors.ts';
import { OAUTH_ERRORS } from '../../contract/oauth.ts';
import { logEntries } from '../pipeline/util.ts';

let server: RunningServer;
let audioPath: string;

interface Answer {
  status: number;
  head: string;
  headers: Map<string, string[]>;
  body: Buffer;
}

/** The head and the decoded body of one answer, once all of it is in `all` (Content-Length or chunked); or undefined. */
function parseAnswer(all: Buffer, bodiless: boolean, closed: boolean): Answer | undefined {
  const split = all.indexOf('\r\n\r\n');
  if (split < 0) return closed ? { status: 0, head: all.toString('latin1'), headers: new Map(), body: Buffer.alloc(0) } : undefined;
  const head = all.subarray(0, split).toString('latin1');
  let body = all.subarray(split + 4);
  const headers = new Map<string, string[]>();
  for (const line of head.split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    const name = line.slice(0, i).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(i + 1).trim()]);
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  const length = headers.get('content-length')?.[0];
  if (bodiless || status === 204 || status === 304) body = Buffer.alloc(0);
  else if (headers.get('transfer-encoding')?.includes('chunked')) {
    const parts: Buffer[] = [];
    let i = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', i);
      if (eol < 0) return closed ? { status, head, headers, body: Buffer.concat(parts) } : undefined;
      const size = Number.parseInt(body.subarray(i, eol).toString(), 16);
      if (!size) break;
      if (eol + 2 + size > body.length && !closed) return undefined;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      i = eol + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else if (length !== undefined) {
    if (body.length < Number(length) && !closed) return undefined;
  } else if (!closed) return undefined;
  return { status, head, headers, body };
}

/**
 * Sends bytes exactly as given on a fresh connection (every request says Connection: close; the client does not
 * half-close first) and parses the one answer. It is complete when its Content-Length or last chunk is in, or when
 * the server closes: Wrangler's local proxy in front of workerd answers an error with Content-Length but leaves the
 * connection open.
 */
function send(bytes: string | Buffer): Promise<Answer> {
  const bodiless = (typeof bytes === 'string' ? bytes : bytes.toString('latin1', 0, 5)).startsWith('HEAD ');
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let answered = false;
    const done = (closed: boolean) => {
      const answer = answered ? undefined : parseAnswer(Buffer.concat(chunks), bodiless, closed);
      if (!answer) return;
      answered = true;
      socket.destroy();
      resolve(answer);
    };
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      done(false);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err)));
    socket.on('close', () => done(true));
  });
}

const KNOWN_CODES = new Set([...Object.keys(ERROR_CODES), ...OAUTH_ERRORS.map((e) => e.code), 'invalid_redirect_uri', 'invalid_client_metadata']);
/** Bytes that only a file outside dist/client could contain. */
const LEAKS = ['root:x:0:0', '"devDependencies"', 'startService', '[core]', 'createMiddleware', 'SIGNING_SECRET='];

/** The invariants every answer keeps, whatever was sent. */
function checkAnswer(a: Answer, label: string, allowed: number[], method = 'GET') {
  expect(a.status, `${label}\n${a.head}`).toBeGreaterThan(0);
  // (501 is the one 5xx a client earns: a method the server does not implement, allowed only where a test names it.)
  expect(a.status, label).toBeLessThan(allowed.includes(501) ? 502 : 500);
  expect(allowed, `${label}: status ${a.status}\n${a.body.toString().slice(0, 300)}`).toContain(a.status);
  const text = a.body.toString('latin1');
  for (const leak of LEAKS) expect(text, `${label} leaks ${leak}`).not.toContain(leak);
  expect(a.head.toLowerCase(), label).not.toMatch(/\r\n(x-injected|set-cookie):/);
  expect(text.toLowerCase(), label).not.toContain('evil.example');
  const type = a.headers.get('content-type')?.[0] ?? '';
  // (402 is the tip endpoint's payment-requirements body, not an error.)
  if (a.status >= 400 && a.status !== 402 && method !== 'HEAD' && type.startsWith('application/json')) {
    const envelope = ErrorEnvelopeSchema.parse(JSON.parse(text));
    expect(KNOWN_CODES, `${label}: ${envelope.error.code}`).toContain(envelope.error.code);
  }
}

const get = (target: string, headers: Record<string, string> = {}) =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`;
const post = (target: string, body: string | Buffer, type: string | undefined, extra = '') => {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([
    Buffer.from(`POST ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${type ? `Content-Type: ${type}\r\n` : ''}${extra}Content-Length: ${b.byteLength}\r\nConnection: close\r\n\r\n`),
    b,
  ]);
};

describe.each(HOSTS)('%s host', (host) => {
  beforeAll(async () => {
    server = await startHost(host, { distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '10000000' } });
    const episodes = (await (await fetch(`${server.url}/episodes.json`)).json()) as Array<{ audioFile?: string }>;
    audioPath = `/audio/${episodes.find((e) => e.audioFile)!.audioFile}`;
  });
  afterAll(() => server?.stop());

  describe('path traversal in every encoding', () => {
    const prefixes = ['', '/audio', '/transcripts', '/episodes', '/.well-known', '/oauth'];
    const climbs = ['../', '..%2f', '%2e%2e/', '%2e%2e%2f', '.%2e/', '%2e./', '..%5c', '..\\', '%252e%252e%252f', '..%252f', '%c0%ae%c0%ae/', '..;/', '....//', '..%00/', '%uff0e%uff0e/', '．．/'];
    const targets = ['etc/passwd', 'package.json', 'hosts/node/main.ts', '.git/config', 'server/entry.mjs', '.env'];
    const cases: string[] = [];
    for (const prefix of prefixes) for (const climb of climbs) cases.push(`${prefix}/${climb.repeat(5)}${targets[cases.length % targets.length]}`);
    cases.push('/.env', '/.git/config', '/.git/HEAD', '/package.json', '/server/entry.mjs', '/../server/entry.mjs', '//etc/passwd', '///../../etc/passwd', '/%2f%2fetc%2fpasswd', '/episodes.json%00.html', '/episodes.json/..', '/episodes.json/', '/./episodes.json', '/%2e/episodes.json', '/EPISODES.JSON');

    it(`answers ${cases.length} traversal attempts with 200 (a real output file), 400 or 404, never outside the output`, async () => {
      for (const path of cases) checkAnswer(await send(get(path)), path, [200, 400, 404]);
    });
  });

  describe('oversized and malformed bodies', () => {
    const ask = '/ask';
    const bodies: Array<[string, string | Buffer, string | undefined, number[], string?]> = [
      ['valid (control)', '{"query":"bees"}', 'application/json', [200]],
      ['65 KB', JSON.stringify({ query: 'a'.repeat(65 * 1024) }), 'application/json', [413]],
      ['1 MB', Buffer.alloc(1024 * 1024, 'a'), 'application/json', [413]],
      ['empty', '', 'application/json', [400]],
      ['truncated', '{"query":', 'application/json', [400]],
      ['array', '[]', 'application/json', [400]],
      ['null', 'null', 'application/json', [400]],
      ['string', '"bees"', 'application/json', [400]],
      ['number query', '{"query":5}', 'application/json', [400]],
      ['empty query', '{"query":""}', 'application/json', [400]],
      ['limit 0', '{"query":"x","limit":0}', 'application/json', [400]],
      ['limit 51', '{"query":"x","limit":51}', 'application/json', [400]],
      ['limit 1.5', '{"query":"x","limit":1.5}', 'application/json', [400]],
      ['limit string', '{"query":"x","limit":"5"}', 'application/json', [400]],
      ['limit 1e308', '{"query":"x","limit":1e308}', 'application/json', [400]],
      ['deep nesting', '['.repeat(20_000) + ']'.repeat(20_000), 'application/json', [400]],
      ['prototype pollution', '{"__proto__":{"query":"x"},"constructor":{"prototype":{"limit":1}}}', 'application/json', [400]],
      ['lone surrogate', '{"query":"\\ud800"}', 'application/json', [200, 400]],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'application/json', [400]],
      ['BOM', '\ufeff{"query":"bees"}', 'application/json', [200, 400]],
      ['text/plain', '{"query":"bees"}', 'text/plain', [400]],
      ['form', 'query=bees', 'application/x-www-form-urlencoded', [400]],
      ['multipart', '--x\r\n\r\nbees\r\n--x--', 'multipart/form-data; boundary=x', [400]],
      ['no content type', '{"query":"bees"}', undefined, [400]],
      ['charset utf-7', '{"query":"bees"}', 'application/json; charset=utf-7', [200, 400]],
      ['content type with CRLF-like junk', '{"query":"bees"}', 'application/json;;;;;', [200, 400]],
      ['gzip-encoded', gzipSync('{"query":"bees"}'), 'application/json', [400], 'Content-Encoding: gzip\r\n'],
      ['claimed br, sent plain', '{"query":"bees"}', 'application/json', [400], 'Content-Encoding: br\r\n'],
      ['an expectation nobody knows', '{"query":"bees"}', 'application/json', [200], 'Expect: teapot\r\n'],
    ];
    it(`answers ${bodies.length} bodies at POST /ask with 200, 400 or 413 (the contract's statuses)`, async () => {
      for (const [label, body, type, allowed, extra] of bodies) checkAnswer(await send(post(ask, body, type, extra)), `/ask ${label}`, allowed, 'POST');
    });

    it('answers malformed bodies at the OAuth endpoints with the contract codes, never 415 or 5xx', async () => {
      const cases: Array<[string, string | Buffer, string | undefined, number[]]> = [
        ['/oauth/token', 'grant_type=client_credentials', 'application/json', [400]],
        ['/oauth/token', '{"grant_type":"client_credentials"}', 'application/json', [400]],
        ['/oauth/token', '', 'application/x-www-form-urlencoded', [400]],
        ['/oauth/token', 'grant_type=a&grant_type=b', 'application/x-www-form-urlencoded', [400]],
        ['/oauth/token', `grant_type=${'x'.repeat(70_000)}`, 'application/x-www-form-urlencoded', [413]],
        ['/oauth/token', Buffer.from([0x67, 0x3d, 0xff]), 'application/x-www-form-urlencoded', [400]],
        ['/oauth/token', 'grant_type=authorization_code&code=a.b.c.d.e&redirect_uri=x&code_verifier=' + 'a'.repeat(43) + '&client_id=public', 'application/x-www-form-urlencoded', [400]],
        ['/oauth/claim', 'identity_type=root', 'application/x-www-form-urlencoded', [400]],
        ['/oauth/claim', '{}', 'text/plain', [400]],
        ['/oauth/register', '[1,2]', 'application/json', [400]],
        ['/oauth/register', '{"redirect_uris":["https://evil.example/#x"]}', 'application/json', [400]],
        ['/oauth/register', '{"redirect_uris":' + JSON.stringify(Array.from({ length: 21 }, (_, i) => `https://a${i}.example/cb`)) + '}', 'application/json', [400]],
        ['/oauth/register', 'redirect_uris=x', 'application/x-www-form-urlencoded', [400]],
        ['/oauth/revoke', 'token=garbage', 'application/json', [200]],
        ['/donate', '{}', 'application/json', [402]],
      ];
      for (const [path, body, type, allowed] of cases) {
        const a = await send(post(path, body, type));
        checkAnswer(a, `${path} ${String(body).slice(0, 40)}`, allowed, 'POST');
        if (a.status === 400) expect(a.status).not.toBe(415);
      }
    });
  });

  describe('search query syntax', () => {
    const queries = [
      'bees', '*', '**', 'title:bees', 'body:bees', 'bees~5', 'bees~100', 'bees^100', 'bees^-1', '+bees -bees', '+-+-+-', ':', '::::',
      '\\', '"', '"unterminated', '((((', '))))', '[a TO z]', 'a*b*c*d*e*f*g*h*', '*'.repeat(200), '~'.repeat(200), '^'.repeat(200),
      'a'.repeat(5000), 'bee '.repeat(1000), '%00', '%ff', '%c0%80', '%e2%80%ae', '<script>alert(1)</script>', "' OR 1=1 --", '${jndi:ldap://x}',
      '{{7*7}}', '../../etc/passwd', '%0d%0aX-Injected:%201', 'bees&q=wasps', 'bees&q=', '',
    ];
    const params = ['', '&limit=0', '&limit=51', '&limit=-1', '&limit=1e3', '&limit=0x10', '&limit=%205', '&limit=10&limit=20', '&offset=10001', '&offset=-0', '&offset=1.0', '&offset=99999999999999999999'];
    it(`answers ${queries.length} queries × ${params.length} parameter shapes on /api/search and GET /ask with 200 or 400`, async () => {
      for (const q of queries) {
        for (const p of params) {
          const enc = /%|&/.test(q) ? q : encodeURIComponent(q);
          checkAnswer(await send(get(`/api/search?q=${enc}${p}`)), `/api/search q=${q.slice(0, 30)} ${p}`, [200, 400]);
        }
        checkAnswer(await send(get(`/ask?q=${/%|&/.test(q) ? q : encodeURIComponent(q)}`)), `/ask q=${q.slice(0, 30)}`, [200, 400]);
      }
    }, 120_000);
  });

  describe('methods', () => {
    const paths = ['/episodes.json', '/api/search?q=x', '/ask', '/status', '/mcp', '/oauth/token', '/oauth/authorize', '/rss.xml', '/'];
    it('answers every method on every kind of path with the contract status (405 with Allow for the wrong one)', async () => {
      for (const path of paths) {
        for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND', 'MKCOL']) {
          const a = await send(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
          checkAnswer(a, `${method} ${path}`, [200, 204, 400, 405], method);
          // The service's 405 names what is allowed. On Cloudflare a page is answered by the platform's asset layer
          // (README, Deploy), whose 405 for another method is bare; the service's answers carry the rate-limit headers.
          const platforms = host === 'cloudflare' && !a.headers.has('x-ratelimit-limit');
          if (a.status === 405 && !platforms) expect(a.headers.get('allow')?.[0], `${method} ${path}`).toBeTruthy();
        }
      }
      // A request line no parser reads is answered by the runtime's own HTTP parser before any code of the
      // service runs: the Node host's (hosts/node/main.ts) answers in the envelope, 501 for a method it does not know
      // (methods are case-sensitive, so `get` is one) and 400 for the rest (`G\u00e9T` is no method token); Bun's closes the connection or answers
      // 505, and Wrangler's local proxy 501, which only the platform could change.
      for (const [raw, status] of host === 'node' ? ([['get /status HTTP/1.1', 501], ['G\u00e9T /status HTTP/1.1', 400], ['GET', 400], [' GET /status HTTP/1.1', 400]] as const) : []) {
        checkAnswer(await send(`${raw}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`), JSON.stringify(raw), [status]);
      }
      // Node's parser tolerates a doubled space in the request line; the request is then an ordinary GET.
      checkAnswer(await send('GET  /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'), 'doubled space', [200, 400]);
    });
  });

  describe('byte ranges', () => {
    it('answers hostile ranges with 200, 206 or 416, never more bytes than the file', async () => {
      // (Read from a GET: the Cloudflare preview's asset layer answers HEAD without a Content-Length.)
      const size = (await send(get(audioPath, { 'Accept-Encoding': 'identity' }))).body.byteLength;
      expect(size).toBeGreaterThan(0);
      const ranges = [
        'bytes=0-0', 'bytes=-1', `bytes=${size}-`, `bytes=${size - 1}-${size * 2}`, 'bytes=5-1', 'bytes=0-1,2-3', 'bytes=abc', 'items=0-1', 'bytes=-0',
        'bytes=0-18446744073709551616', 'bytes=--1', 'bytes= 0-1', `bytes=${'0-1,'.repeat(2000)}0-1`, 'bytes=0-1\u0000', 'bytes=-99999999999999999',
      ];
      for (const path of [audioPath, '/episodes.json']) {
        for (const range of ranges) {
          const a = await send(get(path, { Range: range, 'Accept-Encoding': 'identity' }));
          checkAnswer(a, `${path} Range: ${range}`, [200, 206, 400, 416]);
          expect(a.body.byteLength).toBeLessThanOrEqual(path === audioPath ? size : 10_000_000);
        }
      }
    });
  });

  describe('header injection and hostile headers', () => {
    const cases: Array<[string, Record<string, string>, string?]> = [
      ['CRLF in the query', {}, '/api/search?q=%0d%0aX-Injected:%201%0d%0a'],
      ['CRLF in the path', {}, '/%0d%0aX-Injected:%201'],
      ['CRLF in a redirect_uri', {}, '/oauth/authorize?response_type=code&client_id=public&redirect_uri=http://127.0.0.1:1/%0d%0aX-Injected:%201&code_challenge=x&code_challenge_method=S256'],
      ['hostile Origin', { Origin: 'https://evil.example' }],
      ['null Origin', { Origin: 'null' }],
      ['preflight for evil headers', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'DELETE', 'Access-Control-Request-Headers': 'x-injected' }],
      ['huge Accept', { Accept: 'application/json;q=0.1,'.repeat(300) }],
      ['absurd Accept-Encoding', { 'Accept-Encoding': 'br;q=2, gzip;q=-1, *;q=NaN' }],
      ['spoofed X-Forwarded-For', { 'X-Forwarded-For': '1.2.3.4, ::1, not-an-ip, 999.999.999.999' }],
      ['Forwarded with junk', { Forwarded: 'for="[::1', 'X-Forwarded-Proto': 'gopher' }],
      ['Bearer with a tab', { Authorization: 'Bearer a\tb' }],
      ['Bearer 8 KB', { Authorization: `Bearer ${'a'.repeat(8000)}` }],
      ['Basic garbage on a read', { Authorization: 'Basic !!!' }],
      ['alg none token', { Authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' }],
      ['If-None-Match junk', { 'If-None-Match': '*, W/"", "\u0000"' }],
      ['If-Modified-Since junk', { 'If-Modified-Since': 'yesterday' }],
      ['Prefer junk', { Prefer: 'streaming=maybe, respond-async, wait=-1' }],
      ['Host with an evil port', { Host: 'evil.example:1' }],
      ['Cookie 20 KB', { Cookie: `a=${'b'.repeat(20_000)}` }],
    ];
    it(`answers ${cases.length} hostile header sets without a 5xx, an injected header or an echo`, async () => {
      for (const [label, headers, path = '/api/search?q=bees'] of cases) {
        const host = headers.Host;
        const rest = { ...headers };
        delete rest.Host;
        const text = get(path, rest);
        const a = await send(host ? text.replace('Host: 127.0.0.1', `Host: ${host}`) : text);
        checkAnswer(a, label, [200, 204, 302, 400, 401, 403, 404, 431]);
      }
    });
  });

  describe('after the whole catalogue', () => {
    it('the server logged no 5xx and is still answering', async () => {
      // Every request's status, from the service's access log, or on Cloudflare from Wrangler's own request lines
      // ("[wrangler:info] GET /x 200 OK"), which also cover what the asset layer answered.
      const statuses =
        host === 'cloudflare'
          ? server.logs.flatMap((l) => (typeof l === 'string' ? /^\[wrangler:info\] [A-Z]+ \S+ (\d{3}) /.exec(l)?.[1] ?? [] : [])).map(Number)
          : logEntries(server).filter((e) => e.msg === 'request').map((e) => Number(e.status));
      expect(statuses.length, 'the log shows the catalogue').toBeGreaterThan(700);
      // (Node's 501 for a method it does not implement is the client's doing, logged with llhttp's code.)
      expect(statuses.filter((status) => status >= 500 && status !== 501)).toEqual([]);
      const notImplemented = host === 'node' ? logEntries(server).filter((e) => e.msg === 'request' && e.status === 501) : [];
      expect(notImplemented.map((e) => e.error)).toEqual(host === 'node' ? ['HPE_INVALID_METHOD'] : []);
      expect(statuses.filter((status) => status === 501).length).toBe(notImplemented.length);
      expect((await fetch(`${server.url}/status`)).status).toBe(200);
    });
  });
});
