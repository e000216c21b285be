/**
 * The same build on every host, under the same load, in one run: Node (`npm start`), workerd (`npm run
 * preview:cloudflare`) and Bun (`npm run preview:bun`), beside a bare node:http server answering the same bytes
 * of /episodes.json from memory (the floor any Node host can reach). Rounds alternate between the servers so
 * drift hits them alike; figures are medians over rounds. The rate limit is raised so it counts without
 * throttling.
 *
 *   node bench/hosts.ts [--dist <ASTRO_OUT_DIR>] [--connections 10] [--duration 5] [--rounds 2]
 *
 * Without --dist the sample podcast is built first (into .test-build/bench-hosts-<pid>, removed afterwards).
 * Prints a table and one JSON line (`npm run bench:hosts`).
 */
import { createServer } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { withUsage } from './lib/args.ts';
import { buildSite } from '../test/helpers/build.ts';
import { startHost, type HostName } from '../test/helpers/hosts.ts';
import { load, type LoadResult, type Target } from './lib/http.ts';
import { median } from './lib/stats.ts';

const USAGE = 'Usage: npm run bench:hosts -- [--dist <ASTRO_OUT_DIR>] [--connections 10] [--duration 5] [--warmup 1] [--rounds 2] [--hosts node,cloudflare,bun]';
const { values } = withUsage(USAGE, () =>
  parseArgs({
    options: {
      dist: { type: 'string' },
      connections: { type: 'string', default: '10' },
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '2' },
      hosts: { type: 'string', default: 'node,cloudflare,bun' },
    },
  }),
);

const QUERIES = ['honeybee', 'sourdough starter', 'volcano tremor', 'bridge resonance', 'tide tables', 'jazz modes'];
const targets: Target[] = [
  { name: '/episodes.json', paths: ['/episodes.json'] },
  { name: '/api/search', paths: QUERIES.map((q) => `/api/search?q=${encodeURIComponent(q)}`) },
];

const distDir = values.dist ?? (await buildSite({ name: 'bench-hosts' }));
// As in the other benches: the access log stays on (info), as in production.
const env = { RATE_LIMIT_MAX: '1000000000', LOG_LEVEL: 'info' };
const hostNames = values.hosts.split(',') as HostName[];
const servers = [];
for (const host of hostNames) servers.push({ name: host, server: await startHost(host, { distDir, env }) });

// The floor: node:http answering /episodes.json's bytes from memory, nothing else.
const body = readFileSync(join(distDir, 'client', 'episodes.json'));
const bare = createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) });
  res.end(body);
});
await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;

const options = { connections: Number(values.connections), duration: Number(values.duration), warmup: Number(values.warmup) };
const samples = new Map<string, LoadResult[]>();
const record = (key: string, result: LoadResult) => samples.set(key, [...(samples.get(key) ?? []), result]);
try {
  for (let round = 0; round < Number(values.rounds); round++) {
    record('bare node:http|/episodes.json', await load(bareUrl, targets[0]!, options));
    for (const { name, server } of servers) {
      for (const target of targets) record(`${name}|${target.name}`, await load(server.url, target, options, name === 'node' ? server.process.pid : undefined));
    }
  }
} finally {
  for (const { server } of servers) await server.stop();
  bare.close();
  if (!values.dist) rmSync(distDir, { recursive: true, force: true });
}

const baseline = median((samples.get('bare node:http|/episodes.json') ?? []).map((r) => r.reqPerSec));
const rows = [...samples].map(([key, results]) => {
  const [host, path] = key.split('|') as [string, string];
  const rps = median(results.map((r) => r.reqPerSec));
  return {
    host,
    path,
    reqPerSec: Math.round(rps),
    p99Ms: median(results.map((r) => r.p99)),
    ratioToBare: path === '/episodes.json' ? Number((rps / baseline).toFixed(3)) : undefined,
    valid: results.every((r) => r.valid),
  };
});
console.log(`\nHosts under load (${options.connections} connections, ${options.duration} s × ${values.rounds} rounds, medians)\n`);
console.log('| host | path | req/s | p99 ms | ÷ bare node:http | valid |\n|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.host} | ${r.path} | ${r.reqPerSec} | ${r.p99Ms} | ${r.ratioToBare ?? ''} | ${r.valid ? 'yes' : 'NO'} |`);
console.log(JSON.stringify({ bench: 'hosts', date: new Date().toISOString(), options, rows }));
