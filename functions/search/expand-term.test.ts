/**
 * A clause's expansion without the vocabulary's TokenSet must be exactly Lunr's: the same terms as intersecting
 * TokenSet.fromArray(vocabulary) with the clause's TokenSet, for every kind of edit at every position.
 */
import type lunr from 'lunr';
import { describe, expect, it } from 'vitest';
import { expandTerm, lastAtMost, oneEditAway, oneEditShards, sortedTerms } from './expand-term.ts';
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

describe('oneEditShards', () => {
  // Every cut of the vocabulary into shards of 1, 2 and 3 terms, and some uneven cuts: the shard of each term one
  // edit away from a key (first character the key's first or second, as the engine tries) must be among those chosen.
  const cuts = (size: number) => vocabulary.filter((_, k) => k % size === 0);
  const layouts = [cuts(1), cuts(2), cuts(3), [vocabulary[0]!, 'b', 'bee', 'c', 's', 'ta', 'tie'], [vocabulary[0]!]];

  it('chooses every shard that holds a one-edit neighbour, for every kind of edit at every position', () => {
    for (const first of layouts) {
      for (const key of vocabulary.flatMap(keysFor)) {
        const chosen = new Set(oneEditShards(first, key));
        for (const term of vocabulary) {
          if (!oneEditAway(key, term) || (term[0] !== key[0] && term[0] !== key[1])) continue;
          expect(chosen.has(lastAtMost(first, term)), `${key} -> ${term} in ${JSON.stringify(first)}`).toBe(true);
        }
      }
    }
  });

  it('chooses far fewer shards than the two letters span', () => {
    // A large show's "t" and "r": shards cut every few terms, as its common words' postings cut them.
    const words: string[] = [];
    for (const a of 'tr') for (const b of 'abcdefghijklmnopqrstuvwxyz') for (const c of 'aeiou') for (const d of 'lmnrst') words.push(a + b + c + d + 'er');
    const first = ['0', ...words.sort().filter((_, k) => k % 3 === 0)];
    const spanned = first.filter((f) => f.startsWith('t') || f.startsWith('r')).length;
    const chosen = oneEditShards(first, 'tremor');
    expect(spanned).toBeGreaterThan(500);
    expect(chosen.length).toBeLessThan(spanned / 4);
    // Still every shard with a neighbour: "tremer" (a substitution) and "rtemor"-like swaps are in the vocabulary's range.
    for (const term of ['tremer', 'trimor', 'remor', 'rtemor']) expect(chosen).toContain(lastAtMost(first, term));
  });
});
