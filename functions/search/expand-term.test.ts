/**
 * A clause's expansion without the vocabulary's TokenSet must be exactly Lunr's: the same terms as intersecting
 * TokenSet.fromArray(vocabulary) with the clause's TokenSet, for every kind of edit at every position.
 */
import type lunr from 'lunr';
import { describe, expect, it } from 'vitest';
import { expandTerm, oneEditAway, sortedTerms } from './expand-term.ts';
import { TokenSets } from './top-index.ts';

// Numbers (an object's keys would order them first), repeated letters (where edits at different positions give
// the same word), accents, a surrogate pair, one-letter words and words one swap apart.
const vocabulary = [
  ...'1 9 90 1890 2024 a aa aab ab aba abab abba b ba baa bee beehiv bees beet bet bete bread breed café cafe ça naïve'.split(' '),
  '\u{1F41D}bee',
  ...'sourdough starter start stater tide tides tied zz zzz'.split(' '),
].sort();

function keysFor(term: string): string[] {
  const keys = new Set<string>([term]);
  for (let i = 0; i <= term.length; i++) {
    keys.add(term.slice(0, i));
    keys.add(term.slice(0, i) + 'e' + term.slice(i));
    if (i < term.length) {
      keys.add(term.slice(0, i) + term.slice(i + 1));
      for (const c of ['a', 'z', 'é']) keys.add(term.slice(0, i) + c + term.slice(i + 1));
    }
    if (i + 1 < term.length) keys.add(term.slice(0, i) + term[i + 1] + term[i] + term.slice(i + 2));
  }
  return [...keys];
}

describe('expandTerm', () => {
  const all = TokenSets.fromArray(vocabulary);
  const lunrExpand = (clause: lunr.TokenSet) => all.intersect(clause).toArray().sort();
  const keys = [...new Set([...vocabulary.flatMap(keysFor), 'nothing', 'x', ''])];

  it('gives the terms Lunr gives for a word as typed, a prefix and a word one edit away, in code-unit order', () => {
    const terms = sortedTerms(vocabulary);
    let fuzzyMatches = 0;
    for (const key of keys) {
      const exact = expandTerm(terms, key, false, false);
      expect(exact, key).toEqual(key ? lunrExpand(TokenSets.fromString(key)) : []);
      const prefix = expandTerm(terms, key, true, false);
      expect(prefix, `${key}*`).toEqual(lunrExpand(TokenSets.fromString(`${key}*`)));
      const fuzzy = expandTerm(terms, key, false, true);
      expect(fuzzy, `${key}~1`).toEqual(lunrExpand(TokenSets.fromFuzzyString(key, 1)));
      fuzzyMatches += fuzzy.length;
    }
    // The comparison covers real matches, not only empty sets.
    expect(keys.length).toBeGreaterThan(500);
    expect(fuzzyMatches).toBeGreaterThan(keys.length);
  });

  it('reads an edit of one UTF-16 code unit as Lunr does', () => {
    expect(oneEditAway('abcd', 'acbd')).toBe(true);
    expect(oneEditAway('abcd', 'adcb')).toBe(false);
    expect(oneEditAway('bee', 'bee')).toBe(true);
    expect(oneEditAway('bee', 'beee')).toBe(true);
    expect(oneEditAway('bee', 'b')).toBe(false);
    expect(oneEditAway('tide', 'tied')).toBe(true);
    expect(oneEditAway('tides', 'tied')).toBe(false);
    // A surrogate pair is two units: dropping the bee emoji is two edits.
    expect(oneEditAway('\u{1F41D}bee', 'bee')).toBe(false);
    expect(expandTerm(sortedTerms(vocabulary), '\u{1F41D}be', false, true)).toEqual(lunrExpand(TokenSets.fromFuzzyString('\u{1F41D}be', 1)));
  });

  it('expands over an empty vocabulary to nothing', () => {
    for (const [wildcard, fuzzy] of [[false, false], [true, false], [false, true]] as const) {
      expect(expandTerm(sortedTerms([]), 'bee', wildcard, fuzzy)).toEqual([]);
    }
  });
});
