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
