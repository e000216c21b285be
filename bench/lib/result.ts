/** The shape of bench/results/n<N>.json: every figure of one run, from which RESULTS.md is rendered. */
import type { LoadOptions, LoadResult } from './http.ts';
import type { ProfileSummary } from './profile.ts';
import type { LatencySummary } from './stats.ts';

export interface DocumentSize {
  /** A file, or a family of files ("/transcripts/*"). */
  path: string;
  files: number;
  bytes: number;
  gzipBytes: number;
  /** Sum of the .br files the build wrote beside them (0: none). */
  brBytes?: number;
  largestBytes: number;
}

export type HttpRow =
  | (LoadResult & {
      ratio: number;
      /** Baseline's server CPU per request ÷ this one's: the cost ratio, which contention distorts less than req/s. */
      cpuRatio?: number;
      baseline: string;
    })
  | { name: string; skipped: string; baseline: string };

export interface InProcess {
  /** The index budget the run had (SEARCH_CACHE_MB). */
  cacheMb?: number;
  firstAnswerMs: number;
  processToFirstAnswerMs: number;
  probeTotal: number;
  engineHeapBytes: number;
  heapUsedBytes: number;
  memory?: { hwm: number; rss: number };
  search: LatencySummary & { avgMatches: number; emptyShare: number };
  ask: LatencySummary & { avgMatches: number; emptyShare: number };
  /** Diagnostics: ranking alone (engine.search, no result objects or snippets), and searches typed with a
   * trailing space (so the last word is not also expanded as a prefix). */
  searchRankOnly?: LatencySummary;
  searchNoAutoPrefix?: LatencySummary & { avgMatches: number; emptyShare: number };
  /** Since issue 13: each query's first run (shards and passages loaded on demand), answers from the cache, the
   * heap once every query ran (bounded caches), and what an offline client downloads before its first answer. */
  searchFirstTime?: LatencySummary;
  askFirstTime?: LatencySummary;
  searchCached?: LatencySummary & { avgMatches: number; emptyShare: number };
  heapAfterQueriesBytes?: number;
  loaded?: { shards: number; passages?: number; passageChunks?: number; answers: number; bytes?: number };
  offline?: { queries: number; medianGzipBytes: number; maxGzipBytes: number; medianFiles: number; maxRawBytes: number };
}

export interface EngineBuild {
  buildMs: number;
  indexMs: number;
  serializeMs: number;
  bytes: number;
  gzipBytes: number;
  terms: number;
  heapBytes: number;
}

export interface EngineQuery {
  engine: string;
  readMs: number;
  parseMs: number;
  loadMs: number;
  firstQueryMs: number;
  processToFirstAnswerMs: number;
  heapBytes: number;
  memory?: { hwm: number; rss: number };
  search: LatencySummary & { avgMatches: number };
  ask: LatencySummary & { avgMatches: number };
}

/**
 * One build of several; `syncMs`: how long writing out the dirty pages before it took (lib/fs-probe.ts flushWrites;
 * since the forty-sixth session); `newFileUs`: what a new file cost on the disk just before it (lib/fs-probe.ts;
 * since the thirty-seventh session); `cpuProbeMs`: the fixed CPU work's time just before it (lib/cpu-probe.ts; since
 * the forty-fifth session).
 */
export interface BuildRun {
  ms: number;
  cpuMs?: number;
  syncMs?: number;
  newFileUs?: number;
  cpuProbeMs?: number;
}

export interface BenchResult {
  episodes: number;
  seed: number;
  date: string;
  command: string;
  machine: { cpu: string; cores: number; memoryBytes: number; os: string; node: string };
  loadavg: { start: [number, number, number]; end?: [number, number, number] };
  totalMs?: number;
  stages: Record<string, { ms: number; error?: string }>;
  corpus?: { episodes: number; hours: number; words: number; vocabulary: number; properNouns: number; ms: number };
  queries?: { search: number; ask: number; mix: string; examples: string[]; askExamples: string[] };
  build?: {
    ms: number;
    /** user + system CPU of the build and its children. */
    cpuMs?: number;
    phases: Array<{ name: string; ms: number }>;
    notes: string[];
    routes: Array<{ path: string; count: number; ms: number }>;
    /** Pages copied from an earlier build's cache (Astro's incremental build) instead of rendered. */
    restored?: number;
    /** Pages kept in place from the previous output instead of rendered (src/integration/kept-pages.ts). */
    kept?: number;
    /** Every full build of the run (the figure above is the median one's; results before the twenty-sixth session hold one, no `runs`). */
    runs?: Array<BuildRun>;
  };
  documents?: DocumentSize[];
  /** The website's pages a listener downloads (bench/lib/site-pages.ts). */
  sitePages?: import('./site-pages.ts').SitePages;
  coldStart?: {
    runs: Array<{ toListeningMs: number; toFirstSearchMs: number; cpuMs?: number; status: number; rateLimitHeader?: string; error?: string }>;
    medianToListeningMs: number;
    medianToFirstSearchMs: number;
  };
  serverMemory?: { afterLoad?: { hwm: number; rss: number }; afterFirstAnswer?: { hwm: number; rss: number } };
  http: { options: LoadOptions; rows?: HttpRow[] };
  /** bench/hosts.ts over the same build: Node beside workerd (and bare node:http). */
  hosts?: {
    options: { connections: number; duration: number; warmup: number };
    rows: Array<{ host: string; path: string; reqPerSec: number; p99Ms: number; ratioToBare?: number; valid: boolean }>;
  };
  /** In-process latency under the V8 flags `npm start` runs the server with (package.json). */
  inProcess?: InProcess;
  /** The same with V8's defaults, as a function isolate runs the engine (no flags can be set there). */
  inProcessV8Defaults?: InProcess;
  /**
   * The build again with one more episode (same Astro cache and output), the median of `runs` such rebuilds, each
   * adding one episode to the previous one's show (results before the twenty-sixth session hold one, no `runs`).
   * `restored`: pages Astro copied from the previous build's cache (incremental build) instead of rendering them;
   * `kept`: those it found in place instead, kept from the previous output (src/integration/kept-pages.ts).
   */
  rebuild?: { ms: number; cpuMs?: number; phases: Array<{ name: string; ms: number }>; restored?: number; kept?: number; runs?: Array<BuildRun> };
  engines?: {
    build?: { documents?: number; passages?: number; minisearch?: EngineBuild; lunr?: EngineBuild };
    lunr?: EngineQuery;
    minisearch?: EngineQuery;
  };
  profiles?: Partial<Record<'cold' | 'search' | 'build', ProfileSummary & { wallMs?: number; cpuMs?: number }>>;
}
