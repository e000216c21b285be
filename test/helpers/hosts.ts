/**
 * Starts the service on any of its hosts, the way its README says to (npm start, npm run preview:cloudflare,
 * npm run preview:bun), on 127.0.0.1 and a free port, serving a given build; the same black-box tests then run
 * against each. Every host logs one line that says where it listens; that line is awaited, never a sleep.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { startServer, type RunningServer } from './server.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export type HostName = 'node' | 'cloudflare' | 'bun';
export const HOSTS: HostName[] = ['node', 'cloudflare', 'bun'];

/** A port nobody listens on right now (workerd needs a number up front; the others take port 0). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export async function startHost(host: HostName, options: { distDir: string; env?: Record<string, string> }): Promise<RunningServer> {
  if (host === 'node') return startServer(options);
  const port = host === 'cloudflare' ? await freePort() : 0;
  const persist = host === 'cloudflare' ? mkdtempSync(join(tmpdir(), 'workerd-state-')) : undefined;
  const command =
    host === 'cloudflare'
      ? [process.execPath, [resolve(ROOT, 'hosts/cloudflare/preview.ts')]]
      : [resolve(ROOT, 'node_modules/.bin/bun'), [resolve(ROOT, 'hosts/bun/serve.ts')]];
  const child = spawn(command[0] as string, command[1] as string[], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DIST_DIR: options.distDir,
      LOG_LEVEL: 'info',
      ...(persist ? { WRANGLER_PERSIST_DIR: persist } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: RunningServer['logs'] = [];
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const listening = new Promise<string>((done, fail) => {
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        let entry: Record<string, unknown> | string = line;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {}
        logs.push(entry);
        if (typeof entry === 'object' && entry.msg === 'listening') done(String(entry.url));
        // wrangler dev: "Ready on http://127.0.0.1:PORT"
        const ready = typeof entry === 'string' ? /Ready on (http:\/\/\S+)/.exec(entry) : null;
        if (ready) done(ready[1]!);
      });
    }
    void exited.then((code) => fail(new Error(`${host} host exited (${code}) before listening:\n${logs.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}`)));
  });
  const url = (await listening).replace(/\/$/, '');
  return {
    url,
    port: Number(new URL(url).port),
    process: child,
    logs,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      if (persist) rmSync(persist, { recursive: true, force: true });
      return code;
    },
  };
}
