/**
 * The k best of a stream of ranked episodes, in the ranking's order (score descending, ties by id ascending),
 * without sorting the whole stream. A page of /api/search shows offset + limit hits of however many match, and a
 * common word matches nearly every episode: sorting them all grew faster than the show (bench/, in-process search
 * at N = 2,000: the sort ~2.3× N = 1,000's, the only part of ranking above 2×). A binary heap of the k kept, its
 * root the worst of them, costs n log k comparisons at most, and most offers are one comparison with the root.
 */
export class TopK {
  readonly #ids: Int32Array;
  readonly #scores: Float64Array;
  readonly #passages: Int32Array;
  #size = 0;
  readonly k: number;

  constructor(k: number) {
    this.k = k;
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
    this.#ids = new Int32Array(k);
    this.#scores = new Float64Array(k);
    this.#passages = new Int32Array(k);
  }

  /** Offers an episode (passage -1: none); kept when it is among the k best offered so far. */
  offer(id: number, score: number, passage: number): void {
    if (this.#size < this.k) {
      let at = this.#size++;
      // Sift up: a worse entry moves towards the root.
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.#worse(id, score, this.#ids[parent]!, this.#scores[parent]!)) break;
        this.#set(at, this.#ids[parent]!, this.#scores[parent]!, this.#passages[parent]!);
        at = parent;
      }
      this.#set(at, id, score, passage);
      return;
    }
    if (this.#worse(id, score, this.#ids[0]!, this.#scores[0]!)) return;
    // Replaces the root (the worst kept), then sifts it down.
    let at = 0;
    const n = this.#size;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.#worse(this.#ids[right]!, this.#scores[right]!, this.#ids[left]!, this.#scores[left]!) ? right : left;
      if (!this.#worse(this.#ids[child]!, this.#scores[child]!, id, score)) break;
      this.#set(at, this.#ids[child]!, this.#scores[child]!, this.#passages[child]!);
      at = child;
    }
    this.#set(at, id, score, passage);
  }

  /** The kept entries, best first. */
  sorted(): Array<{ id: number; score: number; passage: number }> {
    const out = Array.from({ length: this.#size }, (_, i) => ({ id: this.#ids[i]!, score: this.#scores[i]!, passage: this.#passages[i]! }));
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** Whether (id, score) ranks below (otherId, otherScore). */
  #worse(id: number, score: number, otherId: number, otherScore: number): boolean {
    return score < otherScore || (score === otherScore && id > otherId);
  }

  #set(at: number, id: number, score: number, passage: number): void {
    this.#ids[at] = id;
    this.#scores[at] = score;
    this.#passages[at] = passage;
  }
}
