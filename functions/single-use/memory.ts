/**
 * The single-use store of one process. Each namespace (the key up to its first colon) is a Map bounded on its own,
 * so a flood of registrations can never push out a revocation or a redeemed code. Expired entries are dropped
 * when a namespace is full (at most once a second: a sweep reads every entry).
 *
 * A namespace still full of live entries never forgets one that keeps a credential from working again: a used
 * code or refresh token, a revoked token or grant. Forgetting the oldest would let a flood of refreshes (100,000,
 * two clients' budget for a day) revive a refresh token already used. So there a first use is refused instead
 * (add answers false: the client authorizes again once entries expire), and a revocation is kept past the bound
 * (each costs a client a request with a credential of its own, and lives at most a day). Only registered redirect
 * URIs give way, oldest first: an app whose registration was pushed out registers again.
 */
import type { SingleUseStore } from './store.ts';

const EVICTABLE = new Set(['redirect']);

export class MemorySingleUseStore implements SingleUseStore {
  readonly #spaces = new Map<string, { entries: Map<string, number>; evictable: boolean; sweptAt: number }>();
  readonly #maxPerNamespace: number;
  readonly #now: () => number;

  constructor(options: { maxPerNamespace?: number; now?: () => number } = {}) {
    this.#maxPerNamespace = options.maxPerNamespace ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  /** Synchronous underneath, so check-and-set is atomic within the process. */
  addSync(key: string, ttlMs: number): boolean {
    const space = this.#space(key);
    const now = this.#now();
    const until = space.entries.get(key);
    if (until !== undefined && until > now) return false;
    return this.#store(space, key, now + ttlMs, now, 'add');
  }

  hasSync(key: string): boolean {
    const until = this.#space(key).entries.get(key);
    return until !== undefined && until > this.#now();
  }

  add(key: string, ttlMs: number): Promise<boolean> {
    return Promise.resolve(this.addSync(key, ttlMs));
  }

  set(key: string, ttlMs: number): Promise<void> {
    const now = this.#now();
    this.#store(this.#space(key), key, now + ttlMs, now, 'set');
    return Promise.resolve();
  }

  has(key: string): Promise<boolean> {
    return Promise.resolve(this.hasSync(key));
  }

  /** Entries held, expired ones included until they are pruned (for tests). */
  get size(): number {
    let n = 0;
    for (const space of this.#spaces.values()) n += space.entries.size;
    return n;
  }

  async close(): Promise<void> {
    this.#spaces.clear();
  }

  #space(key: string) {
    const name = key.slice(0, Math.max(0, key.indexOf(':')));
    let space = this.#spaces.get(name);
    if (!space) this.#spaces.set(name, (space = { entries: new Map(), evictable: EVICTABLE.has(name), sweptAt: -Infinity }));
    return space;
  }

  /** Whether the key is now recorded. */
  #store(space: { entries: Map<string, number>; evictable: boolean; sweptAt: number }, key: string, until: number, now: number, as: 'add' | 'set'): boolean {
    const { entries } = space;
    entries.delete(key);
    if (entries.size >= this.#maxPerNamespace && now - space.sweptAt >= 1_000) {
      space.sweptAt = now;
      for (const [k, t] of entries) if (t <= now) entries.delete(k);
    }
    if (entries.size >= this.#maxPerNamespace) {
      if (space.evictable) {
        for (const k of entries.keys()) {
          if (entries.size < this.#maxPerNamespace) break;
          entries.delete(k);
        }
      } else if (as === 'add') return false;
    }
    entries.set(key, until);
    return true;
  }
}
