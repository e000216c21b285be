/**
 * Single use within one process: authorization codes and refresh tokens are remembered by their jti until they
 * expire, so a second redemption in the same process fails. The set is in memory and bounded; with several
 * processes behind a load balancer a code could be redeemed once per process within its 60-second life (see
 * auth.md). Tokens grant nothing the public API does not already give, which keeps that trade-off acceptable.
 */
export class OnceCache {
  readonly #seen = new Map<string, number>();
  readonly #max: number;

  constructor(max = 50_000) {
    this.#max = max;
  }

  /** Marks id as used until expSeconds; false when it was already used. Synchronous, so check-and-set is atomic. */
  consume(id: string, expSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
    this.#prune(nowSeconds);
    const until = this.#seen.get(id);
    if (until !== undefined && until >= nowSeconds) return false;
    this.#seen.set(id, expSeconds);
    return true;
  }

  has(id: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
    const until = this.#seen.get(id);
    return until !== undefined && until >= nowSeconds;
  }

  get size(): number {
    return this.#seen.size;
  }

  #prune(now: number): void {
    if (this.#seen.size < this.#max) return;
    for (const [id, until] of this.#seen) if (until < now) this.#seen.delete(id);
    // Still full of live entries: drop the oldest insertions (Map keeps insertion order).
    for (const id of this.#seen.keys()) {
      if (this.#seen.size < this.#max) break;
      this.#seen.delete(id);
    }
  }
}

/** Redeemed authorization codes, used or revoked refresh tokens: one cache per process. */
export const usedCodes = new OnceCache();
export const usedRefreshTokens = new OnceCache();
