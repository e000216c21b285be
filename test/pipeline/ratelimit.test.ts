/**
 * The contract's rate limit with the in-memory store, over real HTTP: exactly 60 per window per client on every
 * path a CDN host sends to its function (the website's own files are not counted), request 61 answered 429, the window's reset, and who the client is (socket address unless TRUST_PROXY).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { raw, waitForLog, type RawResponse } from './util.ts';

const running: RunningServer[] = [];
async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ distDir: inject('distDir'), env });
  running.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

function expectLimitHeaders(res: RawResponse, limit: number, remaining: number) {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}

function expect429(res: RawResponse, limit: number) {
  expect(res.status).toBe(429);
  expectLimitHeaders(res, limit, 0);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const body = ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString()));
  expect(body.error.code).toBe('rate_limited');
  expect(body.error.hint).toContain('Retry-After');
  // Browser apps must be able to read why.
  expect(res.headers['access-control-allow-origin']).toBe('*');
}

describe('the limit', () => {
  it('allows exactly 60 requests per minute per client, on every path; request 61 is 429 with Retry-After', async () => {
    const server = await serve();
    // A mix of prebuilt documents, an API route and 404s: all of them count.
    const paths = ['/episodes.json', '/rss.xml', '/status', '/no-such-page', '/llms.txt', `/audio/${'x'}.mp3`];
    let reset: string | undefined;
    for (let i = 1; i <= 60; i++) {
      const res = await raw(server.url, paths[i % paths.length]!);
      expect(res.status, `request ${i}`).not.toBe(429);
      expectLimitHeaders(res, 60, 60 - i);
      reset ??= String(res.headers['x-ratelimit-reset']);
      expect(res.headers['x-ratelimit-reset']).toBe(reset);
    }
    const resetAt = Number(reset) * 1000;
    expect(resetAt).toBeGreaterThan(Date.now());
    expect(resetAt).toBeLessThanOrEqual(Date.now() + 61_000);
    expect429(await raw(server.url, '/episodes.json'), 60);
    // Every path, every method, including writes and preflights.
    expect429(await raw(server.url, '/status'), 60);
    expect429(await raw(server.url, '/episodes.json', { method: 'POST', body: 'x' }), 60);
    expect429(await raw(server.url, '/episodes.json', { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' } }), 60);
  });

  it("does not count the website's own files (pages, scripts, audio), as a CDN would not: browsing never meets a 429", async () => {
    const server = await serve({ RATE_LIMIT_MAX: '3' });
    const home = await raw(server.url, '/');
    const script = /src="(\/_astro\/[^"]+\.js)"/.exec(home.body.toString())?.[1];
    expect(script).toBeDefined();
    const audio = `/audio/${readdirSync(join(inject('distDir'), 'client', 'audio')).find((f) => f.endsWith('.mp3'))}`;
    for (let i = 0; i < 3; i++) expect((await raw(server.url, '/episodes.json')).status).toBe(200);
    expect429(await raw(server.url, '/episodes.json'), 3);
    // The budget is spent, and a listener goes on: pages (a directory's index too), a script, seeks in the audio.
    for (const [path, headers] of [
      ['/', {}],
      ['/episodes/', {}],
      [script!, {}],
      [audio, { range: 'bytes=0-99' }],
      [audio, { range: 'bytes=1000-1099' }],
    ] as Array<[string, Record<string, string>]>) {
      const res = await raw(server.url, path, { headers });
      expect(res.status, path).toBeLessThan(300);
      expect(res.headers['x-ratelimit-remaining'], path).toBeUndefined();
    }
    // What reaches the function on a CDN host is still counted: a document, an API route, an unknown page, a write
    // to a page, and a path that only looks like a page.
    expect429(await raw(server.url, '/rss.xml'), 3);
    expect429(await raw(server.url, '/status'), 3);
    expect429(await raw(server.url, '/episodes/999-no-such-episode/', { headers: { accept: 'text/html' } }), 3);
    expect429(await raw(server.url, '/', { method: 'POST', body: 'x' }), 3);
    expect429(await raw(server.url, '/episodes%5c'), 3);
  });

  it('a new window starts once the old one ends (RATE_LIMIT_WINDOW_MS for the test)', async () => {
    const server = await serve({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '1500' });
    for (let i = 1; i <= 3; i++) expect((await raw(server.url, '/episodes.json')).status).toBe(200);
    const limited = await raw(server.url, '/episodes.json');
    expect429(limited, 3);
    // Wait for the moment the server said the window resets, and no longer.
    await sleep(Math.max(0, Number(limited.headers['x-ratelimit-reset']) * 1000 - Date.now()) + 50);
    const fresh = await raw(server.url, '/episodes.json');
    expect(fresh.status).toBe(200);
    expectLimitHeaders(fresh, 3, 2);
  });
});

describe('who the client is', () => {
  it('without TRUST_PROXY a spoofed X-Forwarded-For / Forwarded buys no fresh budget', async () => {
    const server = await serve({ RATE_LIMIT_MAX: '5' });
    for (let i = 1; i <= 5; i++) {
      const res = await raw(server.url, '/episodes.json', { headers: { 'x-forwarded-for': `203.0.113.${i}`, forwarded: `for=198.51.100.${i}` } });
      expect(res.status).toBe(200);
      expectLimitHeaders(res, 5, 5 - i);
    }
    expect429(await raw(server.url, '/episodes.json', { headers: { 'x-forwarded-for': '203.0.113.99' } }), 5);
    await waitForLog(server, (e) => e.msg === 'request' && e.ip === '127.0.0.1');
  });

  it('with TRUST_PROXY=1 the address the proxy appended is the client, and what the client prepends is ignored', async () => {
    const server = await serve({ RATE_LIMIT_MAX: '3', TRUST_PROXY: '1' });
    const as = (xff: string) => raw(server.url, '/episodes.json', { headers: { 'x-forwarded-for': xff } });
    for (let i = 1; i <= 3; i++) expect((await as('198.51.100.7')).status).toBe(200);
    expect429(await as('198.51.100.7'), 3);
    // The client forges an earlier hop; the proxy appends the real address: still the same client.
    expect429(await as('10.9.8.7, 198.51.100.7'), 3);
    // Another client behind the proxy has a budget of its own.
    const other = await as('192.0.2.44');
    expect(other.status).toBe(200);
    expectLimitHeaders(other, 3, 2);
    // A Forwarded header is the client's own (this proxy writes X-Forwarded-For): it names no budget.
    expect429(await raw(server.url, '/episodes.json', { headers: { forwarded: 'for=192.0.2.45', 'x-forwarded-for': '198.51.100.7' } }), 3);
  });

  it('with TRUST_PROXY_HEADER=forwarded the RFC 7239 address is the client, and an X-Forwarded-For the client sends is ignored', async () => {
    const server = await serve({ RATE_LIMIT_MAX: '3', TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'Forwarded' });
    const as = (xff: string) => raw(server.url, '/episodes.json', { headers: { forwarded: 'for="[2001:db8::1]:4711"', 'x-forwarded-for': xff } });
    // A client behind a proxy that writes only Forwarded, sending a fresh X-Forwarded-For each time: one budget.
    for (let i = 1; i <= 3; i++) expectLimitHeaders(await as(`9.9.8.${i}`), 3, 3 - i);
    expect429(await as('9.9.8.4'), 3);
    await waitForLog(server, (e) => e.msg === 'request' && e.ip === '2001:db8::1');
  });
});
