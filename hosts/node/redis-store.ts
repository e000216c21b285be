/**
 * The shared store: every process pointed at the same Redis counts against one budget per client, and sees the
 * same single-use state (redeemed authorization codes, used refresh tokens, revocations, registered redirect
 * URIs). One connection serves both.
 *
 * Rate limit: one Lua script per request increments the window's counter and sets its expiry in one atomic step,
 * so concurrent processes never lose a count and a crash between the two commands cannot leave a counter without
 * an expiry. Single use: SET NX PX, atomic across processes, so a code is redeemed once in the whole deployment.
 *
 * Redis is a dependency the service must survive losing: while it is unreachable (not connected, an error, or no
 * answer within timeoutMs), requests are counted in this process instead (MemoryRateLimitStore: each process
 * then allows the full budget on its own), single-use state is kept in this process (MemorySingleUseStore: a code
 * could then be redeemed once per process), the service keeps answering, the outage is logged once, and Redis is
 * used again as soon as the client reconnects. Commands are never queued while disconnected, so a dead Redis adds
 * no latency; and a Redis that holds the connection but does not answer (hung, stopped, overloaded) costs one
 * request timeoutMs, after which Redis is left alone for retryAfterMs (the next request tries it again). Every single-use mark is also written to this process's memory, so a process never forgets its own
 * redemptions and revocations during an outage.
 */
import { createClient } from 'redis';
import type { Logger } from '../../functions/types.ts';
import { MemoryRateLimitStore } from '../../functions/ratelimit/memory.ts';
import type { RateLimitHit, RateLimitStore } from '../../functions/ratelimit/store.ts';
import { MemorySingleUseStore } from '../../functions/single-use/memory.ts';
import type { SingleUseStore } from '../../functions/single-use/store.ts';

/** KEYS[1] counter; ARGV[1] window in ms. Returns { count, ms until the window ends }. */
export const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

export interface RedisStoreOptions {
  url: string;
  log: Logger;
  /** A command slower than this counts as an outage for that request (default 250 ms). */
  timeoutMs?: number;
  /** After a failed or timed-out command, Redis is not asked again for this long (default 2,000 ms). */
  retryAfterMs?: number;
  /** Key prefix, so the service can share a Redis with others (default "ratelimit:"). */
  prefix?: string;
  /** Key prefix of the single-use state (default "once:"). */
  oncePrefix?: string;
}

export class RedisSharedStore implements RateLimitStore, SingleUseStore {
  readonly #client: ReturnType<typeof createClient>;
  readonly #fallback = new MemoryRateLimitStore();
  readonly #local = new MemorySingleUseStore();
  readonly #oncePrefix: string;
  readonly #log: Logger;
  readonly #timeoutMs: number;
  readonly #retryAfterMs: number;
  /** Until then (performance.now()) requests are answered in this process without asking Redis. */
  #pausedUntil = 0;
  readonly #prefix: string;
  readonly #where: string;
  #sha: string | undefined;
  /** True while requests are being counted locally; flips back on the next success. */
  #degraded = false;
  #everReady = false;
  #closing = false;

  constructor(options: RedisStoreOptions) {
    this.#log = options.log;
    this.#timeoutMs = options.timeoutMs ?? 250;
    this.#retryAfterMs = options.retryAfterMs ?? 2_000;
    this.#prefix = options.prefix ?? 'ratelimit:';
    this.#oncePrefix = options.oncePrefix ?? 'once:';
    this.#where = redactUrl(options.url);
    this.#client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 2_000,
        // Keep trying forever, quickly at first, at most every 2 s: recovery must not need a restart.
        reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000),
      },
    });
    this.#client.on('error', (err: Error) => this.#down(err));
    this.#client.on('ready', () => {
      this.#sha = undefined;
      this.#log.info(this.#everReady ? 'rate limit store reconnected' : 'rate limit store connected', { store: 'redis', redis: this.#where });
      this.#everReady = true;
      this.#degraded = false;
      this.#pausedUntil = 0;
    });
    this.#client.connect().catch((err: Error) => {
      if (!this.#closing) this.#down(err);
    });
  }

  /** Resolves true once connected, or false after timeoutMs (the service starts anyway, counting locally). */
  ready(timeoutMs: number): Promise<boolean> {
    if (this.#client.isReady) return Promise.resolve(true);
    return new Promise((done) => {
      const timer = setTimeout(() => {
        this.#client.off('ready', onReady);
        done(false);
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        done(true);
      };
      this.#client.once('ready', onReady);
    });
  }

  hit(key: string, windowMs: number, now: number): RateLimitHit | Promise<RateLimitHit> {
    if (!this.#usable()) return this.#fallback.hit(key, windowMs, now);
    return this.#remoteHit(key, windowMs, now).catch((err: Error) => {
      this.#failed(err);
      return this.#fallback.hit(key, windowMs, now);
    });
  }

  /** Whether to ask Redis now: connected, and not resting after a failure. */
  #usable(): boolean {
    if (!this.#client.isReady) {
      this.#down();
      return false;
    }
    return performance.now() >= this.#pausedUntil;
  }

  #failed(err: Error): void {
    this.#pausedUntil = performance.now() + this.#retryAfterMs;
    this.#down(err);
  }

  async #remoteHit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    const options = { keys: [this.#prefix + key], arguments: [String(windowMs)] };
    const reply = (await this.#remote(async (): Promise<unknown> => {
      if (this.#sha) {
        try {
          return await this.#client.evalSha(this.#sha, options);
        } catch (err) {
          if (!String((err as Error)?.message).includes('NOSCRIPT')) throw err;
        }
      }
      this.#sha = await this.#client.scriptLoad(HIT_SCRIPT);
      return this.#client.evalSha(this.#sha, options);
    })) as [number, number];
    const count = Number(reply[0]);
    const ttl = Number(reply[1]);
    if (!Number.isFinite(count) || !Number.isFinite(ttl)) throw new Error('unexpected reply from the rate-limit script');
    return { count, resetAt: now + Math.max(0, ttl) };
  }

  /**
   * Runs one Redis command with the deadline; a success ends a degraded spell. The deadline measures Redis, not
   * this process: when the event loop was held by this process's own work (a cold /ask, a GC pause), the timer
   * comes due in the same turn as the reply, and Node runs timers before it reads sockets. So a timer that fires
   * late gives Redis its deadline again from now (twice at most), and a timer that fires on time still lets one
   * poll phase read a reply already waiting before it gives up.
   */
  async #remote<T>(run: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let immediate: ReturnType<typeof setImmediate> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      let due = performance.now() + this.#timeoutMs;
      let extensions = 2;
      const expire = () => {
        if (performance.now() - due > Math.max(20, this.#timeoutMs / 5) && extensions-- > 0) {
          due = performance.now() + this.#timeoutMs;
          timer = setTimeout(expire, this.#timeoutMs);
          return;
        }
        immediate = setImmediate(() => reject(new Error(`Redis did not answer within ${this.#timeoutMs} ms`)));
      };
      timer = setTimeout(expire, this.#timeoutMs);
    });
    try {
      const result = await Promise.race([run(), timeout]);
      if (this.#degraded) {
        this.#degraded = false;
        this.#log.info('rate limit store recovered', { store: 'redis', redis: this.#where });
      }
      return result;
    } finally {
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    }
  }

  /** A single-use command, or the local answer while Redis is away. Never rejects. */
  async #once<T>(run: () => Promise<T>, local: () => T): Promise<T> {
    if (!this.#usable()) return local();
    try {
      return await this.#remote(run);
    } catch (err) {
      this.#failed(err as Error);
      return local();
    }
  }

  async add(key: string, ttlMs: number): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(ttlMs));
    // Locally first: a second use in this process is refused even if Redis is lost in between.
    if (!this.#local.addSync(key, ms)) return false;
    return this.#once(async () => (await this.#client.set(this.#oncePrefix + key, '1', { condition: 'NX', expiration: { type: 'PX', value: ms } })) === 'OK', () => true);
  }

  async set(key: string, ttlMs: number): Promise<void> {
    const ms = Math.max(1, Math.ceil(ttlMs));
    await this.#local.set(key, ms);
    await this.#once(async () => void (await this.#client.set(this.#oncePrefix + key, '1', { expiration: { type: 'PX', value: ms } })), () => undefined);
  }

  async has(key: string): Promise<boolean> {
    if (this.#local.hasSync(key)) return true;
    return this.#once(async () => (await this.#client.exists(this.#oncePrefix + key)) > 0, () => false);
  }

  #down(err?: Error): void {
    if (this.#degraded || this.#closing) return;
    this.#degraded = true;
    this.#log.warn('rate limit store unavailable; counting in this process until Redis is back', {
      store: 'redis',
      redis: this.#where,
      error: err ? err.message || String(err) : 'not connected',
    });
  }

  async close(): Promise<void> {
    this.#closing = true;
    if (this.#client.isReady) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((done) => (timer = setTimeout(done, 1_000)));
      await Promise.race([this.#client.close().catch(() => {}), late]);
      clearTimeout(timer);
    }
    if (this.#client.isOpen) this.#client.destroy();
  }
}

/** The URL without its password, for logs. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis';
  }
}

/** The name the rate-limit store had before it also held single-use state. */
export { RedisSharedStore as RedisRateLimitStore };
