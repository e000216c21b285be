/**
 * The per-process store. Memory is bounded: windows all have the same length, so a Map kept in window-start order
 * (a key whose window restarts is moved to the end) is also in expiry order, and expired windows are dropped from
 * its front in amortised O(1) on every hit. When more than maxKeys clients are active in one window (a flood of
 * distinct addresses), the oldest windows are dropped early: those clients get a fresh budget, which costs an
 * attacker who already controls that many addresses nothing they did not have.
 */
import type { RateLimitHit, RateLimitStore } from './store.ts';

interface Window {
  count: number;
  resetAt: number;
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, Window>();
  readonly #maxKeys: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  hit(key: string, windowMs: number, now: number): RateLimitHit {
    this.#evict(now);
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      if (window) this.#windows.delete(key);
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.set(key, window);
      if (this.#windows.size > this.#maxKeys) this.#windows.delete(this.#windows.keys().next().value!);
    }
    window.count++;
    return { count: window.count, resetAt: window.resetAt };
  }

  /** Number of windows held (for tests and metrics). */
  get size(): number {
    return this.#windows.size;
  }

  #evict(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.resetAt > now) return;
      this.#windows.delete(key);
    }
  }

  async close(): Promise<void> {
    this.#windows.clear();
  }
}
