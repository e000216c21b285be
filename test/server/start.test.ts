/**
 * `npm start`'s entry (hosts/node/start.ts): on glibc Linux the process runs with MALLOC_ARENA_MAX set (it replaces
 * itself once, keeping its PID, so a supervisor's PID file and signals still reach the server), and a value the
 * operator set is kept.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { MALLOC_ARENAS } from '../../hosts/node/malloc-arenas.ts';

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

const environ = (pid: number) => Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

describe('hosts/node/start.ts (Linux, glibc: the machines CI and the README target)', () => {
  it('serves with MALLOC_ARENA_MAX set, from the process it was started as', async () => {
    const server = await startServer({ distDir: inject('distDir'), entry: 'hosts/node/start.ts', env: { MALLOC_ARENA_MAX: '' } });
    servers.push(server);
    expect((await fetch(`${server.url}/status`)).status).toBe(200);
    expect(environ(server.process.pid!).MALLOC_ARENA_MAX).toBe(MALLOC_ARENAS);
  }, 60_000);

  it('is started by npm start with MALLOC_ARENA_MAX already set (no second start), unless the operator set it', () => {
    const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
    const prefix = /^((?:\w+=\S*\s+)*)node /.exec(script)?.[1];
    expect(prefix).toBeTruthy();
    const arenas = (env: Record<string, string>) =>
      execFileSync('/bin/sh', ['-c', `${prefix}printenv MALLOC_ARENA_MAX`], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' }).trim();
    expect(arenas({})).toBe(MALLOC_ARENAS);
    expect(arenas({ MALLOC_ARENA_MAX: '4' })).toBe('4');
    expect(arenas({ MALLOC_ARENA_MAX: '0' })).toBe('0');
  });

  it("keeps the operator's own MALLOC_ARENA_MAX", async () => {
    const server = await startServer({ distDir: inject('distDir'), entry: 'hosts/node/start.ts', env: { MALLOC_ARENA_MAX: '4' } });
    servers.push(server);
    expect((await fetch(`${server.url}/status`)).status).toBe(200);
    expect(environ(server.process.pid!).MALLOC_ARENA_MAX).toBe('4');
  }, 60_000);
});
