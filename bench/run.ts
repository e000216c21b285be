/**
 * The benchmark: for each show size N, generate a seeded corpus, run the real build on it, serve it with the
 * real server, and measure what a growing show costs, beside bare node:http and MiniSearch baselines measured
 * in the same run. Writes bench/results/n<N>.json and regenerates bench/RESULTS.md.
 *
 * How to run it: USAGE below (`npm run bench -- --help`).
 *
 * Loopback only; every server it starts is stopped when it ends, on failure too (bench/lib/proc.ts).
 */
import { cpSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, tmpdir, totalmem, type } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withUsage } from './lib/args.ts';
import { gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { episodeSlug, generateCorpus } from './corpus.ts';
import { makeQueries, type QuerySet } from './queries.ts';
import { processCpuMs, processMemory, run, runJson, startServer, type Server } from './lib/proc.ts';
import { load, type LoadOptions, type LoadResult, type Target } from './lib/http.ts';
import { summarizeProfile, type ProfileSummary } from './lib/profile.ts';
import { median } from './lib/stats.ts';
import { inTurns } from './lib/schedule.ts';
import { familyOf, writeResults } from './lib/report.ts';
import type { BenchResult, BuildRun, DocumentSize, EngineQuery, HttpRow, InProcess } from './lib/result.ts';
import { sitePages } from './lib/site-pages.ts';
import { flushWrites, newFileMicros } from './lib/fs-probe.ts';
import { cpuProbeMs } from './lib/cpu-probe.ts';
import { readConfig } from '../hosts/node/config.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BENCH = resolve(import.meta.dirname);
const ASTRO = join(ROOT, 'node_modules/astro/bin/astro.mjs');

const USAGE = `Usage:
  npm run bench                              quick: N = 100, 5 s per HTTP run (about 5 minutes on 2 cores)
  npm run bench -- --episodes 1000           full: N = 1,000, 10 s per HTTP run
  options: --episodes 100,1000  --seed 42  --duration <s>  --connections 10  --runs 5
           --profile cold,search,build  --build-heap <MB>  --builds 3  --rebuilds 3 (full builds and one-episode
           rebuilds; each figure is their median)
           --no-engines  --no-hosts  --no-rebuild  --no-documents  --dist <an earlier --keep's output>
           --keep (leave the temp folder)  --no-write (print only)`;

const { values } = withUsage(USAGE, parseOptions);

function parseOptions() {
  return parseArgs({
    options: {
      episodes: { type: 'string', default: '100' },
      seed: { type: 'string', default: '42' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '10' },
      runs: { type: 'string' },
      'cold-starts': { type: 'string', default: '3' },
      /** MB of V8 heap for the build (NODE_OPTIONS=--max-old-space-size), when the default is too small. */
      'build-heap': { type: 'string' },
      profile: { type: 'string', default: '' },
      keep: { type: 'boolean', default: false },
      /** Skip the Lunr-vs-MiniSearch reference (the single passage-level index in both engines). */
      'no-engines': { type: 'boolean', default: false },
      /** Skip the Node-beside-workerd comparison (bench/hosts.ts). */
      'no-hosts': { type: 'boolean', default: false },
      /** Skip the one-episode rebuilds. */
      'no-rebuild': { type: 'boolean', default: false },
      /**
       * One-episode rebuilds, each adding one more episode to the show the previous one built (N + 1, N + 2, ...);
       * the figure is their median, as every other figure of a run is a median.
       */
      rebuilds: { type: 'string', default: '3' },
      /** Full builds, each from scratch (an empty output and cache); the figure is their median. */
      builds: { type: 'string', default: '3' },
      'no-write': { type: 'boolean', default: false },
      /** Skip weighing the documents and pages (minutes at N = 1,000): with --dist, to iterate on the request path. */
      'no-documents': { type: 'boolean', default: false },
      /**
       * Measure an existing build of the same corpus (ASTRO_OUT_DIR of an earlier run's --keep, same --seed and N)
       * instead of building: for iterating on the request path. The build and rebuilds are then not measured. The
       * rebuilds, the last step of a run, leave N + --rebuilds episodes in the kept dist (--no-rebuild keeps N).
       */
      dist: { type: 'string' },
    },
  });
}

const sizes = values.episodes!.split(',').map((s) => Number(s.trim()));
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(`--episodes must be positive integers (e.g. 100 or 100,1000), got "${values.episodes}"`);
  process.exit(2);
}
function countOption(name: 'rebuilds' | 'builds'): number {
  const k = Number(values[name]);
  if (!Number.isInteger(k) || k < 1 || k > 9) {
    console.error(`--${name} must be an integer from 1 to 9, got "${values[name]}"`);
    process.exit(2);
  }
  return k;
}
const rebuildCount = countOption('rebuilds');
const buildCount = countOption('builds');
const profiles = new Set(values.profile!.split(',').filter(Boolean));
for (const p of profiles) {
  if (!['cold', 'search', 'build'].includes(p)) {
    console.error(`--profile takes cold, search and/or build, got "${p}"`);
    process.exit(2);
  }
}

const log = (msg: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

function machine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(cpuinfo)?.[1]?.trim();
  // A model name alone ("AMD EPYC") names several generations of processor; the family, model and clock tell them apart.
  const detail = [field('cpu family') && `family ${field('cpu family')}`, field('model') && `model ${field('model')}`, field('cpu MHz') && `${Math.round(Number(field('cpu MHz')))} MHz`].filter(Boolean);
  const model = (field('model name') ?? cpus()[0]?.model ?? 'unknown') + (detail.length ? ` (${detail.join(', ')})` : '');
  let os = `${type()} ${release()}`;
  try {
    os = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] + ` (${type()} ${release()})`;
  } catch {}
  return { cpu: model, cores: cpus().length, memoryBytes: totalmem(), os, node: process.version };
}

/** GET or POST over node:http (no fetch: its first-use cost would land in the cold-start figure). */
function httpCall(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}, timeoutMs = 120_000) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((done, fail) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within ${timeoutMs} ms`)));
    req.on('error', fail);
    req.end(init.body);
  });
}

function buildEnv(corpusDir: string, outDir: string): NodeJS.ProcessEnv {
  const heap = values['build-heap'] ? `--max-old-space-size=${Number(values['build-heap'])}` : '';
  return {
    ...process.env,
    ...(heap ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${heap}`.trim() } : {}),
    ASTRO_TELEMETRY_DISABLED: '1',
    CONTENT_DIR: corpusDir,
    ASTRO_OUT_DIR: outDir,
    ASTRO_CACHE_DIR: `${outDir}-cache`,
    SITE_URL: 'https://bench.example.com',
  };
}

/** What `npm start` runs the server with (package.json): its environment settings and V8 flags, so the bench measures the server as deployed. */
const START_SCRIPT = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
const START_NODE_ARGS: string[] = START_SCRIPT.split(/\s+/).filter((arg) => arg.startsWith('--'));
/**
 * `NAME=value` before the command, as sh would set them (`${NAME-default}`: the default unless NAME is set). The
 * server then starts with glibc's malloc settings and does not replace itself to set them (hosts/node/glibc-malloc.ts).
 */
const START_ENV: Record<string, string> = Object.fromEntries(
  (/^((?:\w+=\S*\s+)*)/.exec(START_SCRIPT)?.[1] ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((kv) => {
      const [name, value] = [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)];
      const fallback = /^\$\{(\w+)-([^}]*)\}$/.exec(value);
      return [name, fallback ? (process.env[fallback[1]!] ?? fallback[2]!) : value];
    }),
);

function serverEnv(distDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...START_ENV,
    HOST: '127.0.0.1',
    PORT: '0',
    DIST_DIR: distDir,
    RATE_LIMIT_MAX: '100000000',
    LOG_LEVEL: 'info',
  };
}

/** Astro prints one line per prerendered file with its time: "├─ /search/lunr-index.json (+11.93s)". */
function parseBuildLog(text: string) {
  const routes: Array<{ path: string; ms: number }> = [];
  for (const m of text.matchAll(/[├└]─ (\S+) \(\+([\d.]+)(ms|s)\)/g)) {
    routes.push({ path: m[1]!, ms: Number(m[2]) * (m[3] === 's' ? 1000 : 1) });
  }
  const families = new Map<string, { count: number; ms: number }>();
  for (const r of routes) {
    const family = familyOf(r.path, routes);
    const f = families.get(family) ?? { count: 0, ms: 0 };
    f.count++;
    f.ms += r.ms;
    families.set(family, f);
  }
  return [...families.entries()]
    .map(([path, f]) => ({ path, count: f.count, ms: f.ms }))
    .sort((a, b) => b.ms - a.ms);
}

/**
 * Every prebuilt document: raw, gzip (level 6, what a server compressing on the fly would send) and the .br the
 * build wrote beside it when it did. foo.br / foo.gz are counted as foo's variants, not as documents.
 */
function documentSizes(clientDir: string): DocumentSize[] {
  const all = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else all.set(`/${relative(clientDir, full)}`, readFileSync(full));
    }
  };
  walk(clientDir);
  const isVariant = (path: string) => /\.(br|gz)$/.test(path) && all.has(path.replace(/\.(br|gz)$/, ''));
  const files = [...all.entries()]
    .filter(([path]) => !isVariant(path))
    .map(([path, body]) => ({ path, bytes: body.length, gzip: gzipSync(body).length, br: all.get(`${path}.br`)?.length }));
  const groups = new Map<string, DocumentSize>();
  for (const f of files) {
    const key = familyOf(f.path, files);
    const g = groups.get(key) ?? { path: key, files: 0, bytes: 0, gzipBytes: 0, brBytes: 0, largestBytes: 0 };
    g.files++;
    g.bytes += f.bytes;
    g.gzipBytes += f.gzip;
    g.brBytes! += f.br ?? 0;
    g.largestBytes = Math.max(g.largestBytes, f.bytes);
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => b.bytes - a.bytes);
}

interface ColdStart {
  toListeningMs: number;
  toFirstSearchMs: number;
  /** CPU time the server had used when the first answer arrived. */
  cpuMs?: number;
  status: number;
  rateLimitHeader?: string;
  memoryAfterFirstAnswer?: { hwm: number; rss: number };
  error?: string;
}

async function coldStart(server: Server, probe: string): Promise<ColdStart> {
  try {
    const res = await httpCall(`${server.url}/api/search?q=${encodeURIComponent(probe)}`);
    const done = performance.now();
    return {
      toListeningMs: server.listeningAt - server.spawnedAt,
      toFirstSearchMs: done - server.spawnedAt,
      cpuMs: processCpuMs(server.pid),
      status: res.status,
      rateLimitHeader: String(res.headers['x-ratelimit-limit'] ?? ''),
      memoryAfterFirstAnswer: processMemory(server.pid),
      error: res.status === 200 ? undefined : res.body.slice(0, 300),
    };
  } catch (e) {
    return { toListeningMs: server.listeningAt - server.spawnedAt, toFirstSearchMs: NaN, status: 0, error: String(e) };
  }
}

function mcpBody(query: string, id: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_episodes', arguments: { query, limit: 10 } } });
}
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One request before the load, to know the target answers what the contract says (else it is not measured). */
async function sanity(baseUrl: string, target: Target): Promise<string | undefined> {
  try {
    const res = await httpCall(`${baseUrl}${target.paths[0]}`, {
      method: target.method,
      headers: target.headers,
      body: target.bodies?.[0],
    });
    if (res.status !== 200) return `HTTP ${res.status}: ${res.body.slice(0, 200)}`;
    if (target.name === '/api/search' || target.name === 'GET /ask') {
      const body = JSON.parse(res.body) as { results?: unknown[] };
      if (!Array.isArray(body.results)) return `no results array: ${res.body.slice(0, 200)}`;
    }
    if (target.name.startsWith('POST /mcp')) {
      const text = res.body.trim().startsWith('{') ? res.body : (/^data: (.*)$/m.exec(res.body)?.[1] ?? '');
      const body = JSON.parse(text) as { result?: { isError?: boolean }; error?: unknown };
      if (body.error || !body.result || body.result.isError) return `JSON-RPC error: ${text.slice(0, 200)}`;
    }
    return undefined;
  } catch (e) {
    return String(e).slice(0, 300);
  }
}

async function httpSuite(server: Server, work: string, clientDir: string, queries: QuerySet, options: LoadOptions): Promise<HttpRow[]> {
  const rows: HttpRow[] = [];
  const enc = encodeURIComponent;
  const searchPaths = queries.search.map((q) => `/api/search?q=${enc(q)}`);
  const askPaths = queries.ask.map((q) => `/ask?q=${enc(q)}`);
  const docPath = '/episodes.json';
  // The bare node:http baselines are bench/pipeline.ts's own (--serve bare-memory: the file's bytes from memory,
  // --serve bare-static: stat + read stream per request), so both benchmarks divide by the same floor.
  const smallJson = join(work, 'small.json');
  writeFileSync(smallJson, JSON.stringify({ status: 'ok', name: 'Bench Network Show', episodeCount: queries.search.length }));
  const baseline = (mode: string, file: string) =>
    startServer([join(BENCH, 'pipeline.ts'), '--serve', mode, '--file', file], { env: process.env, cwd: ROOT, timeoutMs: 30_000 });
  const bareJson = await baseline('bare-memory', smallJson);
  const bareDoc = await baseline('bare-memory', join(clientDir, docPath));
  const bareStatic = await baseline('bare-static', join(clientDir, docPath));
  try {
    const measure = async (at: Server, target: Target): Promise<LoadResult | { name: string; skipped: string }> => {
      const base = at.url;
      const problem = await sanity(base, target);
      if (problem) {
        log(`  ${target.name}: not measured (${problem.split('\n')[0]})`);
        return { name: target.name, skipped: problem };
      }
      const r = await load(base, target, options, at.pid);
      log(`  ${target.name}: ${Math.round(r.reqPerSec)} req/s, p99 ${r.p99} ms, server CPU ${r.serverCpuMsPerRequest?.toFixed(3)} ms/req${r.valid ? '' : ` (INVALID: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors)`}`);
      return r;
    };
    // Each baseline is measured right before and right after the runs it is the divisor for; the divisor is the
    // mean of the two, and both are shown, so drift on a shared machine is visible rather than hidden in a ratio.
    const jsonName = 'bare node:http, small JSON';
    const docName = `bare node:http, ${docPath} bytes`;
    const bare1 = await measure(bareJson, { name: jsonName, paths: ['/small.json'] });
    const status = await measure(server, { name: '/status', paths: ['/status'] });
    const search = await measure(server, { name: '/api/search', paths: searchPaths });
    // Answers are cached by query (functions/search/service.ts); Cache-Control: no-cache has each computed anew.
    const fresh = { 'cache-control': 'no-cache' };
    const searchFresh = await measure(server, { name: '/api/search, no-cache (computed anew)', paths: searchPaths, headers: fresh });
    const ask = await measure(server, { name: 'GET /ask', paths: askPaths });
    const askFresh = await measure(server, { name: 'GET /ask, no-cache (computed anew)', paths: askPaths, headers: fresh });
    const mcp = await measure(server, {
      name: 'POST /mcp tools/call search_episodes',
      method: 'POST',
      paths: ['/mcp'],
      headers: MCP_HEADERS,
      bodies: queries.search.map((q, i) => mcpBody(q, i + 1)),
    });
    const bare2 = await measure(bareJson, { name: jsonName, paths: ['/small.json'] });
    const bareD1 = await measure(bareDoc, { name: docName, paths: [docPath] });
    const doc = await measure(server, { name: docPath, paths: [docPath] });
    const bareS = await measure(bareStatic, { name: `bare node:http static handler (stat + stream per request), ${docPath}`, paths: [docPath] });
    const bareD2 = await measure(bareDoc, { name: docName, paths: [docPath] });

    const divisor = (runs: Array<LoadResult | { skipped: string }>) => {
      const ok = runs.filter((r): r is LoadResult => 'reqPerSec' in r && r.valid);
      return {
        rps: ok.length ? ok.reduce((a, r) => a + r.reqPerSec, 0) / ok.length : NaN,
        cpu: ok.length ? ok.reduce((a, r) => a + (r.serverCpuMsPerRequest ?? NaN), 0) / ok.length : NaN,
      };
    };
    const jsonBase = divisor([bare1, bare2]);
    const docBase = divisor([bareD1, bareD2]);
    const row = (r: LoadResult | { name: string; skipped: string }, base: { rps: number; cpu: number }, baselineName: string): HttpRow =>
      'skipped' in r
        ? { name: r.name, skipped: r.skipped, baseline: baselineName }
        : {
            ...r,
            ratio: r.valid ? r.reqPerSec / base.rps : NaN,
            cpuRatio: r.valid && r.serverCpuMsPerRequest ? base.cpu / r.serverCpuMsPerRequest : NaN,
            baseline: baselineName,
          };
    rows.push(row(bare1, jsonBase, 'mean of both runs'));
    for (const r of [status, search, searchFresh, ask, askFresh, mcp]) rows.push(row(r, jsonBase, jsonName));
    rows.push(row(bare2, jsonBase, 'mean of both runs'));
    rows.push(row(bareD1, docBase, 'mean of both runs'));
    rows.push(row(doc, docBase, docName));
    rows.push(row(bareS, docBase, docName));
    rows.push(row(bareD2, docBase, 'mean of both runs'));
  } finally {
    await Promise.all([bareJson.stop(), bareDoc.stop(), bareStatic.stop()]);
  }
  return rows;
}

async function profileServer(kind: 'cold' | 'search', distDir: string, work: string, queries: QuerySet, options: LoadOptions): Promise<ProfileSummary> {
  const dir = join(work, `profile-${kind}`);
  mkdirSync(dir, { recursive: true });
  const server = await startServer([join(ROOT, 'hosts/node/start.ts')], {
    env: serverEnv(distDir),
    cwd: ROOT,
    timeoutMs: 300_000,
    nodeArgs: [...START_NODE_ARGS, '--cpu-prof', '--cpu-prof-dir', dir, '--import', join(BENCH, 'lib/exit-on-signal.ts')],
  });
  try {
    await httpCall(`${server.url}/api/search?q=${encodeURIComponent(queries.probe)}`);
    if (kind === 'search') {
      await load(server.url, { name: '/api/search', paths: queries.search.map((q) => `/api/search?q=${encodeURIComponent(q)}`) }, options);
    }
  } finally {
    await server.stop();
  }
  return summarizeProfile(largestFile(dir));
}

function largestFile(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (!files.length) throw new Error(`no .cpuprofile written in ${dir}`);
  return join(dir, files.sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0]!);
}

/**
 * The real `astro build`, timed by phase from the moment each of its log lines arrives, with the CPU time it
 * used (the shell's `times`), which a shared machine inflates far less than the wall time.
 */
async function astroBuild(env: NodeJS.ProcessEnv, timeoutMs: number, nodeArgs: string[] = []): Promise<NonNullable<BenchResult['build']>> {
  const lines: Array<{ t: number; line: string }> = [];
  const t0 = performance.now();
  const r = await run('/bin/sh', ['-c', '"$0" "$@"; code=$?; times >&2; exit $code', process.execPath, ...nodeArgs, ASTRO, 'build'], {
    cwd: ROOT,
    env,
    timeoutMs,
    onLine: (line) => lines.push({ t: performance.now() - t0, line }),
  });
  if (r.code !== 0) throw new Error(`astro build exited ${r.code ?? r.signal}:\n${(r.stdout + r.stderr).slice(-3000)}`);
  const times = [...r.stderr.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)].at(-1);
  const cpuMs = times ? (Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4])) * 1000 : undefined;
  const at = (re: RegExp) => lines.find((l) => re.test(l.line))?.t;
  const routeLines = lines.filter((l) => /[├└]─ \S+ \(\+/.test(l.line));
  const prerenderStart = at(/prerendering static routes/) ?? routeLines[0]?.t;
  const prerenderEnd = routeLines.at(-1)?.t;
  const phases: Array<{ name: string; ms: number }> = [];
  if (prerenderStart !== undefined && prerenderEnd !== undefined) {
    phases.push({ name: 'start, content sync, bundling (Vite)', ms: prerenderStart });
    phases.push({ name: 'prerendering every document', ms: prerenderEnd - prerenderStart });
    phases.push({ name: 'after prerendering (integration hooks, e.g. precompress)', ms: r.ms - prerenderEnd });
  }
  const notes = lines
    .map((l) => l.line.replace(/^\S+ /, '').trim())
    .filter((l) => /precompress|Completed in|Server built in/i.test(l));
  const restored = lines.filter((l) => /\(restored\)/.test(l.line)).length;
  // "(cached)": found in place, kept from the previous output (src/integration/kept-pages.ts).
  const kept = lines.filter((l) => /\(cached\)/.test(l.line)).length;
  return { ms: r.ms, cpuMs, phases, notes, routes: parseBuildLog(r.stdout + r.stderr), restored, kept };
}

/**
 * astroBuild, once the writes before it are on disk (lib/fs-probe.ts flushWrites), after measuring what a new file
 * costs on the disk just then (lib/fs-probe.ts) in `probeDir` and how fast the CPU is (lib/cpu-probe.ts).
 */
async function probedBuild(env: NodeJS.ProcessEnv, timeoutMs: number, probeDir: string) {
  const syncMs = flushWrites();
  const newFileUs = newFileMicros(probeDir);
  const probeMs = cpuProbeMs();
  return { ...(await astroBuild(env, timeoutMs)), syncMs, newFileUs, cpuProbeMs: probeMs };
}

/** What RESULTS.md shows of each build or rebuild of several. */
const buildRun = ({ ms, cpuMs, syncMs, newFileUs, cpuProbeMs: probe }: Awaited<ReturnType<typeof probedBuild>>): BuildRun => ({ ms, cpuMs, syncMs, newFileUs, cpuProbeMs: probe });

/**
 * The runs' folders, removed when every N is done: removing N = 1,000's ~250,000 files just before N = 2,000's first
 * build made its new files several times dearer (lib/fs-probe.ts).
 */
const removeLater: string[] = [];

/** The run whose wall time is the median (stats.ts's: the lower middle one of an even number). */
function medianRun<T extends { ms: number }>(runs: T[]): T {
  const mid = median(runs.map((r) => r.ms));
  return runs.find((r) => r.ms === mid)!;
}

/** Sets every file under `dir` to have been written `seconds` ago. */
function backdate(dir: string, seconds: number): void {
  const then = new Date(Date.now() - seconds * 1000);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), then, then);
  }
}

/**
 * Adds episode `id` to the corpus: episode `last`'s files under the new id, with its title marked, so the build has
 * one more episode of the same size to index, render and compress.
 */
function addEpisodeCopy(corpus: string, last: number, id: number): void {
  const episodesDir = join(corpus, 'episodes');
  const stem = episodeSlug(last);
  const next = episodeSlug(id);
  const md = readFileSync(join(episodesDir, `${stem}.md`), 'utf8')
    .replace(/^id: \d+$/m, `id: ${id}`)
    .replaceAll(stem, next)
    .replace(/^title: "?(.*?)"?$/m, 'title: "One more episode: $1"');
  writeFileSync(join(episodesDir, `${next}.md`), md);
  for (const dir of ['transcripts', 'audio']) {
    for (const f of readdirSync(join(corpus, dir)).filter((f) => f.startsWith(stem))) {
      cpSync(join(corpus, dir, f), join(corpus, dir, f.replace(stem, next)));
    }
  }
}

async function stage<T>(result: BenchResult, name: string, fn: () => Promise<T>): Promise<T | undefined> {
  const t = performance.now();
  log(`N=${result.episodes} ${name}...`);
  try {
    const value = await fn();
    result.stages[name] = { ms: performance.now() - t };
    return value;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    result.stages[name] = { ms: performance.now() - t, error: message.slice(0, 2000) };
    log(`${name} FAILED: ${message.split('\n').slice(0, 5).join('\n')}`);
    return undefined;
  }
}

/** One show size's run: its folders, corpus and queries, and the result the stages below fill in. */
interface SizeRun {
  n: number;
  result: BenchResult;
  started: number;
  work: string;
  corpusDir: string;
  distDir: string;
  clientDir: string;
  queries?: QuerySet;
  queriesFile: string;
  builds: Array<Awaited<ReturnType<typeof probedBuild>>>;
  /** A stage this size cannot go on without failed (its corpus, or its first build). */
  stopped: boolean;
}

function optionsFor(n: number): LoadOptions {
  const full = n > 100;
  return {
    connections: Number(values.connections),
    duration: Number(values.duration ?? (full ? 10 : 5)),
    warmup: Number(values.warmup ?? (full ? 2 : 1)),
  };
}

async function prepare(n: number): Promise<SizeRun> {
  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.replace(/ -- $/, '');
  const result: BenchResult = {
    episodes: n,
    seed: Number(values.seed),
    date: new Date().toISOString(),
    command: process.argv.length > 2 ? command : 'npm run bench',
    machine: machine(),
    loadavg: { start: loadavg() as [number, number, number] },
    http: { options: optionsFor(n) },
    stages: {},
  };
  const work = mkdtempSync(join(tmpdir(), `podcast-bench-${n}-`));
  const distDir = values.dist ? resolve(values.dist) : join(work, 'dist');
  const run: SizeRun = {
    n,
    result,
    started: performance.now(),
    work,
    corpusDir: join(work, 'corpus'),
    distDir,
    clientDir: join(distDir, 'client'),
    queriesFile: join(work, 'queries.json'),
    builds: [],
    stopped: false,
  };
  log(`N=${n}: working in ${work}`);
  const corpus = await stage(result, 'corpus', async () => {
    const made = generateCorpus({ episodes: n, out: run.corpusDir, seed: result.seed });
    // A show's files are older than its build, as an editor's are. A build trusts what it learnt of a file (its
    // digest, cue count, frontmatter) by the file's size, time and inode only when the file was written more than
    // two seconds before it was read (src/content/file-facts.ts), and a corpus written the second before the first
    // build would leave the rebuilds below reading every file again, as if the show had just been copied.
    backdate(run.corpusDir, 60);
    return made;
  });
  if (!corpus) {
    run.stopped = true;
    return run;
  }
  result.corpus = {
    episodes: corpus.episodes,
    hours: corpus.totalSeconds / 3600,
    words: corpus.totalWords,
    vocabulary: corpus.words.length,
    properNouns: corpus.properNouns.length,
    ms: result.stages.corpus!.ms,
  };
  const queries = makeQueries(corpus);
  run.queries = queries;
  writeFileSync(run.queriesFile, JSON.stringify(queries));
  result.queries = { search: queries.search.length, ask: queries.ask.length, mix: queries.mix, examples: queries.search.slice(0, 8), askExamples: queries.ask.slice(0, 3) };
  return run;
}

/**
 * The full builds of every size, taken in turns (N = 1,000's first, N = 2,000's first, N = 1,000's second ...; lib/
 * schedule.ts), so that N = 2,000's figure is read against N = 1,000's measured over the same stretch of time. When one
 * size's builds ran ~15 minutes after the other's, the machine's drift in between (the same N = 2,000 build used 9%
 * more CPU time in one run of an afternoon than in another) put N = 2,000's ratio on either side of 2x. The first build of
 * each size is the one served and measured below; the others, each into an empty folder with an empty cache, are
 * there for the median. They are removed with the run's folder at the very end (see removeLater): removing one's
 * ~60,000 files just before the next build made that build's new files several times dearer on this disk
 * (lib/fs-probe.ts), so each build's figure is printed with what a new file cost just before it.
 */
async function buildAll(runs: SizeRun[]): Promise<void> {
  if (values.dist) {
    for (const r of runs) log(`  N=${r.n}: build not measured: using ${r.distDir}`);
    return;
  }
  for (const { item: r, round: k } of inTurns(runs, buildCount)) {
    // A size whose first build failed has nothing to serve; its later builds would only spend the time.
    if (r.stopped || r.builds.length < k - 1) continue;
    const out = k === 1 ? r.distDir : join(r.work, `dist-build-${k}`);
    const built = await stage(r.result, k === 1 ? 'build' : `build ${k} of ${buildCount}`, () =>
      probedBuild(buildEnv(r.corpusDir, out), Math.max(600_000, r.n * 1_500), join(r.work, `fs-probe-build-${k}`)),
    );
    if (!built) {
      if (k === 1) r.stopped = true;
      continue;
    }
    r.builds.push(built);
    log(`  N=${r.n} build ${k}: ${(built.ms / 1000).toFixed(1)} s (sync ${(built.syncMs / 1000).toFixed(1)} s first; a new file cost ${Math.round(built.newFileUs)} µs and the CPU probe ${Math.round(built.cpuProbeMs)} ms just before it)`);
  }
  for (const r of runs) if (r.builds.length) r.result.build = { ...medianRun(r.builds), runs: r.builds.map(buildRun) };
  ratios(runs, (r) => r.builds, 'full build');
}

/**
 * Each later size's builds against the first size's, turn by turn (the same stretch of time), in the log; only when
 * both sizes have every turn's build, since after a failed one the k-th builds of the two were not in the same turn.
 */
function ratios(runs: SizeRun[], pick: (r: SizeRun) => Array<{ ms: number }>, what: string): void {
  const [base, ...rest] = runs;
  if (!base) return;
  const first = pick(base);
  for (const r of rest) {
    const builds = pick(r);
    if (!builds.length || builds.length !== first.length) continue;
    log(`  ${what} N=${r.n} / N=${base.n}, turn by turn: ${builds.map((b, i) => `${(b.ms / first[i]!.ms).toFixed(2)}x`).join(', ')}`);
  }
}

/** Everything measured on the show of N episodes as first built: pages, cold starts, HTTP, hosts, engines, profiles. */
async function measure(run: SizeRun): Promise<void> {
  const { n, result, work, corpusDir, distDir, clientDir, queriesFile } = run;
  const queries = run.queries!;
  const options = optionsFor(n);
  const runs = Number(values.runs ?? 5);
  let server: Server | undefined;
  try {
    if (!values['no-documents']) {
      result.documents = documentSizes(clientDir);
      result.sitePages = sitePages(clientDir);
    }
    const home = result.sitePages?.pages[0];
    if (home) log(`  home page ${home.bytes} B raw, ${home.gzipBytes} B gzip; ${result.sitePages?.listPages} list pages`);

    // Cold starts: process start → first /api/search answered. The last server stays up for the HTTP runs.
    const coldStarts: ColdStart[] = [];
    await stage(result, 'cold start', async () => {
      const count = Math.max(1, Number(values['cold-starts']));
      for (let i = 0; i < count; i++) {
        server = await startServer([join(ROOT, 'hosts/node/start.ts')], { nodeArgs: START_NODE_ARGS, env: serverEnv(distDir), cwd: ROOT, timeoutMs: 300_000 });
        const c = await coldStart(server, queries.probe);
        coldStarts.push(c);
        log(`  cold start ${i + 1}: listening ${Math.round(c.toListeningMs)} ms, first search ${Math.round(c.toFirstSearchMs)} ms (HTTP ${c.status})`);
        if (i < count - 1) {
          await server.stop();
          server = undefined;
        }
      }
    });
    result.coldStart = {
      runs: coldStarts,
      medianToListeningMs: median(coldStarts.map((c) => c.toListeningMs)),
      medianToFirstSearchMs: median(coldStarts.map((c) => c.toFirstSearchMs)),
    };

    if (server) {
      const s = server;
      result.http.rows = await stage(result, 'http', () => httpSuite(s, work, clientDir, queries, options));
      result.serverMemory = { afterLoad: processMemory(s.pid), afterFirstAnswer: coldStarts.at(-1)?.memoryAfterFirstAnswer };
      await s.stop();
      server = undefined;
    }

    // The same build on workerd (npm run preview:cloudflare) beside Node, under the same load (issue 12).
    if (!values['no-hosts']) {
      result.hosts = await stage(result, 'hosts', () =>
        runJson<NonNullable<BenchResult['hosts']>>(
          join(BENCH, 'hosts.ts'),
          ['--dist', distDir, '--hosts', 'node,cloudflare', '--rounds', '1', '--duration', String(options.duration), '--connections', String(options.connections)],
          { timeoutMs: 900_000 },
        ),
      );
    }

    // Under npm start's V8 flags (the server as deployed), then V8's defaults (a function isolate, where no flag can
    // be set): --no-allocation-site-pretenuring alone moved search's p99 CPU from ~30 to ~6 ms in-process.
    const inProcess = (v8Flags: string[], budget?: { searchCacheMb: number; searchCachePerPassage: number }) =>
      runJson<InProcess>(join(BENCH, 'inproc.ts'), [
        '--dist', distDir, '--queries', queriesFile, '--runs', String(runs),
        ...(budget ? ['--cache-mb', String(budget.searchCacheMb), '--per-passage', String(budget.searchCachePerPassage)] : []),
      ], {
        nodeArgs: ['--expose-gc', ...v8Flags],
        timeoutMs: Math.max(300_000, n * 1000),
      });
    // The first reading with the server's index budget too (SEARCH_CACHE_MB as npm start reads it), the second with
    // a function isolate's default.
    const serverBudget = readConfig(serverEnv(distDir));
    result.inProcess = await stage(result, 'in-process', () => inProcess(START_NODE_ARGS.filter((a) => !a.startsWith('--import')), serverBudget));
    result.inProcessV8Defaults = await stage(result, 'in-process (V8 defaults)', () => inProcess([]));

    if (!values['no-engines']) {
    const miniFile = join(work, 'minisearch-index.json');
    const lunrFile = join(work, 'lunr-passage-index.json');
    const engineBuild = await stage(result, 'engines: build', () =>
      runJson<NonNullable<NonNullable<BenchResult['engines']>['build']>>(join(BENCH, 'engines.ts'), ['build', '--dist', distDir, '--out', miniFile, '--lunr', lunrFile], {
        nodeArgs: ['--expose-gc', '--max-old-space-size=16384'],
        timeoutMs: Math.max(600_000, n * 2000),
      }),
    );
    const lunrQuery = engineBuild ? await stage(result, 'engines: lunr', () =>
      runJson<EngineQuery>(join(BENCH, 'engines.ts'), ['query', '--engine', 'lunr', '--index', lunrFile, '--queries', queriesFile, '--runs', String(runs)], {
        nodeArgs: ['--expose-gc'],
        timeoutMs: Math.max(300_000, n * 1000),
      }),
    ) : undefined;
    const miniQuery = engineBuild
      ? await stage(result, 'engines: minisearch', () =>
          runJson<EngineQuery>(join(BENCH, 'engines.ts'), ['query', '--engine', 'minisearch', '--index', miniFile, '--queries', queriesFile, '--runs', String(runs)], {
            nodeArgs: ['--expose-gc'],
            timeoutMs: Math.max(300_000, n * 1000),
          }),
        )
      : undefined;
    result.engines = { build: engineBuild, lunr: lunrQuery, minisearch: miniQuery };
    }

    result.profiles = {};
    for (const kind of ['cold', 'search'] as const) {
      if (!profiles.has(kind)) continue;
      const p = await stage(result, `profile: ${kind}`, () => profileServer(kind, distDir, work, queries, options));
      if (p) result.profiles[kind] = p;
    }
    if (profiles.has('build')) {
      const p = await stage(result, 'profile: build', async () => {
        const dir = join(work, 'profile-build');
        mkdirSync(dir, { recursive: true });
        const out = join(work, 'dist-profiled');
        const r = await astroBuild(buildEnv(corpusDir, out), Math.max(900_000, n * 3000), ['--cpu-prof', '--cpu-prof-dir', dir]);
        return { ...summarizeProfile(largestFile(dir)), wallMs: r.ms, cpuMs: r.cpuMs };
      });
      if (p) result.profiles.build = p;
    }
  } finally {
    if (server) await server.stop();
  }
}

/**
 * Adding one episode and rebuilding, as an editor does: the corpus gains episode N + 1 (the last one's text under a
 * new id) and is built into the same output folder with the same Astro cache, so the build replaces the previous
 * output as well (src/integration/replace-out-dir.ts); then N + 2 the same way, and so on: each rebuild adds one
 * episode to what the one before built. The same content folder as the first build's, as an editor's: a copy (this
 * bench's until the forty-fourth session) is a moved show, whose every file a build reads again, which made the first
 * rebuilds slower than the last (14.1 / 11.2 / 9.0 s). One rebuild moved by several seconds with the hour, enough to
 * swing N = 2,000's ratio across 2x, so the figure is the median of --rebuilds of them, the sizes taking turns as
 * the full builds do. Last, so that everything above measured the show of N episodes.
 */
async function rebuildAll(sizeRuns: SizeRun[]): Promise<void> {
  if (values['no-rebuild'] || values.dist) return;
  const done = new Map<SizeRun, Array<Awaited<ReturnType<typeof probedBuild>>>>(sizeRuns.map((r) => [r, []]));
  for (const { item: r, round: k } of inTurns(sizeRuns.filter((r) => !r.stopped), rebuildCount)) {
    const runs = done.get(r)!;
    if (runs.length < k - 1) continue;
    const rebuilt = await stage(r.result, `rebuild ${k} of ${rebuildCount} (+1 episode: ${r.n + k})`, async () => {
      addEpisodeCopy(r.corpusDir, r.n, r.n + k);
      return probedBuild(buildEnv(r.corpusDir, r.distDir), Math.max(600_000, r.n * 1_500), join(r.work, `fs-probe-rebuild-${k}`));
    });
    if (!rebuilt) continue;
    runs.push(rebuilt);
    log(`  N=${r.n} rebuild with episode ${r.n + k} added ${(rebuilt.ms / 1000).toFixed(1)} s (${rebuilt.kept} pages kept in place, ${rebuilt.restored} copied from the cache; sync ${(rebuilt.syncMs / 1000).toFixed(1)} s first; a new file cost ${Math.round(rebuilt.newFileUs)} µs and the CPU probe ${Math.round(rebuilt.cpuProbeMs)} ms just before it)`);
  }
  for (const [r, runs] of done) {
    if (!runs.length) continue;
    const mid = medianRun(runs);
    r.result.rebuild = { ms: mid.ms, cpuMs: mid.cpuMs, phases: mid.phases, restored: mid.restored, kept: mid.kept, runs: runs.map(buildRun) };
  }
  ratios(sizeRuns, (r) => done.get(r)!, 'rebuild');
}

function finish(run: SizeRun): BenchResult {
  run.result.loadavg.end = loadavg() as [number, number, number];
  run.result.totalMs = performance.now() - run.started;
  if (values.keep) log(`kept ${run.work}`);
  else removeLater.push(run.work);
  return run.result;
}

// Every size's corpus first, then their builds in turns, then each size measured, then their rebuilds in turns.
const sizeRuns: SizeRun[] = [];
for (const n of sizes) sizeRuns.push(await prepare(n));
await buildAll(sizeRuns);
for (const r of sizeRuns) {
  if (r.stopped) continue;
  if (!r.builds.length && !values.dist) continue;
  await measure(r);
  log(`N=${r.n} measured`);
}
await rebuildAll(sizeRuns);
const results: BenchResult[] = [];
for (const r of sizeRuns) {
  results.push(finish(r));
  log(`N=${r.n} done in ${((r.result.totalMs ?? 0) / 1000).toFixed(0)} s`);
  if (!values['no-write']) writeResults(r.result, join(BENCH, 'results'), join(BENCH, 'RESULTS.md'));
}
for (const dir of removeLater) rmSync(dir, { recursive: true, force: true });
if (values['no-write']) console.log(JSON.stringify(results, null, 2));
else log(`wrote ${relative(process.cwd(), join(BENCH, 'RESULTS.md'))} and bench/results/`);
const failed = results.flatMap((r) => Object.entries(r.stages).filter(([, s]) => s.error).map(([name]) => `N=${r.episodes} ${name}`));
if (failed.length) {
  log(`stages that failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
