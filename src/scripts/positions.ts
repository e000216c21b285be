/**
 * Where the listener is in each episode, remembered in this browser only (localStorage, one small JSON map):
 * the position to offer when they come back, and which episodes they finished (marked as played in lists).
 * Nothing leaves the browser. Every call tolerates storage being unavailable (private modes, quotas).
 */
export interface Position {
  /** Seconds into the episode. */
  t: number;
  /** The audio's duration when saved, if known. */
  d?: number;
  /** When it was saved (ms since the epoch). */
  at: number;
  /** Listened to the end. */
  done?: boolean;
}

export const STORAGE_KEY = 'podcast:positions';
/** Positions closer to the start than this are not worth offering. */
export const MIN_RESUME_SECONDS = 3;
/** The most episodes remembered; the oldest are forgotten first. */
const MAX_ENTRIES = 500;

type Positions = Record<string, Position>;

function read(storage: Pick<Storage, 'getItem'> | undefined = safeStorage()): Positions {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    const value = raw ? (JSON.parse(raw) as unknown) : {};
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Positions) : {};
  } catch {
    return {};
  }
}

function safeStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Finished: the audio ended, or less than 5% (at most 30 s) of it is left, the credits most listeners skip.
 */
export function isFinished(t: number, d: number | undefined): boolean {
  if (!d || !Number.isFinite(d) || d <= 0) return false;
  return t >= d - Math.min(30, d * 0.05);
}

export function getPosition(id: number | string, storage?: Pick<Storage, 'getItem'>): Position | undefined {
  const p = read(storage)[String(id)];
  return p && Number.isFinite(p.t) ? p : undefined;
}

/** The position worth offering on return, or undefined (none, too close to the start, or finished). */
export function resumePoint(id: number | string, storage?: Pick<Storage, 'getItem'>): number | undefined {
  const p = getPosition(id, storage);
  if (!p || p.done || p.t < MIN_RESUME_SECONDS) return undefined;
  return p.t;
}

export function savePosition(
  id: number | string,
  t: number,
  d: number | undefined,
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = safeStorage(),
  now = Date.now(),
): Position | undefined {
  if (!storage || !Number.isFinite(t) || t < 0) return undefined;
  const all = read(storage);
  const before = all[String(id)];
  const done = isFinished(t, d) || undefined;
  // Once finished, an episode stays played; listening again only moves the position.
  const entry: Position = { t: done ? 0 : Math.round(t * 10) / 10, at: now, ...(d && Number.isFinite(d) ? { d } : {}), ...(done || before?.done ? { done: true } : {}) };
  all[String(id)] = entry;
  const ids = Object.keys(all);
  if (ids.length > MAX_ENTRIES) {
    ids.sort((a, b) => (all[a]!.at ?? 0) - (all[b]!.at ?? 0));
    for (const old of ids.slice(0, ids.length - MAX_ENTRIES)) delete all[old];
  }
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    return undefined;
  }
  return entry;
}

/** Every remembered episode, for marking lists. */
export function allPositions(storage?: Pick<Storage, 'getItem'>): Positions {
  return read(storage);
}
