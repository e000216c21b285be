/**
 * The headers middleware collects for the response (ctx.headers): a Headers-compatible Map. These names and
 * values are written by the pipeline itself, never taken from a request, so the per-call validation and the
 * sorted-list upkeep of the standard Headers class (a measurable share of a static request) buy nothing here;
 * whatever finally carries them, a standard Response or a host, validates them once on the way out.
 */

export class PendingHeaders implements Headers {
  readonly #map = new Map<string, string>();
  #cookies: string[] = [];

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') {
      this.#cookies.push(value);
      return;
    }
    const old = this.#map.get(key);
    this.#map.set(key, old === undefined ? value : `${old}, ${value}`);
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.#cookies = [value];
    else this.#map.set(key, value);
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (key === 'set-cookie') return this.#cookies.length ? this.#cookies.join(', ') : null;
    return this.#map.get(key) ?? null;
  }

  has(name: string): boolean {
    const key = name.toLowerCase();
    return key === 'set-cookie' ? this.#cookies.length > 0 : this.#map.has(key);
  }

  delete(name: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.#cookies = [];
    else this.#map.delete(key);
  }

  getSetCookie(): string[] {
    return [...this.#cookies];
  }

  forEach(callback: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [key, value] of this.#sorted()) callback.call(thisArg, value, key, this);
  }

  /** In name order, as the standard class iterates; Set-Cookie values one by one. */
  entries(): HeadersIterator<[string, string]> {
    return this.#sorted()[Symbol.iterator]() as HeadersIterator<[string, string]>;
  }

  #sorted(): Array<[string, string]> {
    const out = [...this.#map] as Array<[string, string]>;
    for (const cookie of this.#cookies) out.push(['set-cookie', cookie]);
    return out.length > 1 ? out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) : out;
  }

  *keys(): HeadersIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): HeadersIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}
