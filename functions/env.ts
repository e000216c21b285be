/**
 * The service's settings, read the same way on every host from the variables its platform provides (process.env
 * on Node, Bun and Deno; the env bindings and secrets of a Worker; Netlify's and Vercel's environment).
 * A bad value is a start-up error naming the variable, never a silent default.
 */
import { PROXY_HEADERS, type ProxyHeader } from './middleware/client-ip.ts';
import type { ServiceEnv } from './types.ts';

export const SERVICE_ENV_HELP = `  SITE_URL       public address of the service ({base_url}); used at build time for every absolute URL
                 (npm start rebuilds when the build was made for another address)
  TRUST_PROXY    number of reverse-proxy hops whose X-Forwarded-For/Forwarded to trust (default: 0 = none)
  TRUST_PROXY_HEADER  the header those proxies write the client's address in: x-forwarded-for (default) or
                 forwarded (RFC 7239); only that one is read
  REDIS_URL      redis://host:port: share the rate-limit budget and single-use OAuth state between processes (default: in memory)
  LOG_LEVEL      debug | info | warn | error | silent (default: info); info writes one access-log line per request
  RATE_LIMIT_MAX        requests per window per client IP (default: 60, the contract's limit; raise only for load tests)
  RATE_LIMIT_WINDOW_MS  rate-limit window in milliseconds (default: 60000; shorter only for tests)
  RESPONSE_TIMEOUT_MS   a request whose answer has not started by then gets a 503 (default: 30000)
  SEARCH_CACHE_MB       megabytes of the search index (shards, passages) a process keeps loaded (default: 32, which
                        fits a 128 MB function isolate; npm start: 32, or more for a larger show, see README)
  SIGNING_KEY    Ed25519 private key (JWK JSON or PKCS#8 PEM) for tokens (EdDSA)
  SIGNING_SECRET secret for HS256 tokens when no SIGNING_KEY is set (dev: a key is generated at start)
  MCP_ALLOWED_ORIGINS  extra browser origins allowed to call /mcp (comma-separated; the site's own and loopback always are)
  TIP_WALLET_ADDRESS, TIP_NETWORK, TIP_URL   tip settings (override content/podcast.yaml at build time)`;

/** The variables SERVICE_ENV_HELP describes: what a host passes on to the service (e.g. a Worker's vars). */
export const SERVICE_ENV_NAMES = [
  'SITE_URL',
  'TRUST_PROXY',
  'TRUST_PROXY_HEADER',
  'REDIS_URL',
  'LOG_LEVEL',
  'RATE_LIMIT_MAX',
  'RATE_LIMIT_WINDOW_MS',
  'RESPONSE_TIMEOUT_MS',
  'SEARCH_CACHE_MB',
  'SIGNING_KEY',
  'SIGNING_SECRET',
  'MCP_ALLOWED_ORIGINS',
  'TIP_WALLET_ADDRESS',
  'TIP_NETWORK',
  'TIP_URL',
] as const;

export type EnvVars = Record<string, string | undefined>;

/** Defaults a host may set for itself (a server has more memory than a function isolate). */
export interface HostDefaults {
  searchCacheMb?: number;
  /** Unless SEARCH_CACHE_MB is set: the budget grows to this many bytes per transcript passage of the show. */
  searchCachePerPassage?: number;
}

export function readServiceEnv(vars: EnvVars, defaults: HostDefaults = {}): ServiceEnv {
  // Digits only: Number() read "0x1", "1e0" and " 1" as one hop to trust.
  const trustProxy = vars.TRUST_PROXY ? (/^\d{1,3}$/.test(vars.TRUST_PROXY) ? Number(vars.TRUST_PROXY) : NaN) : 0;
  if (Number.isNaN(trustProxy)) {
    throw new Error(`TRUST_PROXY must be a number of hops (0, 1, 2, ...), got "${vars.TRUST_PROXY}"`);
  }
  const trustProxyHeader = (vars.TRUST_PROXY_HEADER || 'x-forwarded-for').toLowerCase() as ProxyHeader;
  if (!PROXY_HEADERS.includes(trustProxyHeader)) {
    throw new Error(`TRUST_PROXY_HEADER must be x-forwarded-for or forwarded, got "${vars.TRUST_PROXY_HEADER}"`);
  }
  const logLevel = (vars.LOG_LEVEL ?? 'info') as ServiceEnv['logLevel'];
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be debug, info, warn, error or silent, got "${vars.LOG_LEVEL}"`);
  }
  return {
    rateLimitMax: positiveInt(vars, 'RATE_LIMIT_MAX', 60),
    rateLimitWindowMs: positiveInt(vars, 'RATE_LIMIT_WINDOW_MS', 60_000, MAX_TIMER_MS),
    responseTimeoutMs: positiveInt(vars, 'RESPONSE_TIMEOUT_MS', 30_000, MAX_TIMER_MS),
    searchCacheMb: positiveInt(vars, 'SEARCH_CACHE_MB', defaults.searchCacheMb ?? 32),
    // An operator's SEARCH_CACHE_MB is the budget, whatever the show's size.
    searchCachePerPassage: vars.SEARCH_CACHE_MB ? 0 : (defaults.searchCachePerPassage ?? 0),
    siteUrl: vars.SITE_URL || undefined,
    trustProxy,
    trustProxyHeader,
    redisUrl: redisUrl(vars.REDIS_URL),
    mcpAllowedOrigins: allowedOrigins(vars.MCP_ALLOWED_ORIGINS),
    logLevel,
    vars,
  };
}

/**
 * The longest time a timer can wait (2^31 - 1 ms, about 24.8 days): JavaScript runtimes run a longer timeout after
 * 1 ms instead, which would turn a generous deadline into none at all.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A whole number written in decimal digits (no sign, exponent, hex or spaces), from 1 to max. */
export function positiveInt(vars: EnvVars, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = vars[name];
  if (raw === undefined || raw === '') return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new Error(`${name} must be a whole number of at least 1${max < Number.MAX_SAFE_INTEGER ? ` and at most ${max}` : ''}, got "${raw}"`);
  }
  return value;
}

/** REDIS_URL as the Redis client takes it (redis:// or rediss://, with a host), checked at start rather than at first use. */
function redisUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const url = parsedUrl(raw);
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    throw new Error(`REDIS_URL must be redis://host:port (or rediss:// for TLS), got "${raw}"`);
  }
  return raw;
}

/**
 * MCP_ALLOWED_ORIGINS as origins (scheme://host[:port]). An entry that is not one was allowing nothing without a
 * word, so the operator's app was refused with 403 for a typo; a path after the origin is refused for the same reason
 * (a browser's Origin never has one).
 */
function allowedOrigins(raw: string | undefined): readonly string[] {
  const origins: string[] = [];
  for (const entry of (raw ?? '').split(',').map((e) => e.trim())) {
    if (!entry) continue;
    const url = parsedUrl(entry);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username || entry.endsWith('#') || entry.endsWith('?')) {
      throw new Error(`MCP_ALLOWED_ORIGINS must list origins such as https://app.example or http://localhost:5173, comma-separated; "${entry}" is not one`);
    }
    origins.push(url.origin);
  }
  return origins;
}

/** The URL, or undefined when it does not parse: URL.parse, written out for a runtime that may lack it. */
function parsedUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}
