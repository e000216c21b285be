/**
 * The shapes every handler shares. Handlers are Web-standard: a Request in, a Response out, plus a context that
 * the host (hosts/node for Node, or any other adapter) fills in. Nothing here may use a Node-only API.
 */
import type { DataStore } from './data.ts';
import type { SingleUseStore } from './single-use/store.ts';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Settings that come from the environment, read once by the host. */
export interface ServiceEnv {
  /** Overrides the built site URL at run time when set (e.g. behind a proxy at another address). */
  siteUrl?: string;
  /** Number of proxy hops whose X-Forwarded-For / Forwarded entries are trusted; 0 = use the socket address. */
  trustProxy: number;
  /** The header those proxies write the client's address in; only it is read. */
  trustProxyHeader: 'x-forwarded-for' | 'forwarded';
  redisUrl?: string;
  /** Browser origins besides the site's own (and loopback) allowed to call /mcp (MCP_ALLOWED_ORIGINS). */
  mcpAllowedOrigins: readonly string[];
  /** Requests per window per client (the contract: 60). */
  rateLimitMax: number;
  /** Rate-limit window length in ms (the contract: 60000). */
  rateLimitWindowMs: number;
  /** How long the pipeline may take to start an answer before the client gets a 503. */
  responseTimeoutMs: number;
  /** Megabytes of the search index a process keeps loaded (functions/search/engine.ts CACHE_LIMITS). */
  searchCacheMb: number;
  /** When more: bytes per transcript passage of the show (a server's default; 0 when SEARCH_CACHE_MB is set). */
  searchCachePerPassage: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Raw environment, for modules with settings of their own (signing keys, tip settings). */
  vars: Record<string, string | undefined>;
}

export interface RequestContext {
  /** The parsed request URL. */
  url: URL;
  /** Client address after TRUST_PROXY is applied. */
  clientIp: string;
  env: ServiceEnv;
  data: DataStore;
  log: Logger;
  /** Aborted when the client goes away, so long work (an event stream) can stop. */
  signal: AbortSignal;
  /** Aborts `signal` (the response deadline uses it when a handler takes too long). */
  abort?: () => void;
  /** Single-use state (redeemed codes, revocations, registered redirect URIs), shared across processes when the host can. */
  singleUse: SingleUseStore;
  /** Set by the auth middleware when a valid bearer token was sent. */
  auth?: { sub: string; scope: string; client_id: string };
  /** Response headers that middleware adds to whatever the handler answers (rate limit, CORS, ...). */
  headers: Headers;
  /** The API route whose path matched, found once before the middleware runs (CORS and dispatch both need it). */
  route?: Route;
  /** The socket's address, before TRUST_PROXY was applied (for logs). */
  peerIp?: string;
}

export type Next = () => Promise<Response>;
/** One step of the pipeline: answers itself, or calls next() and may adjust what comes back. */
export type Middleware = (request: Request, ctx: RequestContext, next: Next) => Promise<Response>;

export type Handler = (request: Request, ctx: RequestContext) => Response | Promise<Response>;

/** A route: exact path, the methods it answers, and its handler. HEAD is derived from GET, OPTIONS by CORS. */
export interface Route {
  path: string;
  methods: Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;
  /** Public read endpoints get `Access-Control-Allow-Origin: *`. */
  cors?: boolean;
}
