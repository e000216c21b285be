import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Every log line the server printed so far (JSON lines parsed when possible). */
  logs: Array<Record<string, unknown> | string>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the real server (`node hosts/node/main.ts`, as `npm start` does) on 127.0.0.1 and a free port,
 * serving distDir, and resolves once it logs that it is listening.
 */
export async function startServer(options: { distDir: string; env?: Record<string, string>; entry?: string }): Promise<RunningServer> {
  // entry: another script that starts the same server (e.g. with extra test routes); default the real one.
  return spawnService({
    command: process.execPath,
    args: [resolve(ROOT, options.entry ?? 'hosts/node/main.ts')],
    env: { HOST: '127.0.0.1', PORT: '0', DIST_DIR: options.distDir, LOG_LEVEL: 'info', ...options.env },
    name: 'server',
  });
}

/**
 * Spawns a service process and resolves once it says where it listens: a JSON log line `{"msg":"listening","url"}`
 * (hosts/node, hosts/bun) or `readyUrl` matching another line (wrangler's "Ready on http://...").
 */
export async function spawnService(options: {
  command: string;
  args: string[];
  env: Record<string, string>;
  name: string;
  readyUrl?: (line: string) => string | undefined;
  onStop?: () => void;
}): Promise<RunningServer> {
  const child = spawn(options.command, options.args, { cwd: ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
        const ready = typeof entry === 'string' ? options.readyUrl?.(entry) : undefined;
        if (ready) done(ready);
      });
    }
    void exited.then((code) => fail(new Error(`${options.name} exited (${code}) before listening:\n${logs.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}`)));
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
      options.onStop?.();
      return code;
    },
  };
}
