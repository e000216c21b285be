import type { ServiceEnv } from '../../functions/types.ts';
import { MAX_TIMER_MS, positiveInt, readServiceEnv, SERVICE_ENV_HELP } from '../../functions/env.ts';
import { IDLE_MS, MIN_INTERVAL_MS } from './idle-gc.ts';

export interface ServerConfig extends ServiceEnv {
  host: string;
  port: number;
  /** Build output folder (Astro's outDir). */
  distDir: string;
  /** How long a shutdown waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** How long a client may take to send the request headers before it gets a 408 and is disconnected. */
  headersTimeoutMs: number;
  /** Megabytes of the build's files (pages, documents, their .br/.gz) kept in memory; the rest is read from disk. */
  staticCacheMb: number;
  /** Quiet time after the last request before the memory V8 kept is returned (idle-gc.ts; needs --expose-gc). */
  idleGcMs: number;
}

export const ENV_HELP = `Environment:
  HOST           interface to listen on (default: localhost; 0.0.0.0 for all)
  PORT           port to listen on (default: 4321)
  DIST_DIR       build output to serve (default: dist)
  SHUTDOWN_TIMEOUT_MS   on SIGTERM/SIGINT, how long requests in flight may take to finish (default: 10000)
  HEADERS_TIMEOUT_MS    a client that has not sent its request headers by then gets a 408 and is disconnected (default: 10000)
  STATIC_CACHE_MB       megabytes of the build's files (pages, documents, their .br/.gz) kept in memory; the rest is
                        read from disk when asked for (default: 32)
  IDLE_GC_MS            after this long without a request, one garbage collection returns the memory V8 kept for
                        reuse (default: ${IDLE_MS}; at most once every ${MIN_INTERVAL_MS / 1000} s; only when Node runs with
                        --expose-gc, as npm start does)
${SERVICE_ENV_HELP}`;

/**
 * The hosts' command-line arguments: only `--help` (`-h`), since every setting comes from the environment. Anything
 * else was being ignored without a word (`npm start -- --port 5000` listened on 4321): it throws, naming the
 * environment variable where an option matches one.
 */
export function readArgs(args: readonly string[], command = 'npm start'): { help: boolean } {
  const unknown = args.find((arg) => arg !== '--help' && arg !== '-h');
  if (unknown === undefined) return { help: args.length > 0 };
  const [flag = '', inline] = unknown.split(/=(.*)/s);
  const name = flag.replace(/^-+/, '').replace(/-/g, '_').toUpperCase();
  const next = args[args.indexOf(unknown) + 1];
  const value = inline ?? (next && !next.startsWith('-') ? next : '...');
  const setting = /^[A-Z][A-Z0-9_]*$/.test(name) && new RegExp(`\\b${name}\\b`).test(ENV_HELP) ? ` (${name}=${value} ${command})` : '';
  throw new Error(`${command} takes no argument "${unknown}": its settings come from the environment${setting}; ${command} -- --help lists them`);
}

/** readArgs at a host's start: prints `help` and exits 0 when asked for it, or the problem and exits 1. */
export function exitOnArgs(command: string, help: string, args: readonly string[] = process.argv.slice(2)): void {
  let asked: boolean;
  try {
    asked = readArgs(args, command).help;
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  if (asked) {
    console.log(help);
    process.exit(0);
  }
}

/**
 * npm start's index budget (SEARCH_CACHE_MB unset): the functions' 32 MB, or this many bytes per transcript
 * passage of the show where that is more (functions/search/engine.ts cacheBudget), so that a server holds as large
 * a share of the index at 2,000 episodes as at 1,000. At N = 1,000 hour-long episodes (bench/, 103,553 passages)
 * the bench's 200 searches need ~29 MB of shards and chunks as the engine keeps them, and its 200 /ask questions
 * ~64 MB with them: at 32 MB nearly every question read its ~15 chunk files again (in-process ask p99 48-60 ms),
 * at 64 MB none (5.7-8.6 ms). Below ~64 MB there is no middle ground (40, 48, 56 MB: 34-39 ms), so the rate has
 * headroom above the 650 bytes a passage that 64 MB comes to: 700 (69 MB at N = 1,000).
 */
export const SEARCH_CACHE_BYTES_PER_PASSAGE = 700;

export function readConfig(vars: Record<string, string | undefined> = process.env): ServerConfig {
  // Empty is unset, as for every other setting (it had meant port 0: a random port); only decimal digits ("0x50" and
  // " 80" had been read as 80).
  const port = vars.PORT ? (/^\d{1,5}$/.test(vars.PORT) ? Number(vars.PORT) : NaN) : 4321;
  if (!(port >= 0 && port <= 65535)) throw new Error(`PORT must be a whole number from 0 to 65535 (0: any free port), got "${vars.PORT}"`);
  return {
    ...readServiceEnv(vars, { searchCachePerPassage: SEARCH_CACHE_BYTES_PER_PASSAGE }),
    shutdownTimeoutMs: positiveInt(vars, 'SHUTDOWN_TIMEOUT_MS', 10_000, MAX_TIMER_MS),
    headersTimeoutMs: positiveInt(vars, 'HEADERS_TIMEOUT_MS', 10_000, MAX_TIMER_MS),
    staticCacheMb: positiveInt(vars, 'STATIC_CACHE_MB', 32),
    idleGcMs: positiveInt(vars, 'IDLE_GC_MS', IDLE_MS, MAX_TIMER_MS),
    host: vars.HOST || 'localhost',
    port,
    distDir: vars.DIST_DIR || vars.ASTRO_OUT_DIR || 'dist',
  };
}
