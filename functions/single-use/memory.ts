/**
 * The single-use store of one process. Each namespace (the key up to its first colon) is a Map bounded on its own,
 * so a flood of registrations can never push out a revocation or a redeemed code. Expired entries are dropped
 * when a namespace is full; a namespace still full of live entries drops its oldest insertions (Map order).
 */
import type { SingleUseStore } from './store.ts';

export class MemorySingleUseStore implements SingleUseStore {
  readonly #spaces = new Map<string, Map<string, number>>();
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
    const until = space.get(key);
    if (until !== undefined && until > now) return false;
    this.#store(space, key, now + ttlMs, now);
    return true;
  }

  hasSync(key: string): boolean {
    const until = this.#space(key).get(key);
    return until !== undefined && until > this.#now();
  }

  add(key: string, ttlMs: number): Promise<boolean> {
    return Promise.resolve(this.addSync(key, ttlMs));
  }

  set(key: string, ttlMs: number): Promise<void> {
    const now = this.#now();
    this.#store(this.#space(key), key, now + ttlMs, now);
    return Promise.resolve();
  }

  has(key: string): Promise<boolean> {
    return Promise.resolve(this.hasSync(key));
  }

  /** Entries held, expired ones included until they are pruned (for tests). */
  get size(): number {
    let n = 0;
    for (const space of this.#spaces.values()) n += space.size;
    return n;
  }

  async close(): Promise<void> {
    this.#spaces.clear();
  }

  #space(key: string): Map<string, number> {
    const name = key.slice(0, Math.max(0, key.indexOf(':')));
    let space = this.#spaces.get(name);
    if (!space) this.#spaces.set(name, (space = new Map()));
    return space;
  }

  #store(space: Map<string, number>, key: string, until: number, now: number): void {
    space.delete(key);
    if (space.size >= this.#maxPerNamespace) {
      for (const [k, t] of space) if (t <= now) space.delete(k);
      for (const k of space.keys()) {
        if (space.size < this.#maxPerNamespace) break;
        space.delete(k);
      }
    }
    space.set(key, until);
  }
}
