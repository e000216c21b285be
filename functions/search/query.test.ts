import { beforeAll, describe, expect, it } from 'vitest';
import lunr from 'lunr';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import { contentWords, MAX_QUERY_CHARS, MAX_TERMS, parseQuery, type Clause } from './query.ts';

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = new Analyzer(await loadLanguage('en'));
});

const terms = (q: string) => parseQuery(q, analyzer).clauses.map((c) => c.term);
const clause = (q: string, term: string): Clause | undefined => parseQuery(q, analyzer).clauses.find((c) => c.term === term);

describe('parseQuery: hostile input never throws', () => {
  // Each of these makes lunr's own parser throw QueryParseError or do something nobody asked for.
  it.each([
    ['3:30', ['3:30']],
    ['1:1:1', ['1:1:1']],
    ['3:', ['3']],
    [':30', ['30']],
    ['x~', ['x']],
    ['x^', ['x']],
    ['x^10', ['x', '10']],
    ['bread~2', ['bread', '2']],
    ['title:bread', ['title', 'bread']],
    ['bread -', ['bread']],
    ['-', []],
    ['+', []],
    ['*', []],
    ['"', []],
    ['""', []],
    ['+-*~^:"', []],
    ['   ', []],
    ['', []],
  ])('%j → %j', (q, expected) => {
    expect(terms(q)).toEqual(expected);
  });

  it('shows the inputs really are hostile for lunr itself', () => {
    for (const q of ['3:30', 'x~', 'x^', 'bread -']) expect(() => lunrParse(q), q).toThrow();
  });

  it('handles a 5,000-character query by keeping the first MAX_TERMS distinct words', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `word${i}`);
    const q = words.join(' ').slice(0, 5000);
    expect(q.length).toBe(5000);
    const parsed = parseQuery(q, analyzer);
    expect(parsed.clauses).toHaveLength(MAX_TERMS);
    expect(parsed.truncated).toBe(true);
    expect(parsed.clauses[0]!.term).toBe('word0');
    expect(parseQuery('x'.repeat(5000), analyzer).clauses).toHaveLength(1);
  });

  it(`reads only the whole words within the first ${MAX_QUERY_CHARS} characters`, () => {
    // Stop words never become clauses, so MAX_TERMS alone would not stop a pass over 60 KB of them.
    const padding = 'a '.repeat(MAX_QUERY_CHARS / 2 - 3);
    const atEdge = `${padding}bread ovenproof`;
    expect(atEdge.length).toBeGreaterThan(MAX_QUERY_CHARS);
    for (const parse of [parseQuery, contentWords]) {
      const parsed = parse(`${atEdge} ${'a '.repeat(30_000)}starter`, analyzer);
      // "ovenproof" starts before the limit and ends after it: a cut word would be searched as another word.
      expect(parsed.clauses.map((c) => c.term)).toEqual(['bread']);
      expect(parsed.truncated).toBe(true);
      expect(parsed.clauses[0]!.autoPrefix).toBe(false);
    }
    const oneWord = parseQuery(`${'😴'.repeat(MAX_QUERY_CHARS)}x`, analyzer);
    expect(oneWord.truncated).toBe(true);
    expect(oneWord.clauses.every((c) => c.term.isWellFormed() && c.term.length <= MAX_QUERY_CHARS)).toBe(true);
    expect(parseQuery(`${'a '.repeat(MAX_QUERY_CHARS / 2 - 3)}bread`, analyzer).truncated).toBe(false);
  });

  it('treats emoji and other symbols as nothing, and keeps the words around them', () => {
    expect(terms('🍞 bread 🔥')).toEqual(['bread']);
    expect(terms('🍞')).toEqual([]);
    expect(terms('bread🍞oven')).toEqual(['bread🍞oven']);
  });

  it('turns NUL and other control characters into word breaks', () => {
    expect(terms('bread\u0000oven')).toEqual(['bread', 'oven']);
    expect(terms('\u0000\u0001\u001f')).toEqual([]);
    expect(terms('bread\u2028oven\ufefftide')).toEqual(['bread', 'oven', 'tide']);
  });

  it('survives random strings of syntax characters and words', () => {
    const alphabet = ['+', '-', '*', '~', '^', ':', '"', ' ', 'a', 'bread', '3', '\u0000', '🍞', '\\', '(', ')', '[', ']', '{', '}'];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const q = Array.from({ length: 1 + Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const parsed = parseQuery(q, analyzer);
      // (A colon stays only between digits: "3:30".)
      for (const c of parsed.clauses) expect(c.term).not.toMatch(/[\s*~^"+]|(?<!\d):|:(?!\d)/);
    }
  });
});

describe('parseQuery: operators', () => {
  it('reads +word as required and -word as excluded', () => {
    expect(clause('+bread -oven', 'bread')?.presence).toBe('required');
    expect(clause('+bread -oven', 'oven')?.presence).toBe('excluded');
    expect(clause('+-bread', 'bread')?.presence).toBe('required');
  });

  it('reads a query made only of exclusions as ordinary words (a bare -x must not list everything)', () => {
    expect(parseQuery('-oven', analyzer).clauses).toEqual([{ term: 'oven', presence: 'optional', prefix: false, autoPrefix: false }]);
    expect(parseQuery('-oven -bread', analyzer).clauses.map((c) => c.presence)).toEqual(['optional', 'optional']);
  });

  it('keeps the hyphen inside a word as a word break, not an operator', () => {
    expect(parseQuery('Diffie-Hellman', analyzer).clauses.map((c) => [c.term, c.presence])).toEqual([
      ['diffie', 'optional'],
      ['hellman', 'optional'],
    ]);
  });

  it('reads word* as a prefix from two characters on', () => {
    expect(clause('ferm*', 'ferm')).toMatchObject({ prefix: true, autoPrefix: false });
    expect(clause('f*', 'f')).toMatchObject({ prefix: false });
    expect(clause('the*', 'the')).toMatchObject({ prefix: true });
  });

  it('reads at most MAX_PREFIXES words as prefixes', () => {
    const parsed = parseQuery('ab* ac* ad* ae* af* ag* ah*', analyzer);
    expect(parsed.clauses.map((c) => c.prefix)).toEqual([true, true, true, true, true, false, false]);
  });

  it('treats quoted words as ordinary words, with the operator before the quote applied to each', () => {
    expect(parseQuery('"starter culture"', analyzer).clauses).toEqual([
      { term: 'starter', presence: 'optional', prefix: false, autoPrefix: false },
      { term: 'culture', presence: 'optional', prefix: false, autoPrefix: false },
    ]);
    expect(parseQuery('bread -"dutch oven"', analyzer).clauses.map((c) => c.presence)).toEqual(['optional', 'excluded', 'excluded']);
    expect(terms('"unterminated quote')).toEqual(['unterminated', 'quote']);
  });

  it('matches the last word as a prefix while it is being typed, from three characters on', () => {
    expect(clause('cryp', 'cryp')).toMatchObject({ autoPrefix: true, prefix: false });
    expect(clause('bread cryp', 'bread')?.autoPrefix).toBe(false);
    expect(clause('cryp ', 'cryp')?.autoPrefix).toBe(false);
    expect(clause('cr', 'cr')?.autoPrefix).toBe(false);
    expect(clause('bread -cryp', 'cryp')?.autoPrefix).toBe(false);
  });

  it('drops stop words, which the index does not hold, even with +', () => {
    expect(terms('the bread and the oven')).toEqual(['bread', 'oven']);
    expect(terms('+the bread')).toEqual(['bread']);
    expect(clause('bread the', 'bread')?.autoPrefix).toBe(false);
  });

  it('merges repeated words, the strongest operator winning', () => {
    expect(parseQuery('bread Bread +bread', analyzer).clauses).toEqual([
      { term: 'bread', presence: 'required', prefix: false, autoPrefix: true },
    ]);
  });
});

describe('contentWords (the ask question)', () => {
  it('keeps only the content words of a question', () => {
    expect(contentWords('which episode talks about sourdough starters and hydration?', analyzer).clauses.map((c) => c.term)).toEqual([
      'sourdough', 'starters', 'hydration',
    ]);
    expect(contentWords("What's the episode where they explain how tides work?", analyzer).clauses.map((c) => c.term)).toEqual([
      'tides', 'work',
    ]);
  });

  it('interprets no operators: every syntax character is a word break', () => {
    const clauses = contentWords('+bread -oven 3:30 title:ferm* "x~"', analyzer).clauses;
    expect(clauses.map((c) => c.term)).toEqual(['bread', 'oven', '3:30', 'title', 'ferm', 'x']);
    expect(clauses.every((c) => c.presence === 'optional' && !c.prefix)).toBe(true);
  });

  it('gives nothing for a question made only of filler', () => {
    expect(contentWords('which episode is it?', analyzer).clauses).toEqual([]);
    expect(contentWords('\u0000🍞?', analyzer).clauses).toEqual([]);
  });
});

/** Lunr's own query parser, to show what the module protects against. */
function lunrParse(q: string): () => unknown {
  const index = lunr(function () {
    this.ref('id');
    this.field('text');
    this.add({ id: '1', text: 'bread oven' });
  });
  index.search(q);
  return () => undefined;
}
