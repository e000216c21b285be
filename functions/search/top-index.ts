/**
 * The top of the search index (the episodes' metadata, one Lunr document per episode), loaded so that a process
 * answers its searches without building Lunr's TokenSet. lunr.Index.load builds the TokenSet of every term (an
 * automaton of ~16,000 terms at N = 1,000: 150–190 ms of a cold start, and several MB of heap kept for good), and
 * lunr.Index#query intersects it with each clause to expand the clause's terms. Here a clause's terms are expanded
 * over the sorted vocabulary instead (expand-term.ts), and `queryExpanded` gives Lunr a TokenSet of those terms
 * alone. Scoring, the vectors and the pipeline are Lunr's own, loaded by Lunr; the whole TokenSet is still built if
 * something calls `index.query` itself.
 */
import lunr from 'lunr';
import { expandTerm, sortedTerms, type SortedTerms } from './expand-term.ts';

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

const vocabularies = new WeakMap<lunr.Index, SortedTerms>();

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
  vocabularies.set(index, sortedTerms(terms));
  return index;
}

/**
 * Lunr publishes a posting as { _index, <field>: { <ref>: <metadata> } }, and with no metadata kept every <metadata>
 * is an empty object, as is a field the term does not occur in: as parsed, a distinct object each (N = 1,000:
 * ~60,000 refs; the loaded index holds 15.9 MB of heap, 9.4 MB with them shared). Lunr only reads them
 * (Object.keys; MatchData copies what it finds), so one frozen empty object stands for all of them.
 *
 * Done after the load, a slice of terms at a time between tasks: it costs ~30–50 ms at N = 1,000, a third of
 * parsing the index, which a process's first answer should not wait for. Queries in between read postings that
 * are equal either way.
 */
export async function shareEmptyMetadata(index: lunr.Index, slice = 2000, pause: () => Promise<unknown> = nextTask): Promise<void> {
  const inverted = vocabularyOf(index);
  let n = 0;
  for (const term in inverted) {
    shareEmpty(inverted[term]);
    if (++n % slice === 0) await pause();
  }
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

const EMPTY: object = Object.freeze(Object.create(null));

function shareEmpty(posting: unknown): void {
  if (typeof posting !== 'object' || posting === null) return;
  const fields = posting as Record<string, unknown>;
  for (const field in fields) {
    if (field === '_index') continue;
    const refs = fields[field];
    if (typeof refs !== 'object' || refs === null) continue;
    let any = false;
    for (const ref in refs) {
      any = true;
      const metadata = (refs as Record<string, unknown>)[ref];
      if (typeof metadata === 'object' && metadata !== null && isEmpty(metadata)) (refs as Record<string, unknown>)[ref] = EMPTY;
    }
    if (!any) fields[field] = EMPTY;
  }
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

/**
 * `index.query(build)` for a query of exactly one term clause (as typed, a prefix, or with an edit distance of 1) on
 * an index from loadTopIndex: the same results, without reading (and so building) the index's TokenSet. The
 * clause's terms are expanded over the sorted vocabulary, and Lunr intersects its clause with a TokenSet of those
 * terms alone, which gives it back the same terms.
 */
export function queryTerm(index: lunr.Index, term: string, options: { wildcard?: boolean; fuzzy?: boolean }, build: lunr.Index.QueryBuilder): lunr.Index.Result[] {
  const vocabulary = vocabularies.get(index);
  if (!vocabulary) throw new TypeError('queryTerm: not an index from loadTopIndex');
  const expanded = expandTerm(vocabulary, term, options.wildcard ?? false, options.fuzzy ?? false);
  const view = Object.create(index, { tokenSet: { value: TokenSets.fromArray(expanded) } }) as lunr.Index;
  return view.query(build);
}
