/**
 * Single-use OAuth state (redeemed codes, revocations, registered redirect URIs) for every isolate of a Worker:
 * one Durable Object per key, in its own durable storage. A Durable Object runs one call at a time, so `add`
 * (check, then record) is atomic for everyone: a code is redeemed once, whichever isolate asks.
 */
import { DurableObject } from 'cloudflare:workers';
import type { SingleUseStore } from '../../functions/single-use/store.ts';

interface Storage {
  get<T>(key: string): Promise<T | undefined>;
  put<T>(key: string, value: T): Promise<void>;
}

export class SingleUseEntry extends DurableObject {
  get #storage(): Storage {
    return (this.ctx as { storage: Storage }).storage;
  }

  /** True when this call recorded the key (it was absent or expired). */
  async add(ttlMs: number, now: number): Promise<boolean> {
    const until = await this.#storage.get<number>('until');
    if (until !== undefined && until > now) return false;
    await this.#storage.put('until', now + ttlMs);
    return true;
  }

  async set(ttlMs: number, now: number): Promise<void> {
    await this.#storage.put('until', now + ttlMs);
  }

  async has(now: number): Promise<boolean> {
    const until = await this.#storage.get<number>('until');
    return until !== undefined && until > now;
  }
}

interface EntryStub {
  add(ttlMs: number, now: number): Promise<boolean>;
  set(ttlMs: number, now: number): Promise<void>;
  has(now: number): Promise<boolean>;
}
export interface EntryNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): EntryStub;
}

export class DurableObjectSingleUseStore implements SingleUseStore {
  readonly #namespace: EntryNamespace;

  constructor(namespace: EntryNamespace) {
    this.#namespace = namespace;
  }

  #entry(key: string): EntryStub {
    return this.#namespace.get(this.#namespace.idFromName(key));
  }

  add(key: string, ttlMs: number): Promise<boolean> {
    return this.#entry(key).add(ttlMs, Date.now());
  }

  set(key: string, ttlMs: number): Promise<void> {
    return this.#entry(key).set(ttlMs, Date.now());
  }

  has(key: string): Promise<boolean> {
    return this.#entry(key).has(Date.now());
  }
}
