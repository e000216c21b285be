/**
 * Work that two threads of a build would both do, done once: each piece (a transcript to parse, an episode to
 * analyse) has a flag in an Int32Array over a SharedArrayBuffer (0 free, 1 being done, 2 done); the thread that
 * claims it computes it and keeps the result in the content cache (parse-cache.ts), the other waits for the flag
 * and takes the result from there. Without a cache folder the waiting thread computes it again, so sharing never
 * changes a result, only who pays for it.
 */
const FREE = 0;
const CLAIMED = 1;
const DONE = 2;

export class SharedClaims<K> {
  readonly #flags: Int32Array;
  readonly #slot: Map<K, number>;

  /** `flags`: one per key, in that order. */
  constructor(flags: Int32Array, keys: readonly K[]) {
    this.#flags = flags;
    this.#slot = new Map(keys.map((key, i) => [key, i]));
  }

  /**
   * compute() for a key: at once if this thread claims it (or the key is not shared), else once the thread that
   * claimed it is done (compute() then reads what that thread kept).
   */
  run<T>(key: K, compute: () => T): T {
    const slot = this.#slot.get(key);
    if (slot === undefined) return compute();
    const flags = this.#flags;
    if (Atomics.compareExchange(flags, slot, FREE, CLAIMED) !== FREE) {
      while (Atomics.load(flags, slot) === CLAIMED) Atomics.wait(flags, slot, CLAIMED);
      return compute();
    }
    try {
      return compute();
    } finally {
      this.#release(slot);
    }
  }

  /** compute() if this thread claims the key; false (nothing run) when another thread has it or had it. */
  tryRun(key: K, compute: () => unknown): boolean {
    const slot = this.#slot.get(key);
    if (slot === undefined || Atomics.compareExchange(this.#flags, slot, FREE, CLAIMED) !== FREE) return false;
    try {
      compute();
    } finally {
      this.#release(slot);
    }
    return true;
  }

  #release(slot: number): void {
    Atomics.store(this.#flags, slot, DONE);
    Atomics.notify(this.#flags, slot);
  }
}

/** A thread that stopped (an error) releases what it had claimed, so no other thread waits for it forever. */
export function releaseAll(flags: Int32Array): void {
  for (let i = 0; i < flags.length; i++) if (Atomics.compareExchange(flags, i, CLAIMED, DONE) === CLAIMED) Atomics.notify(flags, i);
}
