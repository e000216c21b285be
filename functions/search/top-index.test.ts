import { describe, expect, it } from 'vitest';
import lunr from 'lunr';
import { loadTopIndex, queryTerm, shareEmptyMetadata, vocabularyOf } from './top-index.ts';

const docs = [
  { id: '1', title: 'Bees and the hive', topics: 'beekeeping 2024 honey' },
  { id: '2', title: 'Bridges of 1890', topics: 'engineering steel 2024' },
  { id: '3', title: 'Honey bees in winter', topics: 'bees winter 90' },
  { id: '4', title: 'Sourdough starters', topics: 'bread yeast bees' },
];

function serialized() {
  const index = lunr(function () {
    this.ref('id');
    this.field('title', { boost: 2 });
    this.field('topics');
    for (const d of docs) this.add(d);
  });
  // As published: JSON text, parsed by the host.
  return JSON.parse(JSON.stringify(index)) as Parameters<typeof loadTopIndex>[0];
}

const clause = (term: string, options: Partial<lunr.Query.Clause> = {}) => (q: lunr.Query) => {
  q.term(term, { usePipeline: false, ...options });
};

describe('loadTopIndex', () => {
  it('answers every kind of clause through queryTerm without building the TokenSet, and builds it once for index.query', () => {
    const published = serialized();
    let built = 0;
    const fromArray = (lunr.TokenSet as unknown as { fromArray: (a: string[]) => lunr.TokenSet }).fromArray;
    const spy = (sorted: string[]) => {
      built++;
      return fromArray.call(lunr.TokenSet, sorted);
    };
    (lunr.TokenSet as unknown as { fromArray: typeof spy }).fromArray = spy;
    try {
      const index = loadTopIndex(published);
      expect(queryTerm(index, 'bee', {}, clause('bee')).length).toBeGreaterThan(0);
      expect(queryTerm(index, 'bee', { wildcard: true }, clause('bee', { wildcard: lunr.Query.wildcard.TRAILING })).length).toBeGreaterThan(0);
      expect(queryTerm(index, 'bees', { fuzzy: true }, clause('bees', { editDistance: 1 })).length).toBeGreaterThan(0);
      // Each of them built a TokenSet of its own few terms, never the vocabulary's.
      expect(built).toBe(3);
      built = 0;
      index.query(clause('bee', { wildcard: lunr.Query.wildcard.TRAILING }));
      index.query(clause('bee', { wildcard: lunr.Query.wildcard.TRAILING }));
      expect(built).toBe(1);
    } finally {
      (lunr.TokenSet as unknown as { fromArray: typeof fromArray }).fromArray = fromArray;
    }
  });

  it("answers exact, prefix and typo-tolerant clauses as lunr.Index.load's index does", () => {
    const reference = lunr.Index.load(serialized());
    const index = loadTopIndex(serialized());
    const vocabulary = Object.keys((reference as unknown as { invertedIndex: object }).invertedIndex);
    expect(vocabulary).toContain('2024');
    for (const term of [...vocabulary, 'nothing', 'be', '9', '']) {
      expect(queryTerm(index, term, {}, clause(term))).toEqual(reference.query(clause(term)));
      expect(index.query(clause(term))).toEqual(reference.query(clause(term)));
      const prefix = clause(term.slice(0, 2), { wildcard: lunr.Query.wildcard.TRAILING });
      expect(queryTerm(index, term.slice(0, 2), { wildcard: true }, prefix)).toEqual(reference.query(prefix));
      expect(index.query(prefix)).toEqual(reference.query(prefix));
      const fuzzy = clause(term, { editDistance: 1 });
      expect(queryTerm(index, term, { fuzzy: true }, fuzzy)).toEqual(reference.query(fuzzy));
      expect(index.query(fuzzy)).toEqual(reference.query(fuzzy));
    }
  });

  it('keeps number-like terms in the order the TokenSet needs', () => {
    // "1890", "2024" and "90" would come first as an object's keys; a TokenSet built from them out of order
    // misses words after them.
    const index = loadTopIndex(serialized());
    const prefixes = ['1', '2', '9', 'b', 'w'].flatMap((p) => index.query(clause(p, { wildcard: lunr.Query.wildcard.TRAILING })).map((r) => r.ref));
    const reference = lunr.Index.load(serialized());
    expect(prefixes).toEqual(['1', '2', '9', 'b', 'w'].flatMap((p) => reference.query(clause(p, { wildcard: lunr.Query.wildcard.TRAILING })).map((r) => r.ref)));
    expect(prefixes.length).toBeGreaterThan(5);
  });

  it('shares one empty object for every empty metadata and field, answering as before, also between its slices', async () => {
    const reference = lunr.Index.load(serialized());
    const index = loadTopIndex(serialized());
    const vocabulary = vocabularyOf(index) as Record<string, Record<string, Record<string, object>>>;
    const terms = Object.keys(vocabulary);
    const clauses = terms.flatMap((term) => [clause(term), clause(term.slice(0, 2), { wildcard: lunr.Query.wildcard.TRAILING }), clause(term, { editDistance: 1 })]);
    let pauses = 0;
    await shareEmptyMetadata(index, 2, async () => {
      pauses++;
      for (const c of clauses) expect(index.query(c)).toEqual(reference.query(c));
    });
    expect(pauses).toBe(Math.floor(terms.length / 2));
    for (const c of clauses) expect(index.query(c)).toEqual(reference.query(c));
    // "bees" is in two titles and two documents' topics; "bridg" in one title only.
    const bees = vocabulary[lunr.stemmer(new lunr.Token('bees', {})).toString()]!;
    const bridge = vocabulary[lunr.stemmer(new lunr.Token('bridges', {})).toString()]!;
    expect(Object.keys(bees.title!).length).toBe(2);
    expect(bees.title!['1']).toBe(bees.title!['3']);
    expect(bees.title!['1']).toBe(bees.topics!['4']);
    expect(bridge.topics).toBe(bridge.title!['2']);
    expect(Object.isFrozen(bridge.topics)).toBe(true);
  });
});
