import { describe, expect, it } from 'vitest';
import lunr from 'lunr';
import { hasTerm, loadTopIndex, metadataFrequency, queryTerm, scanTopIndex, TokenSets, vocabularyOf } from './top-index.ts';
import { JsonScanError } from './json-scan.ts';

const docs = [
  { id: '1', title: 'Bees and the hive', topics: 'beekeeping 2024 honey' },
  { id: '2', title: 'Bridges of 1890', topics: 'engineering steel 2024' },
  { id: '3', title: 'Honey bees in winter', topics: 'bees winter 90' },
  { id: '4', title: 'Sourdough starters', topics: 'bread yeast bees "quoted" back\\slash' },
];

function build(metadata: string[] = []): lunr.Index {
  return lunr(function () {
    this.ref('id');
    this.field('title', { boost: 2 });
    this.field('topics');
    this.metadataWhitelist = metadata;
    for (const d of docs) this.add(d);
  });
}

/** As published: JSON text, with a member of the service's own after Lunr's. */
const published = (index = build(), space?: number) => JSON.stringify({ ...index.toJSON(), layout: { version: 4 } }, null, space);

const clause = (term: string, options: Partial<lunr.Query.Clause> = {}) => (q: lunr.Query) => {
  q.term(term, { usePipeline: false, ...options });
};

/** Every clause kind for every term of the index, and a few it does not have. */
function clauses(reference: lunr.Index) {
  const vocabulary = Object.keys(vocabularyOf(reference));
  expect(vocabulary).toContain('2024');
  return [...vocabulary, 'nothing', 'be', '9'].flatMap((term) => [
    { term, options: {}, clause: clause(term) },
    { term: term.slice(0, 2), options: { wildcard: true }, clause: clause(term.slice(0, 2), { wildcard: lunr.Query.wildcard.TRAILING }) },
    { term, options: { fuzzy: true }, clause: clause(term, { editDistance: 1 }) },
  ]);
}

describe('loadTopIndex', () => {
  it("answers every kind of clause through queryTerm as lunr.Index.load's index does, parsing only the postings it reads", () => {
    const text = published();
    const reference = lunr.Index.load(JSON.parse(text));
    const { index, layout } = loadTopIndex(text);
    expect(layout).toEqual({ version: 4 });
    expect(Object.keys(vocabularyOf(index))).toEqual([]);
    expect(queryTerm(index, 'bee', {}, clause('bee'))).toEqual(reference.query(clause('bee')));
    // The one posting the query read.
    expect(Object.keys(vocabularyOf(index))).toEqual(['bee']);
    for (const c of clauses(reference)) expect(queryTerm(index, c.term, c.options, c.clause), c.term).toEqual(reference.query(c.clause));
  });

  it('never builds the whole TokenSet for queryTerm; index.query builds it once, with every posting', () => {
    const text = published();
    const reference = lunr.Index.load(JSON.parse(text));
    let built = 0;
    const fromArray = TokenSets.fromArray;
    const spy = (sorted: string[]) => {
      built = Math.max(built, sorted.length);
      return fromArray.call(lunr.TokenSet, sorted);
    };
    TokenSets.fromArray = spy;
    try {
      const { index } = loadTopIndex(text);
      expect(queryTerm(index, 'bee', { wildcard: true }, clause('bee', { wildcard: lunr.Query.wildcard.TRAILING })).length).toBeGreaterThan(0);
      expect(queryTerm(index, 'bees', { fuzzy: true }, clause('bees', { editDistance: 1 })).length).toBeGreaterThan(0);
      // Each built a TokenSet of its own few terms, never the vocabulary's.
      expect(built).toBeLessThan(5);
      for (const c of clauses(reference)) expect(index.query(c.clause), c.term).toEqual(reference.query(c.clause));
      expect(built).toBe(Object.keys(vocabularyOf(reference)).length);
      expect(Object.keys(vocabularyOf(index)).length).toBe(built);
    } finally {
      TokenSets.fromArray = fromArray;
    }
  });

  it('reads any layout of the JSON text: spaces, kept metadata, escaped characters in a term', () => {
    for (const text of [published(build(), 2), published(build(['position'])), published(build(['position']), 1)]) {
      const reference = lunr.Index.load(JSON.parse(text));
      const { index } = loadTopIndex(text);
      const terms = Object.keys(vocabularyOf(reference));
      expect(terms.some((t) => t.includes('"') || t.includes('\\'))).toBe(true);
      for (const term of terms) expect(hasTerm(index, term), term).toBe(true);
      for (const c of clauses(reference)) expect(queryTerm(index, c.term, c.options, c.clause), c.term).toEqual(reference.query(c.clause));
    }
  });

  it('knows its terms without parsing their postings', () => {
    const { index } = loadTopIndex(published());
    expect(hasTerm(index, 'bee')).toBe(true);
    expect(hasTerm(index, '2024')).toBe(true);
    expect(hasTerm(index, 'be')).toBe(false);
    expect(hasTerm(index, 'zzz')).toBe(false);
    expect(Object.keys(vocabularyOf(index))).toEqual([]);
  });

  it('shares one frozen empty object for every empty metadata and field of the postings it parses', () => {
    const { index } = loadTopIndex(published());
    queryTerm(index, 'bee', {}, clause('bee'));
    queryTerm(index, 'bridg', {}, clause('bridg'));
    const vocabulary = vocabularyOf(index) as Record<string, Record<string, Record<string, object>>>;
    // "bees" is in two titles and two documents' topics; "bridg" in one title only.
    const bees = vocabulary['bee']!;
    const bridge = vocabulary['bridg']!;
    expect(Object.keys(bees.title!).length).toBe(2);
    expect(bees.title!['1']).toBe(bees.title!['3']);
    expect(bees.title!['1']).toBe(bees.topics!['4']);
    expect(bridge.topics).toBe(bridge.title!['2']);
    expect(Object.isFrozen(bridge.topics)).toBe(true);
  });

  it("gives the layout before the index, whose pipeline's functions (a language's) may be registered only then", () => {
    const text = published().replace('"pipeline":["stemmer"]', '"pipeline":["top-index-test-later"]');
    expect(text).toContain('top-index-test-later');
    const scanned = scanTopIndex(text);
    expect(scanned.layout).toEqual({ version: 4 });
    expect(() => scanned.index()).toThrow(/unregistered function/i);
    const later = (token: lunr.Token) => token;
    lunr.Pipeline.registerFunction(later, 'top-index-test-later');
    expect(queryTerm(scanned.index(), 'bee', {}, clause('bee')).length).toBeGreaterThan(0);
    expect(scanned.index()).toBe(scanned.index());
  });

  it('refuses a text that is not a serialized index, with a typed error', () => {
    const text = published();
    for (const bad of [text.slice(0, text.length / 2), '[]', '{"fields":["title"]}', text.replace('"invertedIndex":[[', '"invertedIndex":[{')]) {
      expect(() => loadTopIndex(bad)).toThrow(JsonScanError);
    }
    const unsorted = JSON.parse(text) as { invertedIndex: unknown[] };
    unsorted.invertedIndex.reverse();
    expect(() => loadTopIndex(JSON.stringify(unsorted))).toThrow(/code-unit order/);
  });
});

describe('metadataFrequency', () => {
  it("counts the documents a term's posting lists, one per field, as lunr.idf does, without keeping the posting", () => {
    const reference = build();
    const { index } = loadTopIndex(published(reference));
    // "bee": titles of 1 and 3, topics of 3 and 4.
    const bee = lunr.stemmer(new lunr.Token('bees', {})).toString();
    expect(metadataFrequency(index, bee)).toBe(4);
    expect(metadataFrequency(index, '2024')).toBe(2);
    expect(metadataFrequency(index, 'nothing')).toBe(0);
    expect(Object.hasOwn(vocabularyOf(index), bee)).toBe(false);
    // The same count once a query has parsed it.
    queryTerm(index, bee, {}, clause(bee));
    expect(Object.hasOwn(vocabularyOf(index), bee)).toBe(true);
    expect(metadataFrequency(index, bee)).toBe(4);
    const posting = vocabularyOf(reference)[bee] as Record<string, object>;
    expect(Object.keys(posting.title!).length + Object.keys(posting.topics!).length).toBe(4);
  });
});
