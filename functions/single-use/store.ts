/**
 * Single-use state, shared by every process of one deployment: redeemed authorization codes, used refresh tokens,
 * revoked tokens and grants, and registered redirect URIs. Keys are short strings with a namespace before the
 * first colon ("code:<jti>", "revoked:<jti>", "grant:<id>", "redirect:<hash>"); every entry expires.
 *
 * Implementations: memory.ts (one process), hosts/node/redis-store.ts (every process pointed at one Redis, the
 * same store as the rate-limit budget), and a Durable Object on Workers. The check-and-set of `add` must be atomic
 * across everything that shares the store: that is what makes a code single-use across processes.
 */
export interface SingleUseStore {
  /** Records key for ttlMs unless it is already recorded. True when this call recorded it (the first use). */
  add(key: string, ttlMs: number): Promise<boolean>;
  /** Records key for ttlMs whether or not it was recorded (extends a registration). */
  set(key: string, ttlMs: number): Promise<void>;
  /** Whether key is recorded and not expired. */
  has(key: string): Promise<boolean>;
  /** Releases connections and timers (graceful shutdown). */
  close?(): Promise<void>;
}
