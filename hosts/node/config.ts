import type { ServiceEnv } from '../../functions/types.ts';
import { positiveInt, readServiceEnv, SERVICE_ENV_HELP } from '../../functions/env.ts';

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
}

export const ENV_HELP = `Environment:
  HOST           interface to listen on (default: localhost; 0.0.0.0 for all)
  PORT           port to listen on (default: 4321)
  DIST_DIR       build output to serve (default: dist)
  SHUTDOWN_TIMEOUT_MS   on SIGTERM/SIGINT, how long requests in flight may take to finish (default: 10000)
  HEADERS_TIMEOUT_MS    a client that has not sent its request headers by then gets a 408 and is disconnected (default: 10000)
  STATIC_CACHE_MB       megabytes of the build's files (pages, documents, their .br/.gz) kept in memory; the rest is
                        read from disk when asked for (default: 32)
${SERVICE_ENV_HELP}`;

/**
 * The search index budget is the functions' default (32 MB) here too. At N = 1,000 (bench/) the shards and
 * passage chunks of the bench's 200 searches take ~29 MB as the engine keeps them, and since the shards and the
 * chunks borrow each other's unused share (functions/search/engine.ts) 32 MB holds them; a server's 48 MB held
 * more of /ask's ~95 MB for ~20 MB more RSS after a minute of mixed load, against issue 13's 300 MB. A server
 * with memory to spare sets SEARCH_CACHE_MB higher.
 */
export function readConfig(vars: Record<string, string | undefined> = process.env): ServerConfig {
  const port = Number(vars.PORT ?? 4321);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0–65535, got "${vars.PORT}"`);
  return {
    ...readServiceEnv(vars),
    shutdownTimeoutMs: positiveInt(vars, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    headersTimeoutMs: positiveInt(vars, 'HEADERS_TIMEOUT_MS', 10_000),
    staticCacheMb: positiveInt(vars, 'STATIC_CACHE_MB', 32),
    host: vars.HOST || 'localhost',
    port,
    distDir: vars.DIST_DIR || vars.ASTRO_OUT_DIR || 'dist',
  };
}
