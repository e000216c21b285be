/**
 * One memory-reducing garbage collection once the server has gone quiet after serving requests.
 *
 * V8 keeps the pages its collections free for later use and gives them back to the system only in a collection
 * that reduces memory (the "last resort" flavour), which it starts by itself only under memory pressure; an idle
 * period does not bring one. Measured at N = 1,000 (bench/, request path, after the bench's minute of mixed load and
 * ~24 s of idle): 405 of V8's 256 KB pages were resident where its spaces held ~220 of them, and one such collection
 * took the process from 276.6 to 211.0 MB. So the host runs one when no request is in flight and none has arrived
 * for `idleMs` (IDLE_GC_MS, config.ts), at most once every MIN_INTERVAL_MS, and only if requests came since the last
 * one: a steady load never pays for it, and a server left idle runs it once.
 */

/** Quiet time after the last request before the collection runs (the default of IDLE_GC_MS, config.ts). */
export const IDLE_MS = 5_000;
/** No more often than this, so that sparse traffic (a request every few seconds) does not collect after each. */
export const MIN_INTERVAL_MS = 30_000;

/** V8's collection function as `--expose-gc` installs it (Node's options form). */
type ExposedGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface IdleCollector {
  /** A request arrived or finished. */
  activity(): void;
  stop(): void;
}

export interface IdleCollectorOptions {
  /** True while a request is in flight. */
  busy: () => boolean;
  /** Runs the collection. */
  collect: () => void;
  /** Quiet time after the last request (the host's IDLE_GC_MS). */
  idleMs: number;
  minIntervalMs?: number;
  now?: () => number;
}

export function idleCollector({ busy, collect, idleMs, minIntervalMs = MIN_INTERVAL_MS, now = () => performance.now() }: IdleCollectorOptions): IdleCollector {
  let lastActivity = -Infinity;
  let lastCollect = -Infinity;
  let pending = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = (delay: number) => {
    timer = setTimeout(check, Math.max(0, delay));
    // An idle collection never keeps the process alive.
    timer.unref?.();
  };
  const check = () => {
    timer = undefined;
    if (!pending) return;
    const t = now();
    if (busy()) return schedule(idleMs);
    const due = Math.max(lastActivity + idleMs, lastCollect + minIntervalMs);
    if (t < due) return schedule(due - t);
    pending = false;
    lastCollect = t;
    collect();
  };
  return {
    activity() {
      // Per request: two stores, and a timer only when none is waiting.
      lastActivity = now();
      pending = true;
      if (!timer) schedule(idleMs);
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = false;
    },
  };
}

/**
 * The collection to run, if this process was started with `--expose-gc` (npm start is); undefined otherwise, and
 * the host then runs none.
 */
export function exposedCollection(): (() => void) | undefined {
  const gc = (globalThis as { gc?: ExposedGc }).gc;
  return gc ? () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }) : undefined;
}
