/**
 * A query's sums over the episodes it matches, in typed arrays that the next query reuses.
 *
 * A word found in nearly every episode has a posting of every episode (2,000 at N = 2,000), and such words are a
 * tenth of real queries. Holding one object, one Map entry and three arrays per matched episode per query was
 * much of /ask's garbage and CPU at that size (bench/ profile, N = 2,000: the collector 19% of a question, the
 * summing a third). Here a query allocates nothing per episode.
 *
 * Synchronous use only: between begin() and the last read the caller must not await, because another query
 * begins on the same arrays.
 */
export class EpisodeSums {
  /** Episode id → slot (dense ids: a table; otherwise a Map). */
  readonly #table: Int32Array | undefined;
  readonly #map: Map<number, number> | undefined;
  readonly #ids: Int32Array;
  /** The query that last wrote each slot's fields (fields of an older query read as empty). */
  readonly #stamp: Uint32Array;
  readonly #entered: Uint32Array;
  #query = 0;
  /** Slots entered by this query, in order. */
  readonly #order: Int32Array;
  #count = 0;
  readonly #doc: Float64Array;
  readonly #present: Uint32Array;
  /** Each slot's passages: a list through the node arrays, in the order first added. */
  readonly #head: Int32Array;
  readonly #tail: Int32Array;
  #nodePassage = new Int32Array(1024);
  #nodeScore = new Float64Array(1024);
  #nodeNext = new Int32Array(1024);
  #nodes = 0;

  constructor(ids: readonly number[]) {
    const n = ids.length;
    this.#ids = Int32Array.from(ids);
    let max = -1;
    for (const id of ids) max = Math.max(max, id);
    if (ids.every((id) => Number.isInteger(id) && id >= 0) && max <= 8 * n + 1024) {
      this.#table = new Int32Array(max + 1).fill(-1);
      ids.forEach((id, slot) => (this.#table![id] = slot));
    } else {
      this.#map = new Map(ids.map((id, slot) => [id, slot]));
    }
    this.#stamp = new Uint32Array(n);
    this.#entered = new Uint32Array(n);
    this.#order = new Int32Array(n);
    this.#doc = new Float64Array(n);
    this.#present = new Uint32Array(n);
    this.#head = new Int32Array(n);
    this.#tail = new Int32Array(n);
  }

  /** Starts a query: every slot reads as empty. */
  begin(): void {
    this.#query = (this.#query + 1) >>> 0;
    if (this.#query === 0) {
      // 2^32 queries later the stamps wrap: clear them rather than mistake an old query's fields for this one's.
      this.#stamp.fill(0);
      this.#entered.fill(0);
      this.#query = 1;
    }
    this.#count = 0;
    this.#nodes = 0;
  }

  /** The slot of an episode id, or -1 when the id is not an episode of the show. */
  slot(id: number): number {
    if (this.#table) return this.#table[id] ?? -1;
    return this.#map!.get(id) ?? -1;
  }

  id(slot: number): number {
    return this.#ids[slot]!;
  }

  #fresh(slot: number): void {
    if (this.#stamp[slot] === this.#query) return;
    this.#stamp[slot] = this.#query;
    this.#doc[slot] = 0;
    this.#present[slot] = 0;
    this.#head[slot] = -1;
    this.#tail[slot] = -1;
  }

  /** Records that a clause (its bit, 0-31) matched the episode, scored or not. */
  mark(slot: number, bit: number): void {
    this.#fresh(slot);
    this.#present[slot]! |= 1 << bit;
  }

  has(slot: number, bit: number): boolean {
    return this.#stamp[slot] === this.#query && (this.#present[slot]! & (1 << bit)) !== 0;
  }

  /** Makes the episode a candidate of the query (a scored clause matched it). */
  enter(slot: number): void {
    this.#fresh(slot);
    if (this.#entered[slot] === this.#query) return;
    this.#entered[slot] = this.#query;
    this.#order[this.#count++] = slot;
  }

  /** The candidates, in the order they were entered. */
  get count(): number {
    return this.#count;
  }
  entered(i: number): number {
    return this.#order[i]!;
  }

  addDoc(slot: number, value: number): void {
    this.#fresh(slot);
    this.#doc[slot]! += value;
  }
  doc(slot: number): number {
    return this.#stamp[slot] === this.#query ? this.#doc[slot]! : 0;
  }

  /** Adds to a passage's score, the passage added to the episode's list the first time. */
  addPassage(slot: number, passage: number, score: number): void {
    this.#fresh(slot);
    for (let n = this.#head[slot]!; n >= 0; n = this.#nodeNext[n]!) {
      if (this.#nodePassage[n] === passage) {
        this.#nodeScore[n]! += score;
        return;
      }
    }
    if (this.#nodes === this.#nodePassage.length) this.#grow();
    const n = this.#nodes++;
    this.#nodePassage[n] = passage;
    this.#nodeScore[n] = score;
    this.#nodeNext[n] = -1;
    if (this.#tail[slot]! >= 0) this.#nodeNext[this.#tail[slot]!] = n;
    else this.#head[slot] = n;
    this.#tail[slot] = n;
  }

  #grow(): void {
    const size = this.#nodePassage.length * 2;
    const passage = new Int32Array(size);
    passage.set(this.#nodePassage);
    const score = new Float64Array(size);
    score.set(this.#nodeScore);
    const next = new Int32Array(size);
    next.set(this.#nodeNext);
    this.#nodePassage = passage;
    this.#nodeScore = score;
    this.#nodeNext = next;
  }

  /**
   * The episode's best `into.passages.length` passages, best first (ties: the earlier passage), written into
   * `into`; returns how many there are. The same order as bestPassages (best-passages.ts) over the episode's list.
   */
  best(slot: number, into: { passages: Int32Array; scores: Float64Array }): number {
    const keep = into.passages.length;
    let count = 0;
    if (this.#stamp[slot] !== this.#query) return 0;
    for (let n = this.#head[slot]!; n >= 0; n = this.#nodeNext[n]!) {
      const p = this.#nodePassage[n]!;
      const s = this.#nodeScore[n]!;
      if (count === keep) {
        const lastS = into.scores[keep - 1]!;
        if (!(s > lastS || (s === lastS && p < into.passages[keep - 1]!))) continue;
        count--;
      }
      let at = count;
      while (at > 0 && (s > into.scores[at - 1]! || (s === into.scores[at - 1]! && p < into.passages[at - 1]!))) {
        into.passages[at] = into.passages[at - 1]!;
        into.scores[at] = into.scores[at - 1]!;
        at--;
      }
      into.passages[at] = p;
      into.scores[at] = s;
      count++;
    }
    return count;
  }
}
