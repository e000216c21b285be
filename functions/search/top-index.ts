/**
 * The top of the search index (the episodes' metadata, one Lunr document per episode), loaded from its published
 * JSON text so that a process answers its first search without parsing what the search does not read, and without
 * building Lunr's TokenSet. Scoring, the vectors and the pipeline are Lunr's own.
 *
 * - The postings stay text until a query reads them. JSON.parse of the whole index (2.8 MB at N = 1,000: ~150,000
 *   small posting objects) took ~200 ms of a cold start, when a query reads the postings of a few terms. The text
 *   is scanned once for where each term's posting is (json-scan.ts; a sticky pattern for the shape Lunr writes,
 *   ~5 ms), and a posting is parsed when a query first needs it.
 * - lunr.Index.load builds the TokenSet of every term (an automaton of ~16,000 terms: 150–190 ms of a cold start,
 *   and several MB of heap kept for good), and lunr.Index#query intersects it with each clause to expand the
 *   clause's terms. Here a clause's terms are expanded over the sorted vocabulary instead (expand-term.ts), and
 *   `queryTerm` gives Lunr those terms' postings and a TokenSet of those terms alone.
 *
 * `index.query` itself still works: its first use parses every posting and builds the whole TokenSet, as
 * lunr.Index.load would have.
 */
import lunr from 'lunr';
import { expandTerm, indexOfTerm, sortedTerms, type SortedTerms } from './expand-term.ts';
import { JsonScanError, readPair, scanArray, scanObject } from './json-scan.ts';

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

interface Postings {
  /** The terms in code-unit order, the order TokenSet.fromArray needs, and read one at a time. */
  list: string[];
  terms: SortedTerms;
  /** Term k's posting is text.slice(from[k], to[k]) until it is parsed into Lunr's vocabulary. */
  text: string;
  from: Int32Array;
  to: Int32Array;
}

const postingsOf = new WeakMap<lunr.Index, Postings>();

// A pair as Lunr writes it when no metadata is kept: ["term",{"_index":n,"field":{"ref":{},...},...}]. A pair of
// any other shape (metadata, an escaped character, spaces) is read by the general scanner.
const REF = String.raw`"[^"\\]*":\{\}`;
const FIELD = String.raw`"[^"\\]*":\{(?:${REF}(?:,${REF})*)?\}`;
const LUNR_PAIR = new RegExp(String.raw`\["([^"\\]*)",\{"_index":\d+(?:,${FIELD})*\}\]`, 'y');
// The field vectors as Lunr writes them: [["field/ref",[n,n,...]],...], skipped in one match before they are parsed.
const VECTOR = String.raw`\["[^"\\]*",\[[^\]]*\]\]`;
const LUNR_VECTORS = new RegExp(String.raw`\[(?:${VECTOR}(?:,${VECTOR})*)?\]`, 'y');

export interface ScannedTopIndex {
  /** The `layout` member of the published JSON, as parsed (the engine validates it). */
  layout: unknown;
  /**
   * The index (made once). Its pipeline's functions must be registered by then (a language's stemmer and
   * trimmer: the layout says which language), as for lunr.Index.load.
   */
  index(): lunr.Index;
}

/**
 * The published /search/lunr-index.json, scanned: where each term's posting is, and the layout. Throws
 * JsonScanError (or JSON.parse's SyntaxError) on a text that is not a serialized index.
 */
export function scanTopIndex(text: string): ScannedTopIndex {
  const members = new Map<string, [number, number]>();
  const terms: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const add = (term: string, a: number, b: number) => {
    terms.push(term);
    from.push(a);
    to.push(b);
  };
  scanObject(text, 0, (key, start) => {
    if (key === 'fieldVectors') {
      LUNR_VECTORS.lastIndex = start;
      return LUNR_VECTORS.test(text) ? LUNR_VECTORS.lastIndex : undefined;
    }
    if (key !== 'invertedIndex') return undefined;
    return scanArray(text, start, (a) => {
      LUNR_PAIR.lastIndex = a;
      const m = LUNR_PAIR.exec(text);
      if (m) {
        add(m[1]!, a + m[1]!.length + 4, LUNR_PAIR.lastIndex - 1);
        return LUNR_PAIR.lastIndex;
      }
      const [term, b, c, end] = readPair(text, a);
      add(term, b, c);
      return end;
    });
  }, (key, a, b) => void members.set(key, [a, b]));
  const member = <T>(key: string): T => {
    const at = members.get(key);
    if (!at) throw new JsonScanError(`the index has no "${key}"`);
    return JSON.parse(text.slice(at[0], at[1])) as T;
  };
  for (let k = 1; k < terms.length; k++) {
    if (!(terms[k - 1]! < terms[k]!)) throw new JsonScanError('the index\'s terms are not in code-unit order');
  }
  let made: lunr.Index | undefined;
  const layout: unknown = members.has('layout') ? member('layout') : undefined;
  const postings = { list: terms, terms: sortedTerms(terms), text, from: Int32Array.from(from), to: Int32Array.from(to) };
  return { layout, index: () => (made ??= makeIndex(postings, member)) };
}

/**
 * The published index as lunr.Index.load would load it, with each posting parsed on first use and the TokenSet
 * built only if `index.query` is called.
 */
export function loadTopIndex(text: string): { index: lunr.Index; layout: unknown } {
  const scanned = scanTopIndex(text);
  return { index: scanned.index(), layout: scanned.layout };
}

function makeIndex(postings: Postings, member: <T>(key: string) => T): lunr.Index {
  const fieldVectors: Record<string, lunr.Vector> = {};
  for (const [ref, elements] of member<Array<[string, number[]]>>('fieldVectors')) fieldVectors[ref] = new lunr.Vector(elements);
  // The attributes lunr.Index.load gives the constructor (@types/lunr's Attributes names them otherwise).
  const index = new lunr.Index({
    invertedIndex: Object.create(null),
    fieldVectors,
    tokenSet: new lunr.TokenSet(),
    fields: member<string[]>('fields'),
    pipeline: lunr.Pipeline.load(member<string[]>('pipeline') as never),
  } as unknown as lunr.Index.Attributes);
  postingsOf.set(index, postings);
  let tokenSet: lunr.TokenSet | undefined;
  Object.defineProperty(index, 'tokenSet', {
    configurable: true,
    enumerable: true,
    get: () => {
      if (!tokenSet) {
        for (let k = 0; k < postings.list.length; k++) materialize(index, postings, k);
        tokenSet = TokenSets.fromArray(postings.list);
      }
      return tokenSet;
    },
  });
  return index;
}

/** Term k's posting, parsed into Lunr's vocabulary if it is not yet. */
function materialize(index: lunr.Index, postings: Postings, k: number): void {
  const vocabulary = vocabularyOf(index);
  const term = postings.terms.at(k);
  if (Object.hasOwn(vocabulary, term)) return;
  const posting = JSON.parse(postings.text.slice(postings.from[k], postings.to[k])) as unknown;
  shareEmpty(posting);
  vocabulary[term] = posting;
}

/** Whether an index from loadTopIndex has the term. */
export function hasTerm(index: lunr.Index, term: string): boolean {
  return indexOfTerm(postingsFor(index).terms, term) >= 0;
}

/**
 * The documents of an index from loadTopIndex that hold a term, one per field it is in (as lunr.idf counts them):
 * the episodes' share of the term's document frequency (contract/schemas/search-passages.ts).
 */
export function metadataFrequency(index: lunr.Index, term: string): number {
  const postings = postingsFor(index);
  const k = indexOfTerm(postings.terms, term);
  if (k < 0) return 0;
  // Read, not kept, when no query of the top index has parsed it: a prefix's transcript terms are hundreds, and
  // every posting of the top kept was ~10 MB of heap at N = 1,000.
  const vocabulary = vocabularyOf(index);
  const posting = (Object.hasOwn(vocabulary, term) ? vocabulary[term] : JSON.parse(postings.text.slice(postings.from[k], postings.to[k]))) as Record<string, unknown>;
  let n = 0;
  for (const field in posting) {
    if (field === '_index') continue;
    const refs = posting[field];
    if (typeof refs === 'object' && refs !== null) for (const _ in refs) n++;
  }
  return n;
}

function postingsFor(index: lunr.Index): Postings {
  const postings = postingsOf.get(index);
  if (!postings) throw new TypeError('not an index from loadTopIndex');
  return postings;
}

/**
 * Lunr publishes a posting as { _index, <field>: { <ref>: <metadata> } }, and with no metadata kept every <metadata>
 * is an empty object, as is a field the term does not occur in: as parsed, a distinct object each (N = 1,000:
 * ~60,000 refs, when every posting was parsed: 15.9 MB of heap, 9.4 MB with them shared). Lunr only reads them
 * (Object.keys; MatchData copies what it finds), so one frozen empty object stands for all of them.
 */
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
  const postings = postingsFor(index);
  const expanded = expandTerm(postings.terms, term, options.wildcard ?? false, options.fuzzy ?? false);
  // A lone optional clause with no term in the vocabulary matches nothing, and Lunr would still build a node per
  // character of the word to find that out.
  if (expanded.length === 0) return [];
  for (const t of expanded) materialize(index, postings, indexOfTerm(postings.terms, t));
  const view = Object.create(index, { tokenSet: { value: TokenSets.fromArray(expanded) } }) as lunr.Index;
  return view.query(build);
}
