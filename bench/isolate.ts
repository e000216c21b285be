/**
 * In a function: does the Cloudflare preview (`npm run preview:cloudflare`: the module Worker in workerd, offline)
 * answer search and /ask inside a 128 MB isolate? Starts the preview on a build, answers the query set's searches
 * and /ask questions over HTTP, and reads the Worker isolate's JS heap through the DevTools inspector (wrangler's
 * inspector proxy, CDP over WebSocket): after a forced GC at start, after the first answer and after all queries,
 * and sampled without GC during the run (the peak). Also the workerd process's resident memory (every isolate
 * of the preview, the asset layer's included) and whether the build fits Workers' static-asset limits.
 *
 *   node bench/isolate.ts --dist <ASTRO_OUT_DIR> --queries <queries.json> [--concurrency 2] [--limit-mb 128]
 *                         [--sample-ms 250] [--search-cache-mb <MB>] [--work <dir>] [--keep]
 *
 * The build is never written to: its client files are hard-linked into a work directory (--work, default a
 * temporary one, removed afterwards unless --keep), where the Cloudflare config is generated. Files Workers
 * refuses (over 25 MiB) are left out of the copy and reported: with them `wrangler dev` does not start at all.
 *
 * workerd enforces no memory limit of its own (its IsolateLimitEnforcer is a null one; Cloudflare's enforcement
 * is not open source). --limit-mb N (default 128; 0 for none) makes the preview's workerd run with the V8 flag
 * --max-heap-size=N, written into the binary config Miniflare hands workerd (a wrapper named by
 * MINIFLARE_WORKERD_PATH, which also adds --expose-gc: workerd never answers HeapProfiler.collectGarbage): a Worker that needs more
 * JS heap than N MB stops answering (checked with --limit-mb 16 at N = 1,000: the first search timed out), so
 * a run that exceeds it fails loudly (statuses other than 200).
 * It bounds the V8 heap only, not ArrayBuffer backing stores, which Cloudflare also counts.
 *
 * Prints a table and one JSON line (`npm run bench:isolate -- --dist ... --queries ...`).
 */
import { chmodSync, linkSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withUsage } from './lib/args.ts';
import { writeCloudflareConfig } from '../hosts/cloudflare/build.ts';
import { startHost } from '../test/helpers/hosts.ts';
import type { RunningServer } from '../test/helpers/server.ts';
import { freePort } from '../test/pipeline/util.ts';
import { pickWorkerTarget } from './lib/isolate.ts';
import { ASSET_LIMITS, listAssetFiles, planAssets, type AssetPlan } from '../hosts/cloudflare/asset-plan.ts';
import { processMemory } from './lib/proc.ts';
import { percentile } from './lib/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const WORKER_NAME = 'podcast-listener-service';
const MB = 1024 * 1024;

const USAGE = 'Usage: npm run bench:isolate -- --dist <ASTRO_OUT_DIR> --queries <queries.json> [--concurrency 2] [--limit-mb 128] [--sample-ms 250]\n                                 [--search-cache-mb <MB>] [--work <dir>] [--keep]';
const { values } = withUsage(USAGE, () =>
  parseArgs({
    options: {
      dist: { type: 'string' },
      queries: { type: 'string' },
      concurrency: { type: 'string', default: '2' },
      'limit-mb': { type: 'string', default: '128' },
      'sample-ms': { type: 'string', default: '250' },
      /** SEARCH_CACHE_MB for the Worker; absent: a function's default. */
      'search-cache-mb': { type: 'string' },
      work: { type: 'string' },
      keep: { type: 'boolean', default: false },
    },
  }),
);
if (!values.dist || !values.queries) {
  console.error(`--dist and --queries are needed\n\n${USAGE}`);
  process.exit(2);
}
const distDir = resolve(values.dist);
const queries = JSON.parse(readFileSync(values.queries, 'utf8')) as { search: string[]; ask: string[] };
const concurrency = Math.max(1, Number(values.concurrency));
const limitMb = Number(values['limit-mb']);
const siteUrl = (JSON.parse(readFileSync(join(distDir, 'client', '_manifest.json'), 'utf8')) as { siteUrl?: string }).siteUrl;

/* ---- the work copy: the build's client files hard-linked, Workers' config beside them ------------------------- */

function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

const work = values.work ? resolve(values.work) : mkdtempSync(join(tmpdir(), 'isolate-bench-'));
const workDist = join(work, 'dist');
rmSync(workDist, { recursive: true, force: true });
const sourceFiles = listAssetFiles(join(distDir, 'client'));
for (const file of sourceFiles) {
  // The Cloudflare build writes these two; a hard link would let it write into the original build.
  if (file.path === '_headers' || file.path === '.assetsignore') continue;
  const to = join(workDist, 'client', file.path);
  mkdirSync(join(to, '..'), { recursive: true });
  linkOrCopy(join(distDir, 'client', file.path), to);
}
writeCloudflareConfig(workDist);
const plan: AssetPlan = planAssets(sourceFiles, readFileSync(join(workDist, 'client', '.assetsignore'), 'utf8').split('\n'));
// Files Workers refuses stop `wrangler dev` altogether: measured without them, and reported.
for (const file of plan.oversize) unlinkSync(join(workDist, 'client', file.path));

/* ---- workerd with V8 flags: --expose-gc (workerd never answers HeapProfiler.collectGarbage), the heap limit -- */

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
function workerdWithFlags(flags: string[]): string {
  const real = createRequire(createRequire(import.meta.url).resolve('miniflare'))('workerd').default as string;
  const script = join(work, 'workerd-v8-flags.sh');
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      '# bench/isolate.ts: workerd with V8 flags added to the binary config Miniflare writes to its stdin.',
      'set -e',
      'config="$(mktemp)"',
      `${[process.execPath, join(ROOT, 'bench/workerd-v8-flags.ts'), ...flags].map(shellQuote).join(' ')} > "$config"`,
      'exec 0< "$config"',
      'rm -f "$config"',
      `exec ${shellQuote(real)} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  return script;
}

/* ---- DevTools protocol over the global WebSocket ------------------------------------------------------------- */

interface HeapUsage {
  usedSize: number;
  totalSize: number;
  [field: string]: number;
}

class Inspector {
  #ws: WebSocket;
  #next = 1;
  #pending = new Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>();
  /** The Worker's execution context (Runtime.evaluate needs it: workerd has no default one). */
  #context: number | undefined;

  private constructor(ws: WebSocket) {
    this.#ws = ws;
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; method?: string; params?: { context?: { id: number } }; result?: unknown; error?: { message: string } };
      if (message.method === 'Runtime.executionContextCreated') this.#context ??= message.params?.context?.id;
      const waiting = message.id === undefined ? undefined : this.#pending.get(message.id);
      if (!waiting) return;
      this.#pending.delete(message.id!);
      if (message.error) waiting.fail(new Error(message.error.message));
      else waiting.done(message.result);
    });
    ws.addEventListener('close', () => {
      for (const { fail } of this.#pending.values()) fail(new Error('inspector connection closed'));
      this.#pending.clear();
    });
  }

  static async connect(port: number): Promise<Inspector> {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as unknown;
    const target = pickWorkerTarget(list, WORKER_NAME);
    // No Origin from a non-browser client is refused by wrangler's proxy when it sends a User-Agent (Node does).
    const ws = new WebSocket(target.webSocketDebuggerUrl, { headers: { origin: 'http://localhost' } } as unknown as string[]);
    await new Promise<void>((done, fail) => {
      ws.addEventListener('open', () => done(), { once: true });
      ws.addEventListener('error', () => fail(new Error(`cannot connect to ${target.webSocketDebuggerUrl}`)), { once: true });
    });
    const inspector = new Inspector(ws);
    // wrangler's proxy keeps one session with workerd: contexts are reported again only on a fresh Runtime.enable.
    await inspector.send('Runtime.disable');
    await inspector.send('Runtime.enable');
    return inspector;
  }

  send<T>(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((done, fail) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        fail(new Error(`${method}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, {
        done: (v) => {
          clearTimeout(timer);
          done(v as T);
        },
        fail: (e) => {
          clearTimeout(timer);
          fail(e);
        },
      });
      this.#ws.send(JSON.stringify({ id, method, params }));
    });
  }

  heap(): Promise<HeapUsage> {
    return this.send<HeapUsage>('Runtime.getHeapUsage');
  }

  /** A full GC (gc(), exposed by --expose-gc, evaluated in the Worker's context), then the heap. */
  async heapAfterGc(): Promise<HeapUsage> {
    if (this.#context === undefined) throw new Error("the inspector reported no execution context for the Worker");
    const { exceptionDetails } = await this.send<{ exceptionDetails?: { text: string } }>('Runtime.evaluate', { expression: 'gc()', contextId: this.#context });
    if (exceptionDetails) throw new Error(`gc() in the Worker failed: ${exceptionDetails.text}`);
    return this.heap();
  }

  close(): void {
    this.#ws.close();
  }
}

/* ---- the workerd processes under the preview ----------------------------------------------------------------- */

function descendants(root: number): Array<{ pid: number; name: string }> {
  const parents = new Map<number, Array<{ pid: number; name: string }>>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), { pid: Number(name), name: comm }]);
    } catch {}
  }
  const out: Array<{ pid: number; name: string }> = [];
  const visit = (pid: number) => {
    for (const child of parents.get(pid) ?? []) {
      out.push(child);
      visit(child.pid);
    }
  };
  visit(root);
  return out;
}

function workerdMemory(previewPid: number): Array<{ pid: number; rssMb: number; peakRssMb: number }> {
  return descendants(previewPid)
    .filter((p) => p.name === 'workerd')
    .flatMap((p) => {
      const m = processMemory(p.pid);
      return m ? [{ pid: p.pid, rssMb: round(m.rss / MB), peakRssMb: round(m.hwm / MB) }] : [];
    });
}

/* ---- the run ------------------------------------------------------------------------------------------------ */

interface Answer {
  kind: 'search' | 'ask';
  query: string;
  status: number;
  ms: number;
  error?: string;
}

async function answer(baseUrl: string, kind: Answer['kind'], query: string): Promise<Answer> {
  const path = kind === 'search' ? `/api/search?q=${encodeURIComponent(query)}` : `/ask?q=${encodeURIComponent(query)}`;
  const t0 = performance.now();
  try {
    const res = await fetch(`${baseUrl}${path}`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(60_000) });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) return { kind, query, status: res.status, ms, error: body.slice(0, 200) };
    const parsed = JSON.parse(body) as { results?: unknown };
    if (!Array.isArray(parsed.results)) return { kind, query, status: res.status, ms, error: `no results array: ${body.slice(0, 200)}` };
    return { kind, query, status: res.status, ms };
  } catch (e) {
    return { kind, query, status: 0, ms: performance.now() - t0, error: String(e).slice(0, 200) };
  }
}

async function pool<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>, stop: () => boolean): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length && !stop()) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out.filter((r) => r !== undefined);
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const mb = (bytes: number | undefined) => (bytes === undefined ? undefined : round(bytes / MB));
const heapMb = (h: HeapUsage | undefined) => (h ? Object.fromEntries(Object.entries(h).map(([k, v]) => [k, mb(v)])) : undefined);

const inspectorPort = await freePort();
const env: Record<string, string> = {
  RATE_LIMIT_MAX: '1000000000',
  LOG_LEVEL: 'info',
  INSPECTOR_PORT: String(inspectorPort),
  ...(siteUrl ? { SITE_URL: siteUrl } : {}),
  ...(values['search-cache-mb'] ? { SEARCH_CACHE_MB: values['search-cache-mb'] } : {}),
  MINIFLARE_WORKERD_PATH: workerdWithFlags(['--expose-gc', ...(limitMb > 0 ? [`--max-heap-size=${limitMb}`] : [])]),
};
const startedAt = performance.now();
const server: RunningServer = await startHost('cloudflare', { distDir: workDist, env });
const readyMs = performance.now() - startedAt;
let exited = false;
server.process.once('exit', () => (exited = true));
const stopServer = async () => {
  await server.stop();
  if (!values.keep && !values.work) rmSync(work, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopServer().then(() => process.exit(130)));

let inspector: Inspector | undefined;
const heaps: { start?: HeapUsage; firstAnswer?: HeapUsage; end?: HeapUsage; endBeforeGc?: HeapUsage } = {};
const peak = { usedSize: 0, totalSize: 0, samples: 0 };
const answers: Answer[] = [];
let firstMs = NaN;
let failure: string | undefined;
try {
  inspector = await Inspector.connect(inspectorPort);
  heaps.start = await inspector.heapAfterGc();
  const first = await answer(server.url, 'search', queries.search[0]!);
  firstMs = first.ms;
  answers.push(first);
  heaps.firstAnswer = await inspector.heapAfterGc();

  let failedInRow = 0;
  const sampler = setInterval(() => {
    inspector!
      .heap()
      .then((h) => {
        peak.usedSize = Math.max(peak.usedSize, h.usedSize);
        peak.totalSize = Math.max(peak.totalSize, h.totalSize);
        peak.samples++;
      })
      .catch(() => {});
  }, Number(values['sample-ms']));
  const jobs = [...queries.search.slice(1).map((q) => ['search', q] as const), ...queries.ask.map((q) => ['ask', q] as const)];
  const rest = await pool(
    jobs,
    concurrency,
    async ([kind, q]) => {
      const a = await answer(server.url, kind, q);
      failedInRow = a.status === 0 ? failedInRow + 1 : 0;
      return a;
    },
    () => exited || failedInRow >= 5,
  );
  clearInterval(sampler);
  answers.push(...rest);
  if (!exited) {
    heaps.endBeforeGc = await inspector.heap();
    peak.usedSize = Math.max(peak.usedSize, heaps.endBeforeGc.usedSize);
    peak.totalSize = Math.max(peak.totalSize, heaps.endBeforeGc.totalSize);
    heaps.end = await inspector.heapAfterGc();
  }
} catch (e) {
  failure = String((e as Error)?.stack ?? e);
}
const processes = exited ? [] : workerdMemory(server.process.pid!);
const exitedDuringRun = exited;
inspector?.close();
const crashLines = server.logs
  .map((l) => (typeof l === 'string' ? l : JSON.stringify(l)))
  .filter((l) => /fatal|heap|out of memory|oom|limit|exceeded|crash|uncaught/i.test(l))
  .slice(-10);
await stopServer();

/* ---- report ------------------------------------------------------------------------------------------------- */

const statuses: Record<string, number> = {};
for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
const latency = (kind: Answer['kind']) => {
  const ms = answers.filter((a) => a.kind === kind && a.status === 200).map((a) => a.ms);
  return { n: ms.length, p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), max: round(Math.max(...ms)) };
};
const expected = queries.search.length + queries.ask.length;
const all200 = answers.length === expected && answers.every((a) => a.status === 200);
const result = {
  bench: 'isolate',
  date: new Date().toISOString(),
  dist: distDir,
  episodesHint: sourceFiles.filter((f) => /^episodes\/[^/]+\/index\.html$/.test(f.path)).length,
  host: 'cloudflare preview (wrangler dev, workerd)',
  limitMb: limitMb > 0 ? limitMb : null,
  limitEnforcedBy: limitMb > 0 ? `V8 flag --max-heap-size=${limitMb} in workerd's config (workerd itself enforces no limit)` : null,
  assets: {
    files: sourceFiles.length,
    uploaded: plan.uploaded.length + plan.oversize.length,
    ignored: plan.ignored,
    fileLimit: ASSET_LIMITS.files,
    paidFileLimit: ASSET_LIMITS.paidFiles,
    withinFileLimit: plan.withinFileLimit,
    oversize: plan.oversize.map((f) => ({ path: f.path, mib: round(f.bytes / MB) })),
    note: plan.oversize.length ? 'files over 25 MiB are refused by wrangler dev and deploy: measured without them' : undefined,
  },
  readyMs: Math.round(readyMs),
  firstAnswerMs: round(firstMs),
  heapMb: {
    start: heapMb(heaps.start),
    afterFirstAnswer: heapMb(heaps.firstAnswer),
    afterAllBeforeGc: heapMb(heaps.endBeforeGc),
    afterAll: heapMb(heaps.end),
    peakSampled: { usedSize: mb(peak.usedSize), totalSize: mb(peak.totalSize), samples: peak.samples },
  },
  workerdProcesses: processes,
  answers: { expected, answered: answers.length, statuses, all200 },
  latencyMs: { search: latency('search'), ask: latency('ask') },
  concurrency,
  errors: answers.filter((a) => a.error).slice(0, 5).map((a) => ({ kind: a.kind, query: a.query, status: a.status, error: a.error })),
  exited: exitedDuringRun,
  failure,
  crashLines: exitedDuringRun || failure ? crashLines : undefined,
  within128: heaps.end && peak.totalSize ? peak.totalSize <= 128 * MB && all200 : false,
};

const f = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : String(n));
const rows: Array<[string, string]> = [
  ['static assets (Workers would upload)', `${result.assets.uploaded} files of ${ASSET_LIMITS.files.toLocaleString('en')} (free plan) ${plan.withinFileLimit ? 'OK' : 'OVER'}`],
  ...plan.oversize.map((o): [string, string] => [`  over 25 MiB, left out`, `${o.path} (${round(o.bytes / MB)} MiB)`]),
  ['preview ready', `${result.readyMs} ms`],
  ['first search answered', `${f(result.firstAnswerMs)} ms`],
  ['heap at start (after GC), used / total', `${f(mb(heaps.start?.usedSize))} / ${f(mb(heaps.start?.totalSize))} MB`],
  ['heap after first answer (after GC)', `${f(mb(heaps.firstAnswer?.usedSize))} / ${f(mb(heaps.firstAnswer?.totalSize))} MB`],
  ['heap after all queries (before GC)', `${f(mb(heaps.endBeforeGc?.usedSize))} / ${f(mb(heaps.endBeforeGc?.totalSize))} MB`],
  ['heap after all queries (after GC)', `${f(mb(heaps.end?.usedSize))} / ${f(mb(heaps.end?.totalSize))} MB`],
  ['heap peak (sampled, no GC)', `${f(mb(peak.usedSize))} / ${f(mb(peak.totalSize))} MB (${peak.samples} samples)`],
  ...processes.map((p): [string, string] => [`workerd pid ${p.pid} RSS (peak)`, `${p.rssMb} MB (${p.peakRssMb} MB)`]),
  ['answers', `${answers.length}/${expected}, statuses ${JSON.stringify(statuses)}`],
  ['search p50 / p99', `${result.latencyMs.search.p50} / ${result.latencyMs.search.p99} ms (n=${result.latencyMs.search.n})`],
  ['ask p50 / p99', `${result.latencyMs.ask.p50} / ${result.latencyMs.ask.p99} ms (n=${result.latencyMs.ask.n})`],
  ['limit', result.limitEnforcedBy ?? 'none (workerd enforces none)'],
  ['inside 128 MB', result.within128 ? 'yes' : 'NO'],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`\nCloudflare preview isolate, ${result.episodesHint} episodes, concurrency ${concurrency}`);
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
if (failure) console.log(`\nfailure: ${failure}`);
if (result.crashLines?.length) console.log(`\nlast matching log lines:\n${result.crashLines.join('\n')}`);
console.log(JSON.stringify(result));
process.exit(all200 && !failure ? 0 : 1);
