import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { DataStore } from '../data.ts';
import { readServiceEnv } from '../env.ts';
import type { Route } from '../types.ts';

const silent = { info() {}, warn() {}, error() {} };

describe('the response deadline (every host gets it from the pipeline)', () => {
  it('answers 503 unavailable with Retry-After when a handler has not answered in time, and aborts its signal', async () => {
    let aborted: Promise<void> | undefined;
    const hang: Route = {
      path: '/hang',
      methods: {
        GET: (_request, ctx) =>
          new Promise<Response>(() => {
            aborted = new Promise((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
          }),
      },
    };
    const app = createApp({
      env: readServiceEnv({ RESPONSE_TIMEOUT_MS: '20' }),
      data: new DataStore(async () => new Response(null, { status: 404 })),
      log: silent,
      routes: [hang],
    });
    const res = await app.fetch(new Request('http://127.0.0.1/hang'), { clientIp: '127.0.0.1' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    await expect(aborted).resolves.toBeUndefined();
  });

  it('lets an answer that starts in time through untouched', async () => {
    const quick: Route = { path: '/quick', methods: { GET: () => new Response('ok') } };
    const app = createApp({
      env: readServiceEnv({ RESPONSE_TIMEOUT_MS: '1000' }),
      data: new DataStore(async () => new Response(null, { status: 404 })),
      log: silent,
      routes: [quick],
    });
    const res = await app.fetch(new Request('http://127.0.0.1/quick'), { clientIp: '127.0.0.1' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });
});
