/**
 * The pipeline's parts on their own: client address resolution, path safety, encoding negotiation, the
 * in-memory store's bounds, MemoryResponse's standard behaviour, the Astro bridge against Astro's own Node
 * request/response code, the precompression step, and createApp in process.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createRequestFromNodeRequest, writeResponse as astroWriteResponse } from 'astro/app/node';
import { expandIpv6, normalizeIp, resolveClientIp } from '../../functions/middleware/client-ip.ts';
import { rateKey } from '../../functions/middleware/rate-limit.ts';
import { encodingPreference, safePath } from '../../functions/static.ts';
import { MemoryRateLimitStore } from '../../functions/ratelimit/memory.ts';
import { RedisRateLimitStore } from '../../hosts/node/redis-store.ts';
import { createClient } from 'redis';
import { startRedis, stopRedis } from '../helpers/redis.ts';
import { freePort } from './util.ts';
import { MemoryResponse } from '../../functions/memory-response.ts';
import { PendingHeaders } from '../../functions/middleware/pending-headers.ts';
import { createApp } from '../../functions/app.ts';
import { DataStore } from '../../functions/data.ts';
import { json } from '../../functions/errors.ts';
import type { Logger } from '../../functions/types.ts';
import { astroFallback, type NodeHandler } from '../../hosts/node/astro-bridge.ts';
import { precompressDir } from '../../src/integration/precompress.ts';
import { inlineScriptHashes } from '../../src/integration/inline-scripts.ts';
import { readConfig } from '../../hosts/node/config.ts';

const quiet = (): Logger & { lines: Array<[string, string, Record<string, unknown> | undefined]> } => {
  const lines: Array<[string, string, Record<string, unknown> | undefined]> = [];
  return {
    lines,
    info: (m, f) => lines.push(['info', m, f]),
    warn: (m, f) => lines.push(['warn', m, f]),
    error: (m, f) => lines.push(['error', m, f]),
  };
};

describe('client address', () => {
  const h = (init: Record<string, string>) => new Headers(init);
  it('is the socket address without TRUST_PROXY, whatever the headers say', () => {
    expect(resolveClientIp(h({ 'x-forwarded-for': '1.2.3.4' }), '127.0.0.1', 0)).toBe('127.0.0.1');
    expect(resolveClientIp(h({ forwarded: 'for=1.2.3.4' }), '::ffff:10.0.0.1', 0)).toBe('10.0.0.1');
  });
  it('with n trusted hops is the entry n places from the right', () => {
    const xff = h({ 'x-forwarded-for': 'spoofed, 198.51.100.7, 10.0.0.2' });
    expect(resolveClientIp(xff, '10.0.0.3', 1)).toBe('10.0.0.2');
    expect(resolveClientIp(xff, '10.0.0.3', 2)).toBe('198.51.100.7');
    // A malformed entry stops the walk at the last good address.
    expect(resolveClientIp(xff, '10.0.0.3', 3)).toBe('198.51.100.7');
    // More hops than entries: the leftmost one.
    expect(resolveClientIp(h({ 'x-forwarded-for': '192.0.2.1' }), '10.0.0.3', 5)).toBe('192.0.2.1');
    expect(resolveClientIp(h({}), '10.0.0.3', 1)).toBe('10.0.0.3');
  });
  it('reads RFC 7239 Forwarded with quoted IPv6 and ports, when told the proxies write it', () => {
    expect(resolveClientIp(h({ forwarded: 'for=192.0.2.60;proto=http;by=203.0.113.43' }), '10.0.0.1', 1, 'forwarded')).toBe('192.0.2.60');
    expect(resolveClientIp(h({ forwarded: 'for="[2001:db8:cafe::17]:4711"' }), '10.0.0.1', 1, 'forwarded')).toBe('2001:db8:cafe::17');
    expect(resolveClientIp(h({ forwarded: 'for=192.0.2.1, for=198.51.100.2' }), '10.0.0.1', 2, 'forwarded')).toBe('192.0.2.1');
    expect(resolveClientIp(h({ 'x-forwarded-for': '192.0.2.9:5555' }), '10.0.0.1', 1)).toBe('192.0.2.9');
  });
  it('reads only the header the proxies write: the other one is whatever the client sent', () => {
    // A proxy that writes Forwarded passes a client's X-Forwarded-For through, and the other way round.
    const both = h({ forwarded: 'for=198.51.100.7', 'x-forwarded-for': '9.9.8.1' });
    expect(resolveClientIp(both, '10.0.0.1', 1, 'forwarded')).toBe('198.51.100.7');
    expect(resolveClientIp(both, '10.0.0.1', 1, 'x-forwarded-for')).toBe('9.9.8.1');
    expect(resolveClientIp(h({ forwarded: 'for=9.9.8.1' }), '10.0.0.1', 1)).toBe('10.0.0.1');
    expect(resolveClientIp(h({ 'x-forwarded-for': '9.9.8.1' }), '10.0.0.1', 1, 'forwarded')).toBe('10.0.0.1');
  });
  it('reads an IPv4-mapped address as the IPv4 client, in hex as in dotted form', () => {
    for (const mapped of ['::ffff:10.5.5.5', '::ffff:a05:505', '[::FFFF:0A05:0505]:80', '0:0:0:0:0:ffff:a05:505']) {
      expect(normalizeIp(mapped), mapped).toBe('10.5.5.5');
    }
    expect(rateKey(normalizeIp('::ffff:a05:505')!)).not.toBe(rateKey('::1'));
    expect(normalizeIp('::fffe:a05:505')).toBe('::fffe:a05:505');
  });
  it('validates addresses', () => {
    expect(normalizeIp('256.1.1.1')).toBeUndefined();
    expect(normalizeIp('unknown')).toBeUndefined();
    expect(normalizeIp('::1')).toBe('::1');
    expect(expandIpv6('2001:db8::1')).toEqual(['2001', '0db8', '0000', '0000', '0000', '0000', '0000', '0001']);
    expect(expandIpv6('::ffff:1.2.3.4')?.slice(6)).toEqual(['0102', '0304']);
    expect(expandIpv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(expandIpv6('1::2::3')).toBeUndefined();
  });
  it('counts IPv6 clients per /64', () => {
    expect(rateKey('2001:db8:1:2:aaaa::1')).toBe(rateKey('2001:db8:1:2:bbbb::9'));
    expect(rateKey('2001:db8:1:2::1')).not.toBe(rateKey('2001:db8:1:3::1'));
    expect(rateKey('192.0.2.1')).toBe('192.0.2.1');
  });
});

describe('safePath', () => {
  it('accepts ordinary paths, decoded once', () => {
    expect(safePath('/episodes.json')).toBe('/episodes.json');
    expect(safePath('/audio/a%20b.mp3')).toBe('/audio/a b.mp3');
    expect(safePath('/.well-known/api-catalog')).toBe('/.well-known/api-catalog');
    expect(safePath('/..%252f')).toBe('/..%2f');
  });
  it('rejects traversal, backslashes, NUL and bad encodings', () => {
    for (const p of ['/../x', '/a/../../x', '/..%2fx', '/%2e%2e/x', '/a/%2E%2E', '/./x', '/a%5c..%5cx', '/a\\b', '/x%00', '/%0a', '/%zz', '/%c0%ae%c0%ae/x', 'x', '']) {
      expect(safePath(p), p).toBeNull();
    }
  });
});

describe('Accept-Encoding', () => {
  it('prefers br, then gzip, by quality, never a refused one', () => {
    expect(encodingPreference('gzip, deflate, br')).toEqual(['br', 'gzip']);
    expect(encodingPreference('gzip;q=1, br;q=0.5')).toEqual(['gzip', 'br']);
    expect(encodingPreference('br;q=0, gzip')).toEqual(['gzip']);
    expect(encodingPreference('*')).toEqual(['br', 'gzip']);
    expect(encodingPreference('*;q=0.1, gzip;q=0')).toEqual(['br']);
    expect(encodingPreference('identity')).toEqual([]);
    // Whitespace before the ';' is allowed (OWS); a malformed weight leaves the coding unlisted, not wanted most.
    expect(encodingPreference('gzip ;q=0.5')).toEqual(['gzip']);
    expect(encodingPreference('br;q=-1, gzip')).toEqual(['gzip']);
    expect(encodingPreference('gzip,br;q=')).toEqual(['gzip']);
    expect(encodingPreference('gzip;q=abc')).toEqual([]);
    expect(encodingPreference('br;q=1.5, gzip;q=0.2')).toEqual(['gzip']);
    expect(encodingPreference('BR;Q=0.9, gzip;q=0.8')).toEqual(['br', 'gzip']);
  });
});

describe('MemoryRateLimitStore', () => {
  it('counts per key in fixed windows and starts a new window after reset', () => {
    const store = new MemoryRateLimitStore();
    expect(store.hit('a', 1000, 0)).toEqual({ count: 1, resetAt: 1000 });
    expect(store.hit('a', 1000, 500)).toEqual({ count: 2, resetAt: 1000 });
    expect(store.hit('b', 1000, 600)).toEqual({ count: 1, resetAt: 1600 });
    expect(store.hit('a', 1000, 1000)).toEqual({ count: 1, resetAt: 2000 });
  });
  it('drops ended windows and never holds more than maxKeys', () => {
    const store = new MemoryRateLimitStore({ maxKeys: 100 });
    for (let i = 0; i < 50; i++) store.hit(`k${i}`, 1000, i);
    expect(store.size).toBe(50);
    store.hit('late', 1000, 1030);
    // Windows that started at 0..30 have ended by 1030.
    expect(store.size).toBe(50 - 31 + 1);
    for (let i = 0; i < 1000; i++) store.hit(`flood${i}`, 1000, 1040);
    expect(store.size).toBe(100);
  });
});

describe('RedisRateLimitStore', () => {
  it('answers from this process at once when Redis is unreachable, and says so once', async () => {
    const log = quiet();
    const store = new RedisRateLimitStore({ url: 'redis://127.0.0.1:1', log });
    try {
      expect(await store.ready(200)).toBe(false);
      const first = await store.hit('x', 60_000, 1000);
      const second = await store.hit('x', 60_000, 1001);
      expect(first).toEqual({ count: 1, resetAt: 61_000 });
      expect(second.count).toBe(2);
      expect(log.lines.filter(([, m]) => m.startsWith('rate limit store unavailable'))).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('keeps single-use state in this process when Redis is unreachable, never rejecting', async () => {
    const store = new RedisRateLimitStore({ url: 'redis://127.0.0.1:1', log: quiet() });
    try {
      expect(await store.add('code:a', 60_000)).toBe(true);
      expect(await store.add('code:a', 60_000)).toBe(false);
      expect(await store.has('code:a')).toBe(true);
      expect(await store.has('grant:b')).toBe(false);
      await store.set('grant:b', 60_000);
      expect(await store.has('grant:b')).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('RedisSharedStore with a Redis that holds the connection but does not answer', () => {
  it('waits for it once, then answers in this process without asking it until retryAfterMs has passed', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const store = new RedisRateLimitStore({ url: `redis://127.0.0.1:${port}`, log: quiet(), timeoutMs: 100, retryAfterMs: 600_000 });
    const reader = createClient({ url: `redis://127.0.0.1:${port}` });
    try {
      expect(await store.ready(5_000)).toBe(true);
      await store.hit('hung', 60_000, 0);
      redis.kill('SIGSTOP');
      // Ten requests while Redis is stopped: the first waits out timeoutMs, the other nine do not ask Redis at all.
      for (let i = 0; i < 10; i++) expect((await store.hit('hung', 60_000, i)).count, String(i)).toBe(i + 1);
      expect(await store.add('code:hung', 60_000)).toBe(true);
      redis.kill('SIGCONT');
      // What Redis received while stopped runs now: one increment (the first request's), not ten.
      await reader.connect();
      await expect.poll(async () => Number(await reader.get('ratelimit:hung'))).toBe(2);
      expect(await reader.exists('once:code:hung')).toBe(0);
    } finally {
      redis.kill('SIGCONT');
      await reader.quit().catch(() => {});
      await store.close();
      await stopRedis(redis, 'SIGTERM');
    }
  });
});

describe('RedisSharedStore in a process whose own work holds the event loop', () => {
  it('does not mistake a reply it has not yet read for an outage', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const log = quiet();
    const store = new RedisRateLimitStore({ url: `redis://127.0.0.1:${port}`, log, timeoutMs: 100, retryAfterMs: 600_000 });
    const reader = createClient({ url: `redis://127.0.0.1:${port}` });
    try {
      expect(await store.ready(5_000)).toBe(true);
      await reader.connect();
      for (let round = 0; round < 3; round++) {
        const hit = store.hit('busy', 60_000, round);
        const code = store.add(`code:busy${round}`, 60_000);
        // Synchronous work past the deadline: Redis answers in well under a millisecond, but nothing reads it.
        const until = performance.now() + 250;
        while (performance.now() < until);
        expect((await hit).count).toBe(round + 1);
        expect(await code).toBe(true);
      }
      // Every count and mark reached Redis, and the store never went local (it would have stayed so for 600 s).
      expect(Number(await reader.get('ratelimit:busy'))).toBe(3);
      expect(await reader.exists(['once:code:busy0', 'once:code:busy1', 'once:code:busy2'])).toBe(3);
      expect(log.lines.filter(([, m]) => m.startsWith('rate limit store unavailable'))).toEqual([]);
    } finally {
      await reader.quit().catch(() => {});
      await store.close();
      await stopRedis(redis, 'SIGTERM');
    }
  });
});

describe('MemoryResponse', () => {
  const make = () =>
    new MemoryResponse(new TextEncoder().encode('{"a":1}'), null, {
      status: 200,
      headers: [['Content-Type', 'application/json'], ['ETag', '"x"']],
    });
  it('behaves as a standard Response', async () => {
    const res = make();
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.clone().json()).toEqual({ a: 1 });
    expect(await res.text()).toBe('{"a":1}');
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
    const streamed = make();
    expect(await new Response(streamed.body).text()).toBe('{"a":1}');
    expect(streamed.bodyUsed).toBe(true);
  });
  it('offers its header list and bytes to a host only while nobody has used the public API', () => {
    const res = make();
    res.addMissing(new Headers({ 'x-extra': '1', etag: '"other"' }));
    expect(res.header('x-extra')).toBe('1');
    expect(res.direct()?.headers).toEqual([['Content-Type', 'application/json'], ['ETag', '"x"'], ['x-extra', '1']]);
    res.headers.set('x-late', '2');
    expect(res.direct()).toBeUndefined();
    expect(res.headers.get('x-extra')).toBe('1');
  });
});

describe('PendingHeaders', () => {
  it('behaves like Headers for what the pipeline does with it', () => {
    const h = new PendingHeaders();
    h.set('X-B', '1');
    h.append('x-b', '2');
    h.set('A-Header', 'a');
    h.append('Set-Cookie', 'c=1');
    h.append('Set-Cookie', 'd=2');
    expect(h.get('x-b')).toBe('1, 2');
    expect(h.has('A-HEADER')).toBe(true);
    expect(h.getSetCookie()).toEqual(['c=1', 'd=2']);
    expect([...h]).toEqual([['a-header', 'a'], ['set-cookie', 'c=1'], ['set-cookie', 'd=2'], ['x-b', '1, 2']]);
    // Same iteration as the standard class, so either can be merged into a Response the same way.
    const standard = new Headers([['X-B', '1'], ['x-b', '2'], ['A-Header', 'a'], ['Set-Cookie', 'c=1'], ['Set-Cookie', 'd=2']]);
    expect([...h]).toEqual([...standard]);
    h.delete('x-b');
    expect(h.get('x-b')).toBeNull();
    expect(new Headers(h).get('a-header')).toBe('a');
  });
});

describe('Astro bridge', () => {
  // The same steps as @astrojs/node's middleware handler, with Astro's own request builder and response writer.
  const handler: NodeHandler = async (req, res, next) => {
    const request = createRequestFromNodeRequest(req as never);
    const url = new URL(request.url);
    if (url.pathname === '/rendered') {
      const body = request.method === 'POST' ? await request.text() : '';
      await astroWriteResponse(
        new Response(`<h1>${url.searchParams.get('name')} ${body}</h1>`, { status: 201, headers: { 'content-type': 'text/html', 'set-cookie': 'a=1' } }),
        res as never,
      );
      return;
    }
    return next?.();
  };
  const ctxFor = (url: string) => ({
    url: new URL(url),
    clientIp: '192.0.2.1',
    signal: new AbortController().signal,
  });

  it('turns what Astro writes into a Response, streamed, with its status and headers', async () => {
    const fallback = astroFallback(handler);
    const request = new Request('http://localhost/rendered?name=Ada', { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } });
    const res = await fallback(request, ctxFor(request.url) as never);
    expect(res?.status).toBe(201);
    expect(res?.headers.get('content-type')).toBe('text/html');
    expect(res?.headers.get('set-cookie')).toBe('a=1');
    expect(await res?.text()).toBe('<h1>Ada hello</h1>');
  });

  it('answers undefined when Astro has no such route (next)', async () => {
    const request = new Request('http://localhost/elsewhere');
    expect(await astroFallback(handler)(request, ctxFor(request.url) as never)).toBeUndefined();
  });

  it('is the last step of the pipeline, after routes and static files', async () => {
    const app = createApp({
      env: readConfig({}),
      data: new DataStore(async () => new Response(null, { status: 404 })),
      log: quiet(),
      routes: [],
      fallback: astroFallback(handler),
    });
    const res = await app.fetch(new Request('http://localhost/rendered?name=Bo'), { clientIp: '127.0.0.1' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await res.text()).toBe('<h1>Bo </h1>');
    expect((await app.fetch(new Request('http://localhost/missing'), { clientIp: '127.0.0.1' })).status).toBe(404);
  });
});

describe('createApp in process', () => {
  const app = (routes: Parameters<typeof createApp>[0]['routes'], log = quiet()) =>
    createApp({ env: readConfig({}), data: new DataStore(async () => new Response(null, { status: 404 })), log, routes });

  it('keeps a handler’s own headers and adds the pipeline’s, even to immutable responses', async () => {
    const a = app([
      { path: '/own', methods: { GET: () => json({ ok: true }, { headers: { 'Referrer-Policy': 'no-referrer' } }) } },
      { path: '/redirect', methods: { GET: () => Response.redirect('http://localhost/own', 302) } },
    ]);
    const own = await a.fetch(new Request('http://localhost/own'), { clientIp: '1.1.1.1' });
    expect(own.headers.get('referrer-policy')).toBe('no-referrer');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    const redirect = await a.fetch(new Request('http://localhost/redirect'), { clientIp: '1.1.1.1' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('http://localhost/own');
    expect(redirect.headers.get('x-ratelimit-remaining')).toBe('58');
  });

  it('answers HEAD on a GET route without a body, and never rejects', async () => {
    const log = quiet();
    const a = app([{ path: '/x', methods: { GET: () => json({ big: 'x'.repeat(100) }) } }], log);
    const head = await a.fetch(new Request('http://localhost/x', { method: 'HEAD' }), { clientIp: '1.1.1.1' });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    // GET's length, counted from the body the handler made (a host may otherwise announce 0 of its own).
    expect(head.headers.get('content-length')).toBe(String(JSON.stringify({ big: 'x'.repeat(100) }).length));
    // Even a failure of the pipeline's own steps (here: a host that passed no address) is an answer, not a rejection.
    const broken = await a.fetch(new Request('http://localhost/x'), { clientIp: undefined as never });
    expect(broken.status).toBe(500);
    expect(((await broken.json()) as { error: { code: string } }).error.code).toBe('internal_error');
    expect(log.lines.some(([level, m]) => level === 'error' && m === 'pipeline failure')).toBe(true);
  });

  it('enforces the contract default of 60 per minute when nothing is configured', async () => {
    const a = app([{ path: '/x', methods: { GET: () => json({}) } }]);
    for (let i = 0; i < 60; i++) expect((await a.fetch(new Request('http://localhost/x'), { clientIp: '9.9.9.9' })).status).toBe(200);
    const limited = await a.fetch(new Request('http://localhost/x'), { clientIp: '9.9.9.9' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('precompression', () => {
  it('writes .br and .gz beside text files worth compressing, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'precompress-'));
    mkdirSync(join(dir, '.well-known'));
    const text = 'podcast '.repeat(500);
    writeFileSync(join(dir, 'big.json'), text);
    writeFileSync(join(dir, '.well-known', 'api-catalog'), text);
    writeFileSync(join(dir, 'small.txt'), 'tiny');
    writeFileSync(join(dir, 'audio.mp3'), Buffer.alloc(4096, 7));
    const result = await precompressDir(dir);
    expect(result.files).toBe(2);
    expect(brotliDecompressSync(readFileSync(join(dir, 'big.json.br'))).toString()).toBe(text);
    expect(gunzipSync(readFileSync(join(dir, 'big.json.gz'))).toString()).toBe(text);
    expect(existsSync(join(dir, '.well-known', 'api-catalog.br'))).toBe(true);
    expect(existsSync(join(dir, 'small.txt.br'))).toBe(false);
    expect(existsSync(join(dir, 'audio.mp3.gz'))).toBe(false);
  });

  it('hashes inline scripts for the CSP, not external or data blocks', () => {
    const html = '<script>alert(1)</script><script type="module">import "x"</script><script src="/a.js"></script><script type="application/ld+json">{}</script>';
    const hashes = inlineScriptHashes(Buffer.from(html));
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toMatch(/^sha256-[A-Za-z0-9+/]+=*$/);
  });

  it('hashes a script as the UTF-8 bytes a browser hashes, whatever characters the page and the script hold', () => {
    const script = 'document.title = "Café ☕ – 🐝 naïve";';
    const page = `<p>Épisode 🎙 · ${'é'.repeat(3)}</p><script type="module">${script}</script><p>fin</p>`;
    const sha256 = (text: string) => `sha256-${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('base64')}`;
    expect(inlineScriptHashes(Buffer.from(page))).toEqual([sha256(script)]);
  });

  it('reads attribute names as HTML does: data-src is not src, a no-break space is not a space, a slash is', () => {
    const page = '<script data-src="/x.js">one()</script><script src\u00a0="/y.js">two()</script><script\tsrc = "/z.js"></script><script/src="/w.js"></script>';
    const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
    expect(inlineScriptHashes(Buffer.from(page))).toEqual([sha256('one()'), sha256('two()')]);
  });
});
