/**
 * What the request pipeline costs: one prebuilt document, requested with autocannon, from three servers started
 * side by side in the same run, each in a process of its own:
 *
 *   pipeline     the real server (hosts/node/main.ts): access log, error boundary, security headers, CORS,
 *                rate limit, bearer check, routing, the static responder (ETag, negotiation), all of it
 *   bare-memory  node:http answering the same bytes from memory: Node's own floor
 *   bare-static  node:http as a plain static file handler: stat + read stream of the same file per request
 *
 * Rounds alternate between the servers so drift (other load, CPU frequency) hits all three alike; the figure is
 * the median over rounds. The rate limit stays in the path but is raised (RATE_LIMIT_MAX) so it counts without
 * throttling; the contract's default of 60 per minute is untouched.
 *
 *   node bench/pipeline.ts [--dist <ASTRO_OUT_DIR>] [--path /episodes.json] [--connections 20] [--duration 5] [--rounds 3]
 *
 * Without --dist the sample podcast is built into .test-build/bench-pipeline-<pid> first (removed afterwards).
 * Prints a table and one JSON line. `npm run bench:pipeline` runs it with the defaults.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { withUsage } from './lib/args.ts';
import autocannon from 'autocannon';
import { contentTypeFor } from '../contract/http-policy.ts';

const ROOT = resolve(import.meta.dirname, '..');

const USAGE = 'Usage: npm run bench:pipeline -- [--dist <ASTRO_OUT_DIR>] [--path /episodes.json] [--connections 20] [--duration 5] [--warmup 2] [--rounds 3]';
const { values } = withUsage(USAGE, () =>
  parseArgs({
    options: {
      serve: { type: 'string' },
      file: { type: 'string' },
      dist: { type: 'string' },
      path: { type: 'string', default: '/episodes.json' },
      connections: { type: 'string', default: '20' },
      duration: { type: 'string', default: '5' },
      warmup: { type: 'string', default: '2' },
      rounds: { type: 'string', default: '3' },
    },
  }),
);

/** Set once the bench stops the servers itself, so only an unexpected exit is reported. */
let stopping = false;

if (values.serve) serveBaseline(values.serve, values.file!);
else await main();

/** A child process: one of the bare baselines. */
function serveBaseline(mode: string, file: string): void {
  const type = contentTypeFor(`/${file.split('/').pop()}`);
  const body = readFileSync(file);
  const memoryHeaders = { 'Content-Type': type, 'Content-Length': String(body.length) };
  const server = createServer((req, res) => {
    if (mode === 'bare-memory') {
      res.writeHead(200, memoryHeaders);
      res.end(body);
      return;
    }
    // bare-static: what a minimal static handler does for every request.
    let stat;
    try {
      stat = statSync(file);
    } catch {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': String(stat.size), 'Last-Modified': stat.mtime.toUTCString() });
    createReadStream(file).pipe(res);
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}/` }));
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

interface Running {
  name: string;
  url: string;
  child: ChildProcess;
}

async function start(name: string, args: string[], env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + String(d)).slice(-4000);
  });
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`${name} exited unexpectedly (${code ?? signal}):\n${stderr}`);
  });
  const url = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) {
          // Keep draining stdout (the pipeline's access log) so the pipe never fills up and stalls the server.
          lines.removeAllListeners('line');
          lines.on('line', () => {});
          done(entry.url.replace(/\/$/, ''));
        }
      } catch {
        // not JSON
      }
    });
    child.once('exit', (code) => fail(new Error(`${name} exited (${code}) before listening`)));
  });
  return { name, url, child };
}

/** CPU seconds a process has used so far (Linux /proc; NaN elsewhere). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function fire(url: string, connections: number, duration: number) {
  return autocannon({ url, connections, duration, timeout: 10 });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

async function main(): Promise<void> {
  const path = values.path!;
  const connections = Number(values.connections);
  const duration = Number(values.duration);
  const warmup = Number(values.warmup);
  const rounds = Number(values.rounds);
  let dist = values.dist ? resolve(values.dist) : undefined;
  const built = !dist;
  if (!dist) {
    const { buildSite } = await import('../test/helpers/build.ts');
    console.error('building the sample podcast…');
    dist = await buildSite({ name: 'bench-pipeline' });
  }
  const file = join(dist, 'client', path);
  if (!existsSync(file)) throw new Error(`${file} does not exist: is ${path} a prebuilt document of this build?`);

  const servers = [
    await start('pipeline', ['hosts/node/main.ts'], {
      HOST: '127.0.0.1',
      PORT: '0',
      DIST_DIR: dist,
      LOG_LEVEL: 'info',
      RATE_LIMIT_MAX: '1000000000',
      REDIS_URL: '',
    }),
    await start('bare-memory', ['bench/pipeline.ts', '--serve', 'bare-memory', '--file', file]),
    await start('bare-static', ['bench/pipeline.ts', '--serve', 'bare-static', '--file', file]),
  ];
  try {
    // Same document, same bytes: the comparison is only fair if all three answer identically.
    const bodies = await Promise.all(servers.map(async (s) => Buffer.from(await (await fetch(`${s.url}${path}`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer())));
    if (!bodies.every((b) => b.equals(bodies[0]!))) throw new Error('the servers do not answer the same bytes');

    for (const s of servers) await fire(`${s.url}${path}`, connections, warmup);
    const results = new Map<string, { rps: number[]; p99: number[]; cpuUs: number[]; non2xx: number; errors: number }>(
      servers.map((s) => [s.name, { rps: [], p99: [], cpuUs: [], non2xx: 0, errors: 0 }]),
    );
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 ? [...servers].reverse() : servers) {
        const cpuBefore = cpuSeconds(s.child.pid);
        const r = await fire(`${s.url}${path}`, connections, duration);
        const cpu = cpuSeconds(s.child.pid) - cpuBefore;
        const entry = results.get(s.name)!;
        entry.cpuUs.push((cpu / Math.max(1, r.requests.total)) * 1e6);
        entry.rps.push(r.requests.average);
        entry.p99.push(r.latency.p99);
        entry.non2xx += r.non2xx;
        entry.errors += r.errors + r.timeouts;
      }
    }
    const summary = servers.map((s) => {
      const e = results.get(s.name)!;
      return {
        name: s.name,
        reqPerSec: Math.round(median(e.rps)),
        p99Ms: median(e.p99),
        cpuUsPerRequest: Math.round(median(e.cpuUs) * 10) / 10,
        runs: e.rps.map(Math.round),
        non2xx: e.non2xx,
        errors: e.errors,
      };
    });
    const [pipe, bare, stat] = summary as [(typeof summary)[0], (typeof summary)[0], (typeof summary)[0]];
    const ratioBare = pipe.reqPerSec / bare.reqPerSec;
    const ratioStatic = pipe.reqPerSec / stat.reqPerSec;

    console.log(`\n${path} (${bodies[0]!.byteLength} bytes), ${connections} connections, ${rounds} × ${duration} s per server\n`);
    console.log('| server | req/s (median) | p99 ms | server CPU µs/request | runs (req/s) | non-2xx | errors |');
    console.log('|---|---:|---:|---:|---|---:|---:|');
    for (const r of summary) {
      console.log(`| ${r.name} | ${r.reqPerSec} | ${r.p99Ms} | ${r.cpuUsPerRequest} | ${r.runs.join(', ')} | ${r.non2xx} | ${r.errors} |`);
    }
    console.log(`\npipeline / bare-memory: ${ratioBare.toFixed(2)}× the requests per second (goal ≥ 0.5×)`);
    console.log(`pipeline / bare-static: ${ratioStatic.toFixed(2)}×`);
    console.log(`server CPU per request, bare-memory / pipeline: ${(bare.cpuUsPerRequest / pipe.cpuUsPerRequest).toFixed(2)}× (the same ratio with the load generator's share taken out)`);
    const valid = summary.every((r) => r.non2xx === 0 && r.errors === 0);
    if (!valid) console.log('WARNING: some answers were not 2xx or failed; the figures are not comparable.');
    console.log(JSON.stringify({ bench: 'pipeline', path, bytes: bodies[0]!.byteLength, connections, duration, rounds, servers: summary, ratioBare, ratioStatic, valid }));
  } finally {
    stopping = true;
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => (s.child.exitCode === null ? new Promise((done) => s.child.once('exit', done)) : undefined)));
    // A build made for this run only is removed again; one passed with --dist is left alone.
    if (built) for (const d of [dist, `${dist}-cache`]) rmSync(d, { recursive: true, force: true });
  }
}
