/**
 * The shared rate limit: two server processes pointed at one real redis-server (Debian package, started here
 * on a free loopback port, no persistence) count against one budget per client; killing Redis mid-test leaves
 * the service answering (fail open: counting in each process meanwhile), and it goes back to the shared budget
 * when Redis returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import { startRedis, stopRedis as stopShared } from '../helpers/redis.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import { freePort, raw, waitForLog } from './util.ts';

let redisPort: number;
let redis: ChildProcess | undefined;
let a: RunningServer;
let b: RunningServer;

async function stopRedis(signal: NodeJS.Signals): Promise<void> {
  const child = redis;
  redis = undefined;
  await stopShared(child, signal);
}

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}` };
  [a, b] = await Promise.all([startServer({ distDir: inject('distDir'), env }), startServer({ distDir: inject('distDir'), env })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await stopRedis('SIGTERM');
});

describe('two processes, one Redis', () => {
  it('connect to Redis at start', () => {
    for (const s of [a, b]) expect(s.logs.some((l) => typeof l === 'object' && l.msg === 'rate limit store connected')).toBe(true);
  });

  it('share one budget per client: 60 in all, then 429 from either', async () => {
    for (let i = 1; i <= 60; i++) {
      const server = i % 2 ? a : b;
      const res = await raw(server.url, i % 3 ? '/episodes.json' : '/status');
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('60');
      expect(res.headers['x-ratelimit-remaining'], `request ${i}`).toBe(String(60 - i));
    }
    for (const server of [a, b]) {
      const res = await raw(server.url, '/episodes.json');
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(ErrorEnvelopeSchema.parse(JSON.parse(res.body.toString())).error.code).toBe('rate_limited');
    }
  });

  it('keep answering when Redis dies (no 500, no hang), log it, and share the budget again when it is back', async () => {
    const fromA = a.logs.length;
    const fromB = b.logs.length;
    await stopRedis('SIGKILL');

    // Fail open: answered, with rate-limit headers, counted in each process meanwhile.
    for (let i = 0; i < 5; i++) {
      for (const server of [a, b]) {
        const res = await raw(server.url, '/episodes.json');
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('60');
        expect(Number(res.headers['x-ratelimit-remaining'])).toBeLessThan(60);
      }
    }
    await waitForLog(a, (e) => e.msg === 'rate limit store unavailable; counting in this process until Redis is back', fromA);
    await waitForLog(b, (e) => e.msg === 'rate limit store unavailable; counting in this process until Redis is back', fromB);
    expect(a.logs.slice(fromA).some((l) => typeof l === 'object' && l.status === 500)).toBe(false);

    // Redis returns (empty: no persistence), the clients reconnect on their own.
    redis = await startRedis(redisPort);
    await waitForLog(a, (e) => e.msg === 'rate limit store reconnected', fromA, 20_000);
    await waitForLog(b, (e) => e.msg === 'rate limit store reconnected', fromB, 20_000);
    const first = await raw(a.url, '/episodes.json');
    const second = await raw(b.url, '/episodes.json');
    const third = await raw(a.url, '/episodes.json');
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect([first, second, third].map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['59', '58', '57']);
  });
});
