/**
 * Prebuilt documents through the whole pipeline, over real HTTP: the header set on a 200 of each kind of
 * document, conditional requests, compression, byte ranges, methods, 404s (JSON and HTML), CORS, security
 * headers, and paths that try to leave the build output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { raw, rawSocket } from './util.ts';

let server: RunningServer;
const clientDir = () => join(inject('distDir'), 'client');
const file = (path: string) => readFileSync(join(clientDir(), path));

beforeAll(async () => {
  // A generous limit: this suite makes many requests from one address (the limit itself is tested elsewhere).
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
});
afterAll(() => server?.stop());

const firstAudio = () => readdirSync(join(clientDir(), 'audio')).filter((f) => f.endsWith('.mp3')).sort()[0]!;
const firstTranscript = () => readdirSync(join(clientDir(), 'transcripts')).filter((f) => f.endsWith('.srt')).sort()[0]!;

/** Every kind of prebuilt document, with the exact content type the contract and the issue name. */
const DOCUMENTS: Array<{ path: () => string; type: string; compressible: boolean; html?: boolean; media?: boolean }> = [
  { path: () => '/episodes.json', type: 'application/json; charset=utf-8', compressible: true },
  { path: () => '/rss.xml', type: 'application/rss+xml; charset=utf-8', compressible: true },
  { path: () => '/llms.txt', type: 'text/plain; charset=utf-8', compressible: true },
  { path: () => '/docs.md', type: 'text/markdown; charset=utf-8', compressible: true },
  { path: () => '/AGENTS.md', type: 'text/markdown; charset=utf-8', compressible: true },
  { path: () => '/.well-known/api-catalog', type: 'application/linkset+json', compressible: true },
  { path: () => '/search-index.json', type: 'application/json; charset=utf-8', compressible: true },
  { path: () => '/index.html', type: 'text/html; charset=utf-8', compressible: true, html: true },
  { path: () => `/transcripts/${firstTranscript()}`, type: 'application/x-subrip; charset=utf-8', compressible: true },
  { path: () => `/audio/${firstAudio()}`, type: 'audio/mpeg', compressible: false, media: true },
];

describe('the header set on a 200 of each prebuilt document', () => {
  for (const doc of DOCUMENTS) {
    it(`${doc.path()} → ${doc.type}`, async () => {
      const path = doc.path();
      const bytes = file(path);
      const res = await raw(server.url, path, { headers: { 'accept-encoding': 'identity' } });
      expect(res.status).toBe(200);
      expect(res.body.equals(bytes)).toBe(true);
      const h = res.headers;
      expect(h['content-type']).toBe(doc.type);
      expect(h['content-length']).toBe(String(bytes.byteLength));
      expect(h['content-encoding']).toBeUndefined();
      expect(h.etag).toMatch(/^"[\w-]+"$/);
      expect(new Date(h['last-modified']!).getTime()).toBe(Math.floor(statSync(join(clientDir(), path)).mtimeMs / 1000) * 1000);
      expect(h['cache-control']).toBe(
        doc.html ? 'public, max-age=0, must-revalidate' : doc.media ? 'public, max-age=86400' : 'public, max-age=300',
      );
      if (doc.compressible) expect(h.vary).toBe('Accept-Encoding');
      if (doc.media) expect(h['accept-ranges']).toBe('bytes');
      // Security and CORS headers on every response.
      expect(h['x-content-type-options']).toBe('nosniff');
      expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(h['access-control-allow-origin']).toBe('*');
      expect(h['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
      if (doc.html) {
        expect(h['content-security-policy']).toContain("default-src 'self'");
        expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(h['x-frame-options']).toBe('DENY');
      } else {
        expect(h['content-security-policy']).toBeUndefined();
      }
      if (doc.html || doc.media) {
        // Pages and audio are what a CDN host answers without its function: not counted here either.
        expect(h['x-ratelimit-limit']).toBeUndefined();
        expect(h['x-ratelimit-remaining']).toBeUndefined();
      } else {
        // The contract's rate-limit headers.
        expect(h['x-ratelimit-limit']).toBe('100000');
        expect(Number(h['x-ratelimit-remaining'])).toBeLessThan(100000);
        expect(Number(h['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000 - 1);
      }
    });
  }

  it('serves a directory index and HEAD without a body', async () => {
    const index = file('/index.html');
    const root = await raw(server.url, '/', { headers: { 'accept-encoding': 'identity' } });
    expect(root.status).toBe(200);
    expect(root.body.equals(index)).toBe(true);
    const head = await raw(server.url, '/episodes.json', { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe(String(file('/episodes.json').byteLength));
    expect(head.headers['x-ratelimit-limit']).toBe('100000');
  });
});

describe('conditional requests', () => {
  it('answers 304 to an If-None-Match naming the negotiated variant (weak or strong) and to If-Modified-Since', async () => {
    const first = await raw(server.url, '/rss.xml', { headers: { 'accept-encoding': 'identity' } });
    const etag = first.headers.etag!;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await raw(server.url, '/rss.xml', { headers: { 'if-none-match': inm, 'accept-encoding': 'identity' } });
      expect(res.status, inm).toBe(304);
      expect(res.body.byteLength).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
    const br = await raw(server.url, '/rss.xml', { headers: { 'accept-encoding': 'br' } });
    const revalidated = await raw(server.url, '/rss.xml', { headers: { 'if-none-match': br.headers.etag!, 'accept-encoding': 'br' } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(br.headers.etag);

    const since = await raw(server.url, '/rss.xml', { headers: { 'if-modified-since': first.headers['last-modified']! } });
    expect(since.status).toBe(304);
    const stale = await raw(server.url, '/rss.xml', { headers: { 'if-none-match': '"something-else"', 'accept-encoding': 'identity' } });
    expect(stale.status).toBe(200);
    const older = await raw(server.url, '/rss.xml', { headers: { 'if-modified-since': 'Thu, 01 Jan 1970 00:00:00 GMT', 'accept-encoding': 'identity' } });
    expect(older.status).toBe(200);
  });

  it("a 304 names the ETag of what the client would be sent: another encoding's ETag is another version", async () => {
    const gz = (await raw(server.url, '/rss.xml', { headers: { 'accept-encoding': 'gzip' } })).headers.etag!;
    const br = (await raw(server.url, '/rss.xml', { headers: { 'accept-encoding': 'br' } })).headers.etag!;
    expect(gz).not.toBe(br);
    // A cache holding the gzip copy asks with its ETag but now accepts br: it gets the br body, not a 304 that
    // would name an ETag it does not hold (RFC 9111 §4.3.4: such a 304 updates nothing).
    const other = await raw(server.url, '/rss.xml', { headers: { 'if-none-match': gz, 'accept-encoding': 'br' } });
    expect(other.status).toBe(200);
    expect(other.headers.etag).toBe(br);
    expect(other.headers['content-encoding']).toBe('br');
    const identity = await raw(server.url, '/rss.xml', { headers: { 'if-none-match': br, 'accept-encoding': 'identity' } });
    expect(identity.status).toBe(200);
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('ignores an If-Modified-Since that is not an HTTP-date or lies in the future', async () => {
    for (const since of ['2100', '2100-01-01T00:00:00Z', 'Fri, 01 Jan 2100 00:00:00 GMT', 'yesterday']) {
      const res = await raw(server.url, '/rss.xml', { headers: { 'if-modified-since': since, 'accept-encoding': 'identity' } });
      expect(res.status, since).toBe(200);
    }
  });

  it('answers 412 when If-Match or If-Unmodified-Since names another version, and the document when they hold', async () => {
    const current = await raw(server.url, '/llms.txt', { headers: { 'accept-encoding': 'identity' } });
    const refused: Array<Record<string, string>> = [{ 'if-match': '"nomatch"' }, { 'if-match': `W/${current.headers.etag!}` }, { 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' }];
    for (const headers of refused) {
      for (const method of ['GET', 'HEAD']) {
        const res = await raw(server.url, '/llms.txt', { method, headers: { ...headers, 'accept-encoding': 'identity' } });
        expect(res.status, `${method} ${JSON.stringify(headers)}`).toBe(412);
        if (method === 'GET') expect(ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString())).error.code).toBe('precondition_failed');
      }
    }
    const held: Array<Record<string, string>> = [{ 'if-match': current.headers.etag! }, { 'if-match': '*' }, { 'if-unmodified-since': current.headers['last-modified']! }];
    for (const headers of held) {
      const res = await raw(server.url, '/llms.txt', { headers: { ...headers, 'accept-encoding': 'identity' } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body.equals(current.body)).toBe(true);
    }
  });
});

describe('compression', () => {
  it('answers br or gzip when accepted, with the same content as the identity bytes', async () => {
    for (const path of ['/episodes.json', '/rss.xml', '/llms.txt', '/index.html']) {
      const identity = file(path);
      const br = await raw(server.url, path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.status).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.headers['content-length']).toBe(String(br.body.byteLength));
      expect(br.body.byteLength).toBeLessThan(identity.byteLength);
      expect(brotliDecompressSync(br.body).equals(identity)).toBe(true);

      const gz = await raw(server.url, path, { headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(identity)).toBe(true);
      expect(gz.headers.etag).not.toBe(br.headers.etag);
    }
    // Quality values decide; q=0 refuses.
    const prefersGzip = await raw(server.url, '/episodes.json', { headers: { 'accept-encoding': 'br;q=0.5, gzip;q=1' } });
    expect(prefersGzip.headers['content-encoding']).toBe('gzip');
    const refuses = await raw(server.url, '/episodes.json', { headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    expect(refuses.headers['content-encoding']).toBeUndefined();
    expect(refuses.body.equals(file('/episodes.json'))).toBe(true);
  });

  it('the build wrote the precompressed variants beside the files', () => {
    for (const path of ['/episodes.json', '/rss.xml', '/llms.txt']) {
      expect(existsSync(join(clientDir(), `${path}.br`)), `${path}.br`).toBe(true);
      expect(existsSync(join(clientDir(), `${path}.gz`)), `${path}.gz`).toBe(true);
    }
    // Variants are never documents of their own.
    return raw(server.url, '/rss.xml.br').then((res) => expect(res.status).toBe(404));
  });

  it('does not compress audio', async () => {
    const res = await raw(server.url, `/audio/${firstAudio()}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.equals(file(`/audio/${firstAudio()}`))).toBe(true);
  });
});

describe('byte ranges on audio', () => {
  it('answers 206 with the requested bytes, for a start-end, an open and a suffix range', async () => {
    const path = `/audio/${firstAudio()}`;
    const bytes = file(path);
    const size = bytes.byteLength;
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-', 1000, size - 1],
      ['bytes=-500', size - 500, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await raw(server.url, path, { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.headers['content-type']).toBe('audio/mpeg');
      expect(res.body.equals(bytes.subarray(start, end + 1))).toBe(true);
      // A seek is not counted against the rate limit (a CDN answers it without the function too).
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('answers 416 with Content-Range: bytes */size and the envelope for a range outside the file', async () => {
    const path = `/audio/${firstAudio()}`;
    const size = file(path).byteLength;
    const res = await raw(server.url, path, { headers: { range: `bytes=${size}-` } });
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${size}`);
    const body = ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString()));
    expect(body.error.code).toBe('range_not_satisfiable');
    expect(body.error.hint).toContain(String(size - 1));
  });

  it('ignores a range when If-Range names another version', async () => {
    const path = `/audio/${firstAudio()}`;
    const res = await raw(server.url, path, { headers: { range: 'bytes=0-9', 'if-range': '"another-version"' } });
    expect(res.status).toBe(200);
    expect(res.body.byteLength).toBe(file(path).byteLength);
    const current = (await raw(server.url, path, { method: 'HEAD' })).headers.etag!;
    const same = await raw(server.url, path, { headers: { range: 'bytes=0-9', 'if-range': current } });
    expect(same.status).toBe(206);
  });

  it('reads the range unit in any case (RFC 9110 §14.1)', async () => {
    const path = `/audio/${firstAudio()}`;
    const res = await raw(server.url, path, { headers: { range: 'Bytes=0-9' } });
    expect(res.status).toBe(206);
    expect(res.body.equals(file(path).subarray(0, 10))).toBe(true);
  });
});

describe('methods and 404', () => {
  it('405 with Allow and the envelope for a write to a prebuilt document', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await raw(server.url, '/episodes.json', { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString()));
      expect(body.error.code).toBe('method_not_allowed');
      expect(body.error.hint).toContain('GET, HEAD, OPTIONS');
      expect(res.headers['x-ratelimit-limit']).toBe('100000');
    }
  });

  it('405 with Allow on an API route', async () => {
    const res = await raw(server.url, '/status', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString())).error.code).toBe('method_not_allowed');
  });

  it('404 envelope for an unknown path', async () => {
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await raw(server.url, '/no/such/thing.json', { headers: accept ? { accept } : {} });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString()));
      expect(body.error.code).toBe('not_found');
      expect(body.error.message).toContain('/no/such/thing.json');
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
  });

  it('the HTML 404 page for a browser asking for text/html', async () => {
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const res = await raw(server.url, '/episodes/999-not-an-episode', { headers: { accept, 'accept-encoding': 'identity' } });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
    const page = join(clientDir(), '404.html');
    if (existsSync(page)) expect(res.body.equals(readFileSync(page))).toBe(true);
    else expect(res.body.toString()).toMatch(/<h1>Page not found<\/h1>/);
  });
});

describe('bearer token', () => {
  it('is checked after the rate limit: a bad token is a counted 401 invalid_token, no token is fine', async () => {
    const before = Number((await raw(server.url, '/episodes.json', { method: 'HEAD' })).headers['x-ratelimit-remaining']);
    const res = await raw(server.url, '/episodes.json', { headers: { authorization: 'Bearer not-a-token' } });
    expect(res.status).toBe(401);
    expect(ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString())).error.code).toBe('invalid_token');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(before - 1);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect((await raw(server.url, '/episodes.json')).status).toBe(200);
  });
});

describe('CORS', () => {
  it('answers a preflight for a document with the allowed methods and the asked-for headers', async () => {
    const res = await raw(server.url, '/episodes.json', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-custom' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('authorization, x-custom');
    expect(res.headers['access-control-max-age']).toBe('86400');
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.headers['x-ratelimit-limit']).toBe('100000');
  });

  it('answers a preflight for an API route with its methods', async () => {
    const res = await raw(server.url, '/status', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
  });

  it('a cross-origin GET can read the rate-limit headers', async () => {
    const res = await fetch(`${server.url}/status`, { headers: { origin: 'https://app.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Limit.*X-RateLimit-Remaining.*X-RateLimit-Reset.*Retry-After/);
  });

  it('a cross-origin range request can read Content-Range and Accept-Ranges', async () => {
    const res = await fetch(`${server.url}/episodes.json`, { headers: { origin: 'https://app.example', range: 'bytes=0-9', 'accept-encoding': 'identity' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toMatch(/^bytes 0-9\/\d+$/);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['Content-Range', 'Accept-Ranges', 'Allow']));
  });
});

describe('paths outside the build output', () => {
  // Raw request lines over a socket: a normal client would normalise these before sending.
  const ATTEMPTS = [
    '/../../../../etc/passwd',
    '/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e%2f%2e%2e%2fpackage.json',
    '/.%2e/.%2e/package.json',
    '/audio/..%2f..%2f..%2fpackage.json',
    '/audio/..%5c..%5c..%5cpackage.json',
    '/..\\..\\..\\package.json',
    '/%5c..%5c..%5cpackage.json',
    '/episodes.json%00.html',
    '/%00',
    '/..%252f..%252fpackage.json',
    '/..%2fserver%2fentry.mjs',
    '/../server/entry.mjs',
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/package.json',
    '//etc/passwd',
  ];

  it('the raw client does reach real files (control)', async () => {
    const res = await rawSocket(server.port, 'GET /episodes.json HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.text).toContain('"title"');
  });

  for (const path of ATTEMPTS) {
    it(`never serves ${JSON.stringify(path)}`, async () => {
      const res = await rawSocket(server.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect([400, 404]).toContain(res.status);
      expect(res.text).not.toContain('root:');
      expect(res.text).not.toContain('podcast-listener-service');
      expect(res.text).not.toContain('createMiddleware');
      expect(res.text).toMatch(/"code":"(invalid_path|not_found)"/);
    });
  }

  it('absolute-form targets are reduced to their path', async () => {
    const res = await rawSocket(server.port, 'GET http://evil.example/../../package.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('podcast-listener-service');
  });
});
