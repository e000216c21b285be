/**
 * The Node host's open connections: how many requests each has in progress and since when it is idle, so that a
 * graceful shutdown (main.ts) closes a keep-alive connection only once it is done, and its listener only once the
 * connections waiting in its backlog are taken (listenerDone).
 *
 * A connection is closed when it has been idle for the grace, counted from the later of its last answer and the
 * start of the shutdown, at two checks in a row. One check is not enough: when the process comes back from a
 * stall (busy, or descheduled on a loaded machine), its timers run before it reads its sockets, so a request a
 * client wrote during the stall is still unread in the kernel, and the connection looks idle past the grace; closed
 * then, the client's request meets a reset. Between two checks the event loop has read its sockets at least once,
 * so such a request has begun by the second check and the connection stays open to answer it.
 */
/** How long an idle keep-alive connection is given to send another request once a shutdown has begun. */
export const IDLE_GRACE_MS = 1_000;
/** The grace a shutdown gives idle connections: IDLE_GRACE_MS, or the whole shutdown timeout if that is shorter. */
export function idleGrace(shutdownTimeoutMs: number): number {
  return Math.min(IDLE_GRACE_MS, shutdownTimeoutMs);
}
/** How often a shutdown checks its connections (a short wait: the event loop reads its sockets in between). */
export const DRAIN_CHECK_MS = 25;

export interface Closable {
  /** The host has already ended its side (e.g. after an answer with Connection: close). */
  readonly writableEnded: boolean;
}

interface State {
  active: number;
  idleSince: number;
  /** Found idle past the grace at the last check (closed at the next one if it still is). */
  seenIdle: boolean;
}

export class Connections<S extends Closable> {
  readonly #open = new Map<S, State>();
  #accepted = 0;
  /** #accepted at the last listenerDone check (-1: none yet). */
  #acceptedAtCheck = -1;
  readonly #now: () => number;
  /** idleGrace(the shutdown timeout). */
  readonly graceMs: number;

  constructor(graceMs: number, now: () => number = () => performance.now()) {
    this.graceMs = graceMs;
    this.#now = now;
  }

  get size(): number {
    return this.#open.size;
  }

  /** Connections opened since this was made (a count that only grows). */
  get accepted(): number {
    return this.#accepted;
  }

  keys(): IterableIterator<S> {
    return this.#open.keys();
  }

  opened(socket: S): void {
    this.#accepted++;
    this.#open.set(socket, { active: 0, idleSince: this.#now(), seenIdle: false });
  }

  closed(socket: S): void {
    this.#open.delete(socket);
  }

  /** A request began on the connection. */
  began(socket: S): void {
    const c = this.#open.get(socket);
    if (!c) return;
    c.active++;
    c.seenIdle = false;
  }

  /** A request on the connection was answered (or abandoned). */
  ended(socket: S): void {
    const c = this.#open.get(socket);
    if (!c) return;
    c.active--;
    c.idleSince = this.#now();
  }

  /**
   * Whether the listener may close at this check of a shutdown that began at `since` (same clock): connections the
   * kernel completed before the signal wait in its backlog, closing it resets them, and the loop takes them one a
   * turn. So: no connection accepted since the check before (the first check, at the signal, only counts), or the
   * grace is over however many still arrive.
   */
  listenerDone(since: number): boolean {
    const done = this.#accepted === this.#acceptedAtCheck || this.#now() - since >= this.graceMs;
    this.#acceptedAtCheck = this.#accepted;
    return done;
  }

  /**
   * The connections to close at this check of a shutdown that began at `since` (same clock): idle past the grace
   * now and at the check before (see above), and not already ended by the host.
   */
  idle(since: number): S[] {
    const now = this.#now();
    const due: S[] = [];
    for (const [socket, c] of this.#open) {
      const idlePastGrace = c.active === 0 && !socket.writableEnded && now - Math.max(c.idleSince, since) >= this.graceMs;
      if (idlePastGrace && c.seenIdle) due.push(socket);
      c.seenIdle = idlePastGrace;
    }
    return due;
  }
}
