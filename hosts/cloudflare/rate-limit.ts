/**
 * One rate-limit budget for every isolate of a Worker: a Durable Object per client key holds that client's
 * window (fixed windows, as functions/ratelimit/store.ts defines them), so all isolates, wherever they run, count
 * into the same counter. If the object cannot be reached, the isolate counts in its own memory rather than
 * failing the request or letting it through uncounted (the same fail-open-to-local choice as the Redis store).
 */
import { DurableObject } from 'cloudflare:workers';
import { MemoryRateLimitStore } from '../../functions/ratelimit/memory.ts';
import type { RateLimitHit, RateLimitStore } from '../../functions/ratelimit/store.ts';
import type { Logger } from '../../functions/types.ts';

export class RateLimitCounter extends DurableObject {
  #count = 0;
  #resetAt = 0;

  /** Counts one request in this key's current window (an RPC method: the runtime runs one call at a time). */
  hit(windowMs: number, now: number): RateLimitHit {
    if (this.#resetAt <= now) {
      this.#count = 0;
      this.#resetAt = now + windowMs;
    }
    this.#count++;
    return { count: this.#count, resetAt: this.#resetAt };
  }
}

interface CounterStub {
  hit(windowMs: number, now: number): Promise<RateLimitHit>;
}
export interface CounterNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): CounterStub;
}

export class DurableObjectRateLimitStore implements RateLimitStore {
  readonly #namespace: CounterNamespace;
  readonly #fallback = new MemoryRateLimitStore();
  readonly #log: Logger;
  #warned = false;

  constructor(namespace: CounterNamespace, log: Logger) {
    this.#namespace = namespace;
    this.#log = log;
  }

  async hit(key: string, windowMs: number, now: number): Promise<RateLimitHit> {
    try {
      return await this.#namespace.get(this.#namespace.idFromName(key)).hit(windowMs, now);
    } catch (err) {
      if (!this.#warned) {
        this.#warned = true;
        this.#log.warn('rate-limit Durable Object unreachable; counting in this isolate', { error: (err as Error).message });
      }
      return this.#fallback.hit(key, windowMs, now);
    }
  }
}
