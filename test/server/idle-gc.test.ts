/**
 * The Node host returns the memory V8 keeps after a burst of requests once it goes quiet (hosts/node/idle-gc.ts):
 * started as npm start starts it (--expose-gc), it logs one "idle collection" after its requests and IDLE_GC_MS of
 * quiet, with the process's resident memory before and after.
 */
import { resolve } from 'node:path';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { spawnService, type RunningServer } from '../helpers/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

const start = (nodeFlags: string[]) =>
  spawnService({
    command: process.execPath,
    args: [...nodeFlags, resolve(ROOT, 'hosts/node/main.ts')],
    env: { HOST: '127.0.0.1', PORT: '0', DIST_DIR: inject('distDir'), LOG_LEVEL: 'info', IDLE_GC_MS: '200' },
    name: 'server',
  });
const collections = (s: RunningServer) => s.logs.filter((l): l is Record<string, unknown> => typeof l === 'object' && l.msg === 'idle collection');

describe('idle collection (hosts/node/idle-gc.ts) in the real host', () => {
  it('runs once after requests and a quiet spell when V8 collections are exposed, and says what it returned', async () => {
    const server = await start(['--expose-gc']);
    servers.push(server);
    for (const q of ['bees', 'tide', 'sourdough']) expect((await fetch(`${server.url}/api/search?q=${q}`)).status).toBe(200);
    await vi.waitFor(() => expect(collections(server)).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [entry] = collections(server);
    expect(entry).toMatchObject({ level: 'info', duration_ms: expect.any(Number), rss_before: expect.any(Number), rss_after: expect.any(Number) });
    expect(entry!.rss_after as number).toBeGreaterThan(0);
    // The server still answers after it.
    expect((await fetch(`${server.url}/api/search?q=bees`)).status).toBe(200);
  }, 60_000);

  it('is off without --expose-gc: the server starts and answers, and logs none', async () => {
    const server = await start([]);
    servers.push(server);
    expect((await fetch(`${server.url}/status`)).status).toBe(200);
    // A second server that does collect gives this one the same quiet spell to have logged one in.
    const witness = await start(['--expose-gc']);
    servers.push(witness);
    expect((await fetch(`${witness.url}/status`)).status).toBe(200);
    await vi.waitFor(() => expect(collections(witness)).toHaveLength(1), { timeout: 15_000, interval: 50 });
    expect(collections(server)).toHaveLength(0);
  }, 60_000);
});
