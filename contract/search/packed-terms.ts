/**
 * Sorted terms stored back to back, each followed by one separator, with where each starts (`at`): term k is
 * at[k] … at[k + 1] - 2. A search index shard keeps its terms this way (functions/search/engine.ts, as a string)
 * and so does an /ask chunk (contract/schemas/search-passages.ts, as UTF-8 bytes): a few objects instead of one
 * string per term, searched in place.
 */

/**
 * The k in first…last whose term is `key`, or -1: a binary search comparing unit by unit, a string's as UTF-16
 * code units and bytes as bytes (so a key must be in the text's units; an ASCII string is both).
 */
export function findPackedTerm(text: string | Uint8Array, at: ArrayLike<number>, first: number, last: number, key: string | Uint8Array): number {
  let lo = first;
  let hi = last;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const from = at[mid]!;
    const length = at[mid + 1]! - 1 - from;
    let c = 0;
    for (let i = 0; c === 0 && i < length && i < key.length; i++) c = unit(text, from + i) - unit(key, i);
    if (c === 0) c = length - key.length;
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function unit(s: string | Uint8Array, i: number): number {
  return typeof s === 'string' ? s.charCodeAt(i) : s[i]!;
}
