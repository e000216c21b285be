/**
 * `npm start`'s entry (hosts/node/start.ts): on glibc Linux the process runs with glibc's malloc settings
 * (hosts/node/glibc-malloc.ts: MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_) set (it replaces itself once, keeping its
 * PID, so a supervisor's PID file and signals still reach the server), and a value the operator set is kept.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { MALLOC_SETTINGS } from '../../hosts/node/glibc-malloc.ts';

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

const environ = (pid: number) => Object.fromEntries(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

describe('hosts/node/start.ts (Linux, glibc: the machines CI and the README target)', () => {
  it("serves with glibc's malloc settings set, from the process it was started as", async () => {
    const server = await startServer({ distDir: inject('distDir'), entry: 'hosts/node/start.ts', env: { MALLOC_ARENA_MAX: '', MALLOC_MMAP_THRESHOLD_: '' } });
    servers.push(server);
    expect((await fetch(`${server.url}/status`)).status).toBe(200);
    expect(environ(server.process.pid!)).toMatchObject(MALLOC_SETTINGS);
  }, 60_000);

  it("is started by npm start with glibc's malloc settings already set (no second start), unless the operator set them", () => {
    const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
    const prefix = /^((?:\w+=\S*\s+)*)exec node /.exec(script)?.[1];
    expect(prefix).toBeTruthy();
    const printed = (name: string, env: Record<string, string>) =>
      execFileSync('/bin/sh', ['-c', `${prefix}printenv ${name}`], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' }).trim();
    for (const [name, value] of Object.entries(MALLOC_SETTINGS)) {
      expect(printed(name, {})).toBe(value);
      expect(printed(name, { [name]: '4' })).toBe('4');
      expect(printed(name, { [name]: '0' })).toBe('0');
    }
  });

  it("keeps the operator's own values, and sets the one they left out", async () => {
    const server = await startServer({ distDir: inject('distDir'), entry: 'hosts/node/start.ts', env: { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '' } });
    servers.push(server);
    expect((await fetch(`${server.url}/status`)).status).toBe(200);
    const env = environ(server.process.pid!);
    expect(env.MALLOC_ARENA_MAX).toBe('4');
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe(MALLOC_SETTINGS.MALLOC_MMAP_THRESHOLD_);
    const own = await startServer({ distDir: inject('distDir'), entry: 'hosts/node/start.ts', env: { MALLOC_ARENA_MAX: '', MALLOC_MMAP_THRESHOLD_: '65536' } });
    servers.push(own);
    expect((await fetch(`${own.url}/status`)).status).toBe(200);
    expect(environ(own.process.pid!)).toMatchObject({ MALLOC_ARENA_MAX: MALLOC_SETTINGS.MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_: '65536' });
  }, 60_000);
});

describe('a signal to npm start', () => {
  it("reaches the server, not only npm and its shell: SIGTERM to npm's process drains and stops the service", async () => {
    const { spawn } = await import('node:child_process');
    const { createInterface } = await import('node:readline');
    // What a process manager or `kill $!` signals is npm's own process. Through `sh -c` the server was a grandchild
    // npm never signalled: it went on serving, orphaned, and a SIGHUP never reached it.
    const npm = spawn('npm', ['start'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DIST_DIR: inject('distDir') }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    const exited = new Promise<number | null>((done) => npm.once('exit', (code) => done(code)));
    const listening = new Promise<{ pid: number }>((done, fail) => {
      for (const stream of [npm.stdout, npm.stderr]) {
        createInterface({ input: stream }).on('line', (line) => {
          lines.push(line);
          if (line.includes('"msg":"listening"')) done(JSON.parse(line) as { pid: number });
        });
      }
      void exited.then((code) => fail(new Error(`npm start exited (${code}) before listening:\n${lines.join('\n')}`)));
    });
    const { pid } = await listening;
    try {
      // The server is npm's own child: the script execs node in place of the shell.
      expect(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]).toBe(String(npm.pid));
      npm.kill('SIGTERM');
      await exited;
      expect(lines.some((l) => l.includes('"msg":"stopped"') && l.includes('"reason":"SIGTERM"'))).toBe(true);
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    } finally {
      // A server left behind by a failure here must not outlive the test.
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
      npm.kill('SIGKILL');
    }
  }, 60_000);
});

describe('a signal while npm start builds first', () => {
  it('is passed on to the build, which stops with the service instead of writing on into the folder alone', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtempSync, readdirSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createInterface } = await import('node:readline');
    const dist = mkdtempSync(join(tmpdir(), 'start-signal-'));
    const child = spawn(process.execPath, ['hosts/node/main.ts'], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DIST_DIR: dist, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines: string[] = [];
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      // The build has started once astro prints its first line (after the service's "building first").
      await new Promise<void>((done, fail) => {
        createInterface({ input: child.stdout! }).on('line', (line) => {
          lines.push(line);
          if (lines.some((l) => l.includes('building first')) && !line.includes('building first')) done();
        });
        child.once('exit', () => fail(new Error(`exited before building:\n${lines.join('\n')}`)));
      });
      const builds = () =>
        readdirSync('/proc')
          .filter((p) => /^\d+$/.test(p))
          .filter((p) => {
            try {
              return readFileSync(`/proc/${p}/environ`, 'utf8').includes(`ASTRO_OUT_DIR=${dist}`);
            } catch {
              return false;
            }
          });
      expect(builds().length).toBeGreaterThan(0);
      child.kill('SIGTERM');
      expect(await exited).toBe(1);
      expect(builds()).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      rmSync(dist, { recursive: true, force: true });
    }
  }, 60_000);
});
