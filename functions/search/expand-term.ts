/**
 * A prefix (`key*`) or a word with one edit of tolerance, expanded to the terms of a vocabulary in code-unit order:
 * the terms that intersecting the vocabulary's Lunr TokenSet with TokenSet.fromString(`key*`) or
 * TokenSet.fromFuzzyString(key, 1) gives, in the same order, without the vocabulary's TokenSet.
 *
 * Why: lunr.Index#query builds that automaton over the whole vocabulary before its first wildcard or fuzzy clause.
 * For the top index (~16,000 terms at N = 1,000) that was ~150–190 ms of a process's first answer, and the
 * automaton stays in the heap for good. A prefix is a binary search here, and a word one edit away a scan of the
 * terms (microseconds each; the engine keeps each expansion's matches with the shards).
 *
 * Lunr's one-edit automaton accepts exactly the words one insertion, deletion, substitution or swap of two
 * neighbouring characters away (the optimal string alignment distance 1), counted in UTF-16 code units as
 * String#charAt does. A key never holds `*`: the query parser breaks words there.
 */

/** Sorted terms (code-unit order, no duplicates), read one at a time. */
export interface SortedTerms {
  readonly length: number;
  at(k: number): string;
}

export function sortedTerms(terms: readonly string[]): SortedTerms {
  return { length: terms.length, at: (k) => terms[k]! };
}

export function expandTerm(terms: SortedTerms, key: string, wildcard: boolean, fuzzy: boolean): string[] {
  if (fuzzy) {
    const out: string[] = [];
    for (let k = 0; k < terms.length; k++) {
      const term = terms.at(k);
      if (oneEditAway(key, term)) out.push(term);
    }
    return out;
  }
  if (!wildcard) return indexOfTerm(terms, key) >= 0 ? [key] : [];
  const from = lowerBound(terms, key);
  const out: string[] = [];
  for (let k = from; k < terms.length; k++) {
    const term = terms.at(k);
    if (!term.startsWith(key)) break;
    out.push(term);
  }
  return out;
}

/** Where `key` is among the terms, or -1. */
export function indexOfTerm(terms: SortedTerms, key: string): number {
  const k = lowerBound(terms, key);
  return k < terms.length && terms.at(k) === key ? k : -1;
}

/** The first k whose term is not below `key`. */
function lowerBound(terms: SortedTerms, key: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (terms.at(mid) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether a term is within a typo lookup's reach of `key`: it starts with key's first character or its second (the
 * first dropped or swapped). A different first letter is not tried: that would be every shard (oneEditShards).
 */
export function startsWithinReach(key: string, term: string): boolean {
  const first = term.charAt(0);
  return first === key.charAt(0) || (key.length > 1 && first === key.charAt(1));
}

/** Whether `b` is `a` or one insertion, deletion, substitution or swap of neighbours away from it. */
export function oneEditAway(a: string, b: string): boolean {
  const n = a.length;
  const m = b.length;
  if (n - m > 1 || m - n > 1) return false;
  let i = 0;
  while (i < n && i < m && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n && i === m) return true;
  if (n === m) {
    // A substitution at i, or a and b's characters i and i + 1 swapped; either way the rest is equal.
    const from = sameTail(a, i + 1, b, i + 1) ? -1 : i + 2;
    return from < 0 || (i + 1 < n && a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameTail(a, from, b, from));
  }
  // One character more on one side, at i.
  return n > m ? sameTail(a, i + 1, b, i) : sameTail(a, i, b, i + 1);
}

function sameTail(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}

/**
 * The last index of an ascending array whose element is at most `x` (0 when none is): the shard of a segment whose
 * range holds a term (its shards' first terms), the segment of an engine shard (where each segment's numbers start),
 * the cue of a character offset.
 */
export function lastAtMost<T extends string | number>(sorted: readonly T[], x: T): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The shards of one segment (`first`: each shard's first term, ascending) that can hold a term one edit away from
 * `key` whose first character is key's first or second: every shard where expandTerm(…, key, false, true) can find
 * such a term, and few others.
 *
 * The engine's way for a build without the segments' vocabulary files (engine.ts #oneEditNeighbours reads those,
 * then only the shards of the words found). Why: the engine used to read every shard whose range starts with
 * either letter. Those two letters span most of a large show's shards (at 2,000 episodes "tremor", a word the show
 * does not have, read 2,367 of its 3,797 shard files, ~1 s in Node and several seconds in workerd; under ten
 * concurrent cold queries the Cloudflare preview answered none within 10 s; this way, 421).
 *
 * A one-edit neighbour is, by where its edit is: key itself; key with character i
 * dropped, or swapped with the next; or key[0, i) + any character + key[i + 1, …) (a substitution) or + key[i, …)
 * (an insertion). For i = 0 only the first character's being key[1] counts (a different first letter is not
 * tried: that would be every shard). The fixed strings are one shard each; for a pattern with one free character
 * the shards are those where some character puts the string inside their range.
 */
export function oneEditShards(first: readonly string[], key: string): number[] {
  const out = new Set<number>();
  const fixed = (s: string) => out.add(lastAtMost(first, s));
  const n = key.length;
  fixed(key);
  if (n > 1) {
    // Position 0, first character key[1]: dropped, swapped with key[1], replaced by key[1], or key[1] inserted.
    fixed(key.slice(1));
    fixed(key[1]! + key[0]! + key.slice(2));
    fixed(key[1]! + key.slice(1));
    fixed(key[1]! + key);
  }
  for (let i = 1; i <= n; i++) {
    const head = key.slice(0, i);
    if (i < n) {
      fixed(head + key.slice(i + 1));
      if (i + 1 < n) fixed(head + key[i + 1]! + key[i]! + key.slice(i + 2));
      anyCharacter(first, head, key.slice(i + 1), out);
    }
    anyCharacter(first, head, key.slice(i), out);
  }
  return [...out].sort((a, b) => a - b);
}

/** Adds to `out` each shard of `first` whose range holds head + c + tail for some character c. */
function anyCharacter(first: readonly string[], head: string, tail: string, out: Set<number>): void {
  const at = head.length;
  const from = lastAtMost(first, head);
  const to = lastAtMost(first, `${head}\uffff`);
  for (let j = from; j <= to; j++) {
    const lo = first[j]!;
    const hi = first[j + 1];
    // The characters after `head` at the range's two ends (-1: below every head + c; 0x10000: above every one).
    const cLo = lo.startsWith(head) && lo.length > at ? lo.charCodeAt(at) : lo <= head ? -1 : 0x10000;
    const cHi = hi === undefined || !hi.startsWith(head) ? (hi !== undefined && hi <= head ? -1 : 0x10000) : hi.length > at ? hi.charCodeAt(at) : -1;
    if (Math.max(cLo + 1, 0) < Math.min(cHi, 0x10000)) {
      // Some character lies strictly between the two ends: head + c + anything is inside.
      out.add(j);
      continue;
    }
    for (const c of [cLo, cHi]) {
      if (c < 0 || c > 0xffff) continue;
      const s = head + String.fromCharCode(c) + tail;
      if (s >= lo && (hi === undefined || s < hi)) {
        out.add(j);
        break;
      }
    }
  }
}
