/**
 * Starts the service on any of its hosts, the way its README says to (npm start, npm run preview:cloudflare,
 * npm run preview:bun), on 127.0.0.1 and a free port, serving a given build; the same black-box tests then run
 * against each. Every host logs one line that says where it listens; that line is awaited, never a sleep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnService, startServer, type RunningServer } from './server.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export type HostName = 'node' | 'cloudflare' | 'bun';
export const HOSTS: HostName[] = ['node', 'cloudflare', 'bun'];

export async function startHost(host: HostName, options: { distDir: string; env?: Record<string, string> }): Promise<RunningServer> {
  if (host === 'node') return startServer(options);
  const env = { HOST: '127.0.0.1', DIST_DIR: options.distDir, LOG_LEVEL: 'info', ...options.env };
  if (host === 'bun') {
    return spawnService({ command: resolve(ROOT, 'node_modules/.bin/bun'), args: [resolve(ROOT, 'hosts/bun/serve.ts')], env: { ...env, PORT: '0' }, name: 'bun host' });
  }
  const persist = mkdtempSync(join(tmpdir(), 'workerd-state-'));
  return spawnService({
    command: process.execPath,
    args: [resolve(ROOT, 'hosts/cloudflare/preview.ts')],
    // PORT 0: wrangler binds a port the system chooses and names it in its "Ready on" line. A port probed free
    // beforehand was once taken by another test's process in the seconds before wrangler bound it.
    env: { ...env, PORT: '0', WRANGLER_PERSIST_DIR: persist },
    name: 'cloudflare preview',
    readyUrl: (line) => /Ready on (http:\/\/\S+)/.exec(line)?.[1],
    onStop: () => rmSync(persist, { recursive: true, force: true }),
  });
}
