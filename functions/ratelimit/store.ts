/**
 * Where rate-limit counters live. Fixed windows per key: the first request of a key opens a window of windowMs,
 * every request in it increments one counter, and the window ends at resetAt. Two implementations: memory.ts
 * (one process) and redis.ts (shared by every process that points at the same Redis).
 */

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window ends (epoch milliseconds). */
  resetAt: number;
}

export interface RateLimitStore {
  /** Counts one request for key. May answer synchronously (memory) or not (Redis); must never reject. */
  hit(key: string, windowMs: number, now: number): RateLimitHit | Promise<RateLimitHit>;
  /** Releases connections and timers (graceful shutdown). */
  close?(): Promise<void>;
}
