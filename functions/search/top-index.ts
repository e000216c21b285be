/**
 * The top of the search index (the episodes' metadata, one Lunr document per episode), loaded so that a process
 * answers its first search without building Lunr's TokenSet. lunr.Index.load builds the TokenSet of every term
 * (an automaton of ~16,000 terms at N = 1,000: 55–100 ms of a ~1 s cold start, and several MB of heap kept for
 * good), yet only a prefix or typo-tolerant clause needs it: an exact term's expansion is the term itself when the
 * index has it. So the TokenSet is built on its first use, and exact lookups go through `queryExact`, which gives
 * Lunr a one-term TokenSet instead. Scoring, the vectors and the pipeline are Lunr's own, loaded by Lunr.
 */
import lunr from 'lunr';

interface SerializedIndex {
  invertedIndex: Array<[string, unknown]>;
  [key: string]: unknown;
}

/** Lunr's TokenSet constructors, which @types/lunr leaves out. */
export const TokenSets = lunr.TokenSet as unknown as {
  fromArray(sorted: string[]): lunr.TokenSet;
  fromString(term: string): lunr.TokenSet;
  fromFuzzyString(term: string, editDistance: number): lunr.TokenSet;
};

/** An index's vocabulary (term → posting): Lunr keeps it as a public property that its typings leave out. */
export function vocabularyOf(index: lunr.Index): Record<string, unknown> {
  return (index as unknown as { invertedIndex: Record<string, unknown> }).invertedIndex;
}

/** lunr.Index.load's index, with the TokenSet built on first use instead of at load. */
export function loadTopIndex(serialized: SerializedIndex): lunr.Index {
  const entries = serialized.invertedIndex;
  const index = lunr.Index.load({ ...serialized, invertedIndex: [] });
  // Lunr's own (empty, prototype-free) vocabulary, filled here.
  const inverted = vocabularyOf(index);
  // Serialized in code-unit order, the order TokenSet.fromArray needs (the object's own key order would put
  // number-like terms first).
  const terms = entries.map(([term, posting]) => {
    inverted[term] = posting;
    return term;
  });
  let tokenSet: lunr.TokenSet | undefined;
  Object.defineProperty(index, 'tokenSet', {
    configurable: true,
    enumerable: true,
    get: () => (tokenSet ??= TokenSets.fromArray(terms)),
  });
  return index;
}

/**
 * `index.query(build)` for a query of exactly one term without wildcard or edit distance: the same results,
 * without reading (and so building) the index's TokenSet.
 */
export function queryExact(index: lunr.Index, term: string, build: lunr.Index.QueryBuilder): lunr.Index.Result[] {
  const known = Object.hasOwn(vocabularyOf(index), term);
  const view = Object.create(index, { tokenSet: { value: known ? TokenSets.fromString(term) : new lunr.TokenSet() } }) as lunr.Index;
  return view.query(build);
}
