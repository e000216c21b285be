/** Shared by the import tests: where the shared feeds are, a fetch with no network but loopback, a local file server. */
import { createServer, type Server } from 'node:http';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FetchLike } from '../../src/import/fetch.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
/**
 * ../shared/fixtures/feeds from the repository root (CI clones the repo with shared/ beside it). A git worktree sits
 * deeper than the main clone, so the nearest shared/ above the root is used when there is none beside it.
 */
export const FEEDS = ((): string => {
  for (let dir = resolve(ROOT, '..'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared/fixtures/feeds');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return resolve(ROOT, '../shared/fixtures/feeds');
  }
})();
export const FIXTURES = resolve(import.meta.dirname, 'fixtures');
export const FEED_FILES = ['no-agenda.xml', '1865.xml', 'changing-the-tide.xml', 'dk-podcast.xml', 'homegrown-hits.xml'];

/** fetch as on a machine with no network: loopback answers, every other host fails as DNS does offline. */
export const offlineFetch: FetchLike = (url, init) => {
  const host = new URL(url).hostname;
  if (host === '127.0.0.1' || host === 'localhost') return fetch(url, init);
  const cause = Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return Promise.reject(Object.assign(new TypeError('fetch failed'), { cause }));
};

export interface FileServer {
  url: string;
  /** Paths requested so far. */
  requests: string[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 and a free port that answers each path from `files` (404 otherwise). */
export async function serveFiles(files: Map<string, { body: string | Buffer; type: string }>): Promise<FileServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const file = files.get(path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': Buffer.byteLength(file.body) }).end(file.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Runs `node src/import/cli.ts ...args` (what `npm run import -- ...` runs). */
export function runImportCli(args: string[], nodeArgs: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'src/import/cli.ts'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Every file under dir with its contents, for "nothing was written" checks. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}
