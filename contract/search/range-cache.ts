/**
 * A bounded cache keyed by a stretch of a text (its characters from `from` to `to`), looked up in place: the
 * stretch is hashed where it lies and compared with the stored key, so a lookup makes no string. A snippet looks up
 * every word of the passage it shows; with a Map each lookup first cut the word out of the text (a new string to
 * hash and collect) and then chased the Map's entries through the heap: ~0.4 µs a word over 50,000 entries
 * (bench/, N = 1,000), most of a search's snippet time. Here a lookup reads a slot (hash and entry side by side),
 * the entry's place in one array of the keys' characters, those characters, and the value.
 */
export class RangeCache<V> {
  /** The most entries kept: past it the cache is emptied (as the Map caches of analyzer.ts are); Infinity: grows. */
  readonly limit: number;
  #mask: number;
  /** Open addressing, at most half full: slot s is [hash, entry + 1] at 2s (entry + 1 = 0: empty). */
  #slots: Int32Array;
  /** Entry k's key: #chars from #keyAt[2k], #keyAt[2k + 1] code units long. */
  #keyAt: Int32Array;
  #chars: Uint16Array;
  #used = 0;
  #count = 0;
  #values: V[] = [];

  constructor(limit: number, capacity = 1024) {
    this.limit = limit;
    let slots = 16;
    while (slots < 2 * Math.min(capacity, limit)) slots *= 2;
    this.#mask = slots - 1;
    this.#slots = new Int32Array(2 * slots);
    this.#keyAt = new Int32Array(slots);
    this.#chars = new Uint16Array(8 * slots);
  }

  get size(): number {
    return this.#count;
  }

  /** The value kept for text[from, to), or make(that stretch)'s, kept (make is called once per distinct stretch). */
  getOrMake(text: string, from: number, to: number, make: (key: string) => V): V {
    // FNV-1a over the UTF-16 code units.
    let h = 0x811c9dc5 | 0;
    for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    const length = to - from;
    const slots = this.#slots;
    const mask = this.#mask;
    let at = h & mask;
    for (let entry = slots[2 * at + 1]!; entry !== 0; entry = slots[2 * at + 1]!) {
      if (slots[2 * at] === h) {
        const k = entry - 1;
        if (this.#keyAt[2 * k + 1] === length && this.#same(text, from, this.#keyAt[2 * k]!, length)) return this.#values[k]!;
      }
      at = (at + 1) & mask;
    }
    const value = make(text.slice(from, to));
    if (this.#count >= this.limit) this.clear();
    else if (2 * (this.#count + 1) > this.#slots.length >> 1) this.#grow();
    this.#insert(h, this.#count);
    const k = this.#count++;
    if (this.#used + length > this.#chars.length) {
      const chars = new Uint16Array(Math.max(2 * this.#chars.length, this.#used + length));
      chars.set(this.#chars.subarray(0, this.#used));
      this.#chars = chars;
    }
    for (let i = 0; i < length; i++) this.#chars[this.#used + i] = text.charCodeAt(from + i);
    this.#keyAt[2 * k] = this.#used;
    this.#keyAt[2 * k + 1] = length;
    this.#used += length;
    this.#values[k] = value;
    return value;
  }

  clear(): void {
    this.#slots.fill(0);
    this.#count = 0;
    this.#used = 0;
    this.#values = [];
  }

  #same(text: string, from: number, start: number, length: number): boolean {
    const chars = this.#chars;
    for (let i = 0; i < length; i++) if (text.charCodeAt(from + i) !== chars[start + i]) return false;
    return true;
  }

  #insert(h: number, k: number): void {
    let at = h & this.#mask;
    while (this.#slots[2 * at + 1] !== 0) at = (at + 1) & this.#mask;
    this.#slots[2 * at] = h;
    this.#slots[2 * at + 1] = k + 1;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Int32Array(2 * old.length);
    this.#mask = (this.#slots.length >> 1) - 1;
    const keyAt = new Int32Array(this.#slots.length >> 1);
    keyAt.set(this.#keyAt);
    this.#keyAt = keyAt;
    for (let s = 0; s < old.length; s += 2) if (old[s + 1] !== 0) this.#insert(old[s]!, old[s + 1]! - 1);
  }
}
