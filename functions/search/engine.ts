/**
 * The search engine: the one module that talks to Lunr at request time. It loads the top of the prebuilt index
 * (the episodes' metadata and the layout, contract/schemas/search-passages.ts) once per process, and on demand
 * only the transcript shards a query's words fall in and the passages of the results it shows, each kept in a
 * bounded cache: what a process holds does not grow with the show, only with what is asked. Nothing here parses
 * content or rebuilds an index.
 *
 * Ranking, for /api/search and /ask alike. Every score is BM25 (k1 1.2, b 0.75, field boosts) with statistics of
 * the whole show, baked in at build time. An episode's score is
 *     episodeWeight × score(episode metadata) + Σᵢ passageWeights[i] × score(i-th best passage)
 * so the best passage decides, sustained discussion (a 2nd and 3rd passage) breaks near-ties, and the metadata
 * (title, topics, description, guests, chapters) adds what the editors say the episode is about; it is also what
 * finds an episode without a transcript. A passage's score is the sum over the query's words of that word's score
 * in the passage, taken from the transcript postings, which list each episode's best PASSAGES_PER_TERM passages
 * per word (src/build/search/sharded-index.ts): exact for every passage among a word's best, a lower bound past
 * them. test/search/relevance.test.ts measured these weights: an episode weight of 0.5 or less loses topic queries
 * ("nature", "ecology") to passing mentions, 2 lets a title word outrank the transcript ("engineering" → the
 * episode titled "...engines"), one passage instead of three loses "circadian rhythm".
 */
import lunr from 'lunr';
import type { DataStore } from '../data.ts';
import type { ServiceData, ServiceEpisode } from '../../contract/schemas/service-data.ts';
import type { SearchMoment, SearchResult } from '../../contract/schemas/search.ts';
import {
  isPassageChunk, PassageTermsReader, SEARCH_LAYOUT_VERSION, SearchLayoutSchema, TOP_INDEX_PATH, vocabularyBucket, VocabularySchema, type PassageChunk, type SearchLayout,
  type VocabularyBucket,
} from '../../contract/schemas/search-passages.ts';
import { analysePassage, type PassageAnalysis } from '../../contract/search/passage-terms.ts';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { findPackedTerm } from '../../contract/search/packed-terms.ts';
import { utf8Length, viewsOfOneBuffer } from '../../contract/search/one-buffer.ts';
import { hasTerm, metadataFrequency, queryTerm, scanTopIndex } from './top-index.ts';
import { expandTerm, lastAtMost, oneEditAway, oneEditShards, startsWithinReach } from './expand-term.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import { contentWords, MIN_AUTO_PREFIX, MIN_PREFIX, parseQuery, type Clause, type ParsedQuery } from './query.ts';
import { makeSnippet, MARK_CLOSE, MARK_OPEN } from './snippet.ts';
import { EpisodeSums } from './episode-sums.ts';
import { bestPassages } from './best-passages.ts';
import { QueryMatches } from './query-matches.ts';
import { TopK } from './top-k.ts';
import { parseDuration } from '../../contract/duration.ts';
import type { SemanticData } from '../../contract/search/semantic.ts';
import {
  allCandidates, chapterAnchor, describedChapter, MOMENT, pickMoments, rescorePassages, understandQuestion,
  type Candidate, type EpisodePostings, type UnderstoodQuestion,
} from './ask-understanding.ts';

export interface RankingWeights {
  episodeWeight: number;
  passageWeights: number[];
}

export const RANKING: Record<'search' | 'ask', RankingWeights> = {
  search: { episodeWeight: 1, passageWeights: [1, 0.5, 0.25] },
  ask: { episodeWeight: 1, passageWeights: [1, 0.5, 0.25] },
};

/** The implicit prefix on the last word counts less than the word as typed. */
const AUTO_PREFIX_BOOST = 0.5;
/**
 * A prefix is looked up in the shards its terms can be in. While typing, a prefix that spans more shards than this
 * ("con" at N = 1,000: ~40 of 2,400 shards, thousands of terms) is too unselective to help and would load a large
 * share of the index for one keystroke: the word as typed is searched, and the next letter narrows the prefix.
 * bench/ at N = 1,000: with it unbounded, a search computed anew cost 29 ms of CPU.
 */
export const MAX_AUTO_PREFIX_SHARDS = 4;
/** An explicit `word*` is looked up in at most this many shards (the first terms in order), bounding its cost. */
export const MAX_PREFIX_SHARDS = 16;
/** Typo tolerance only for words long enough that one edit rarely turns them into another word... */
const MIN_FUZZY_LENGTH = 4;
/** ...and short enough to be words: Lunr's fuzzy automaton grows with the term (5,000 letters took seconds). */
const MAX_FUZZY_LENGTH = 24;
const fuzzyable = (term: string) => term.length >= MIN_FUZZY_LENGTH && term.length <= MAX_FUZZY_LENGTH;

/**
 * What a process keeps of the index, in bytes (what the loaded shards and passage chunks hold, nearly all of it in
 * typed arrays), so that memory is bounded by a setting, not by the show. A query needs a few shards and one passage
 * chunk per result it shows; a shard is ~60 KB of JSON and a little less loaded, a chunk of 16 passages of an
 * hour-long episode ~10 KB, and /ask's reading of one (its analyses with the chunk) ~19 KB. `bytes` is the budget;
 * `perPassage`, when set, raises it to that many bytes per transcript passage of the show (cacheBudget): a server's
 * default, so that what it holds keeps pace with the index as the show grows. The default (32 MB, fixed) fits a
 * 128 MB function isolate; SEARCH_CACHE_MB (functions/env.ts) sets it per host, read once before the first query
 * (configureSearchCaches).
 */
export const CACHE_LIMITS = { bytes: 32 * 1024 * 1024, perPassage: 0 };
/** Answers to repeated queries get a quarter of the budget on top, weighed by their size (~5–15 KB each). */
const ANSWER_SHARE = 0.25;
/** Of the index budget, the share the shards keep whatever the chunks need, and the chunks the rest (#shards). */
const SHARD_SHARE = 0.5;

/**
 * Sets the index cache budget for engines created after the call, once per process, at start: `megabytes`, or
 * `perPassage` bytes per transcript passage of the show where that is more.
 */
export function configureSearchCaches(megabytes: number, perPassage = 0): void {
  CACHE_LIMITS.bytes = Math.max(1, megabytes) * 1024 * 1024;
  CACHE_LIMITS.perPassage = Math.max(0, perPassage);
}

/** The budget, in bytes, of an engine over an index of `passages` transcript passages (CACHE_LIMITS). */
export function cacheBudget(passages: number): number {
  return Math.max(CACHE_LIMITS.bytes, Math.round(CACHE_LIMITS.perPassage * passages));
}

export interface EpisodeHit {
  id: number;
  score: number;
  /** The best-matching passage (index into the episode's passages), when a passage matched. */
  passage?: number;
  /** What the query matched, one object for all its hits: the index terms and passages of a hit are read from it. */
  matched: QueryMatches;
  /** /ask: the question as understood, for the chapter anchor of a hit without a passage. */
  understood?: UnderstoodQuestion;
  /**
   * /ask's re-ranked hits: the passages offered as moments, best first (the first is `passage`). The other /ask
   * hits offer their postings' best (matched.momentsOf).
   */
  moments?: number[];
}

export interface Ranking {
  /** Best first: every matching episode, or the first `top` of them when the caller asked for a page's worth. */
  hits: EpisodeHit[];
  /** How many episodes match, however many `hits` holds. */
  total: number;
  /** True when the exact query found nothing and the typo-tolerant retry was used. */
  fuzzy: boolean;
}

interface RankOptions {
  /** Words matched with one edit of tolerance (the retry: words the index does not know). */
  fuzzy?: ReadonlySet<string>;
  /** Ask's retry: the last content word, when unknown, also matches as a prefix. */
  lastAsPrefix?: boolean;
  /**
   * Re-ranks an episode's candidate passages, best first (/ask's understanding hook); only the leading episodes.
   * `postings` are the episode's transcript postings for the query's terms (term → `p`); `rank` its place (from 0).
   * `moments`: the candidates the moments are chosen from (those whose text was read), best first.
   */
  rescore?: (episode: number, candidates: Candidate[], postings: EpisodePostings, rank: number) => Promise<{ ranked: Candidate[]; moments: Candidate[] }>;
  /** Only the best `top` hits are wanted (a page: offset + limit), and `total` counts the rest (not with rescore). */
  top?: number;
}

export interface SearchOptions {
  /** Only the best `top` hits are wanted (offset + limit of the page shown); absent: every matching episode. */
  top?: number;
  weights?: RankingWeights;
}

/** Passages per episode that /ask re-ranks (the ranking then sums the best three, as for /api/search). */
const ASK_CANDIDATES = 8;
/** Scores as the hits carry them, to four decimals: the ranking orders by these (ties then by id). */
const roundScore = (score: number) => Math.round(score * 10_000) / 10_000;
/** Episodes whose passages /ask re-ranks: their passage files are loaded, so the count is bounded. */
const ASK_RESCORED_EPISODES = 10;
/**
 * Passage chunks of a leading episode whose every passage /ask scores. Analysing text is most of /ask's cost: all
 * of three hour-long episodes (bench/, N = 1,000) took ~40 ms a question, two chunks each ~10 ms.
 */
const ASK_SCANNED_CHUNKS = 2;

/** The episodes a lookup matches in the top index (episode metadata), and the index terms it expanded to. */
interface MetadataMatches {
  matches: Array<{ id: number; score: number; terms: string[] }>;
  terms: string[];
  unit: number;
}

/** One Lunr term clause, run on the top index and on the shards its terms can be in. */
interface Lookup {
  key: string;
  boost: number;
  wildcard: boolean;
  fuzzy: boolean;
  shards: number[];
  /** A fuzzy lookup's terms one edit away, found in the segments' vocabularies (#oneEditNeighbours); its shards hold them. */
  neighbours?: string[];
}

/**
 * A byte budget that several LRU maps share, each with a share of its own that the others cannot take from it:
 * past the budget, the map that is over its share gives up its least recently used entries. So each may use what
 * the others leave unused, without evicting what they need: a map that grows takes back its share from one that
 * borrowed it before giving up its own entries.
 */
export class SharedBudget {
  readonly members: Array<Lru<unknown, unknown>> = [];
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  get weight(): number {
    let total = 0;
    for (const m of this.members) total += m.weight;
    return total;
  }
}

/**
 * A small LRU map with a budget: each entry weighs 1 unless weighed (weigh(), e.g. bytes once a load resolved);
 * get refreshes, and past the limit the least recently used entries are evicted (never the last one left).
 * In a SharedBudget, `limit` is the map's own share and the budget's limit is what all its maps hold together.
 */
export class Lru<K, V> {
  readonly #map = new Map<K, { value: V; weight: number }>();
  #total = 0;
  readonly limit: number;
  readonly #budget: SharedBudget | undefined;
  constructor(limit: number, budget?: SharedBudget) {
    this.limit = limit;
    this.#budget = budget;
    budget?.members.push(this as Lru<unknown, unknown>);
  }
  get size(): number {
    return this.#map.size;
  }
  /** The sum of the entries' weights. */
  get weight(): number {
    return this.#total;
  }
  /** The keys held, least recently used first. */
  keys(): IterableIterator<K> {
    return this.#map.keys();
  }
  get(key: K): V | undefined {
    const entry = this.#map.get(key);
    if (entry === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, entry);
    return entry.value;
  }
  set(key: K, value: V, weight = 1): void {
    this.delete(key);
    this.#map.set(key, { value, weight });
    this.#total += weight;
    this.#evict();
  }
  /** Changes the weight of an entry still held (a no-op otherwise). */
  weigh(key: K, value: V, weight: number): void {
    const entry = this.#map.get(key);
    if (entry?.value !== value) return;
    this.#total += weight - entry.weight;
    entry.weight = weight;
    this.#evict();
  }
  delete(key: K): void {
    const entry = this.#map.get(key);
    if (entry) {
      this.#total -= entry.weight;
      this.#map.delete(key);
    }
  }
  clear(): void {
    this.#map.clear();
    this.#total = 0;
  }
  /** Evicts the least recently used entry, unless it is the last one left. */
  #evictOne(): boolean {
    if (this.#map.size <= 1) return false;
    this.delete(this.#map.keys().next().value as K);
    return true;
  }
  #evict(): void {
    const budget = this.#budget;
    if (!budget) {
      while (this.#total > this.limit && this.#evictOne());
      return;
    }
    while (budget.weight > budget.limit) {
      // Another map that borrowed beyond its share, else this one if it is over its own.
      const other = budget.members.find((m) => m !== (this as unknown) && m.weight > m.limit);
      const victim = other ?? (this.#total > this.limit ? this : undefined);
      if (!victim || !victim.#evictOne()) break;
    }
  }
}

/**
 * What a cache of loaded documents holds under key, or load()'s promise, kept under it: weighed `guess` while it
 * loads, then weight(value); dropped if it fails, so the next call loads again.
 */
export function loadOnce<K, T>(cache: Lru<K, Promise<unknown>>, key: K, guess: number, load: () => Promise<T>, weight: (value: T) => number): Promise<T> {
  const held = cache.get(key) as Promise<T> | undefined;
  if (held) return held;
  const loading = load();
  loading.then((value) => cache.weigh(key, loading, weight(value)), () => cache.delete(key));
  cache.set(key, loading, guess);
  return loading;
}

/**
 * A transcript posting as published: the passages of the segment holding the term (df), and episode id → the
 * episode's best passages for the term, [passage, weight, ...].
 */
type ShardPosting = { df?: number; text?: Record<string, { p?: number[] }> };

/**
 * A term's transcript posting in one segment as the engine reads it: the episodes (ascending as published), and for
 * episode k its best passages passages[at[k]] … passages[at[k + 1] - 1] with their weights (views of the shard's
 * arrays: `at` counts in the whole shard's `passages`); a passage's score is idf × its weight. `df`: the segment's
 * passages holding the term; `idf`: the term's over the whole show, set by the query that reads the posting once
 * it has every segment's df (1 until then).
 */
export interface Posting {
  episodes: Int32Array;
  at: Int32Array;
  passages: Int32Array;
  scores: Float64Array;
  df: number;
  idf: number;
}

/**
 * A shard (a serialized Lunr index whose postings carry `p`) as the engine keeps it: every posting in the same
 * few typed arrays, and the terms in one string, found by binary search (published in code-unit order). A posting
 * of its own in four typed arrays, with its term in a Map, was ~600 bytes of JS objects a term (~200 terms a shard
 * at N = 100): a shard loaded, as /ask's questions do at N = 1,000, left tens of KB for a scavenge to copy and
 * promote and, once evicted, for a full collection to find.
 */
export class LoadedShard {
  /**
   * The terms, separated by single spaces (index terms hold none), and where term k starts in them (it ends at
   * termAt[k + 1] - 1).
   */
  readonly #terms: string;
  readonly #termAt: Uint32Array;
  /**
   * Term k's episodes: episodes[epAt[k]] … episodes[epAt[k + 1] - 1]; the passages of episode slot j:
   * passages[at[j]] … passages[at[j + 1] - 1], with their scores.
   */
  readonly #epAt: Int32Array;
  readonly #episodes: Int32Array;
  readonly #at: Int32Array;
  readonly #passages: Int32Array;
  readonly #scores: Float64Array;
  /** Term k's document frequency in the segment. */
  readonly #df: Int32Array;
  /** Approximate bytes held (for the cache's budget). */
  readonly bytes: number;

  constructor(n: number, serialized: { invertedIndex?: Array<[string, ShardPosting]> }) {
    const list = serialized?.invertedIndex;
    if (!Array.isArray(list)) throw new Error(`shard ${n}: not a serialized Lunr index; rebuild the site`);
    let episodes = 0;
    let pairs = 0;
    let prev = '';
    for (const [k, [term, posting]] of list.entries()) {
      if (typeof term !== 'string' || term.includes(' ') || (k > 0 && !(prev < term))) throw new Error(`shard ${n}: terms not in code-unit order; rebuild the site`);
      prev = term;
      const refs = posting?.text ?? {};
      for (const ref of Object.keys(refs)) {
        episodes++;
        pairs += (refs[ref]?.p?.length ?? 0) >> 1;
      }
    }
    this.#terms = list.map(([term]) => term).join(' ');
    [this.#scores, this.#termAt, this.#epAt, this.#df, this.#episodes, this.#at, this.#passages] = viewsOfOneBuffer([
      [Float64Array, pairs],
      [Uint32Array, list.length + 1],
      [Int32Array, list.length + 1],
      [Int32Array, list.length],
      [Int32Array, episodes],
      [Int32Array, episodes + 1],
      [Int32Array, pairs],
    ]);
    let at = 0;
    let e = 0;
    let i = 0;
    list.forEach(([term, posting], k) => {
      this.#termAt[k] = at;
      at += term.length + 1;
      this.#epAt[k] = e;
      const df = posting?.df;
      if (typeof df !== 'number' || !(df >= 0)) throw new Error(`shard ${n}: term ${JSON.stringify(term)} has no df; rebuild the site`);
      this.#df[k] = df;
      const refs = posting?.text ?? {};
      for (const ref of Object.keys(refs)) {
        this.#episodes[e] = Number(ref);
        this.#at[e++] = i;
        const p = refs[ref]?.p ?? [];
        for (let j = 0; j + 1 < p.length; j += 2, i++) {
          this.#passages[i] = p[j]!;
          this.#scores[i] = p[j + 1]!;
        }
      }
    });
    this.#termAt[list.length] = at;
    this.#epAt[list.length] = e;
    this.#at[e] = i;
    // eslint-disable-next-line no-control-regex
    const stringBytes = /^[\u0000-\u00ff]*$/.test(this.#terms) ? this.#terms.length : 2 * this.#terms.length;
    this.bytes = 1024 + stringBytes + this.#scores.buffer.byteLength;
  }

  /** How many terms the shard has. */
  get size(): number {
    return this.#termAt.length - 1;
  }

  /** The index of a term in the shard, or -1. */
  #find(term: string): number {
    return findPackedTerm(this.#terms, this.#termAt, 0, this.#termAt.length - 2, term);
  }

  has(term: string): boolean {
    return this.#find(term) >= 0;
  }

  /** A term's posting, or undefined when the shard does not have the term. */
  posting(term: string): Posting | undefined {
    const k = this.#find(term);
    if (k < 0) return undefined;
    const from = this.#epAt[k]!;
    const to = this.#epAt[k + 1]!;
    return {
      episodes: this.#episodes.subarray(from, to),
      at: this.#at.subarray(from, to + 1),
      passages: this.#passages,
      scores: this.#scores,
      df: this.#df[k]!,
      idf: 1,
    };
  }

  /** A prefix (`key*`) or a word with one edit of tolerance, expanded to the shard's terms (expand-term.ts). */
  expand(key: string, wildcard: boolean, fuzzy: boolean): string[] {
    const terms = this.#terms;
    const termAt = this.#termAt;
    return expandTerm({ length: termAt.length - 1, at: (k) => terms.slice(termAt[k], termAt[k + 1]! - 1) }, key, wildcard, fuzzy);
  }
}

/**
 * A chunk of passages as the engine keeps it: its cues' text as UTF-8 bytes and typed arrays, outside the JS heap,
 * so that a scavenge does not copy a loaded chunk and a full collection does not mark it (a cache that churns, as
 * /ask's does at N = 1,000, otherwise fills the old generation with evicted text); a passage's text is decoded
 * when a moment or a re-ranking without analyses reads it (join()).
 */
interface LoadedChunk {
  /** The number of the chunk's first passage in the episode. */
  from: number;
  /** The chunk's cues' texts, UTF-8, separated by "\n" (PassageChunk.text). */
  bytes: Uint8Array;
  /** Where each cue starts in `bytes`. */
  offsets: Uint32Array;
  /** Each cue's start, seconds. */
  starts: Float64Array;
  /** Passage from + n is the cues from first[n] up to first[n + 1] (the last one: to the end). */
  first: Uint32Array;
}

/** What the budget counts for a loaded chunk: its bytes and arrays. */
const chunkBytes = (chunk: LoadedChunk) => 256 + chunk.bytes.byteLength + chunk.offsets.byteLength + chunk.starts.byteLength + chunk.first.byteLength;

/** /ask's reading of a chunk of passages (/search/passage-terms/<id>-<c>.json): its analyses and the chunk. */
interface AskChunk {
  reader: PassageTermsReader;
  chunk: LoadedChunk;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A published chunk of passages (PassageChunkSchema, checked by the caller) as the engine keeps it. */
export function compactChunk(body: PassageChunk): LoadedChunk {
  const { text } = body;
  // "\n" is one byte in UTF-8 and never part of another character's bytes.
  let cues = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) cues++;
  const [starts, offsets, first, bytes] = viewsOfOneBuffer([
    [Float64Array, body.starts.length],
    [Uint32Array, cues],
    [Uint32Array, body.first.length],
    [Uint8Array, utf8Length(text)],
  ]);
  utf8.encodeInto(text, bytes);
  for (let i = 0, c = 1; i < bytes.length; i++) if (bytes[i] === 10) offsets[c++] = i + 1;
  starts.set(body.starts);
  first.set(body.first);
  return { from: body.from, bytes, offsets, starts, first };
}

/** What a fetched episode record is taken to weigh in the cache budget (~1.5 KB of JSON with its chapters, as objects). */
const RECORD_BYTES = 4096;

/** Loads a build document by URL path without keeping it (the engine caches what it loads, with bounds). */
export type DocumentReader = <T>(path: string, transform: (body: Response) => Promise<T> | T) => Promise<T>;

export class SearchEngine {
  readonly analyzer: Analyzer;
  /** The build's service data, when the engine was made with it (hosts); undefined offline (records are fetched). */
  readonly service: ServiceData | undefined;
  readonly layout: SearchLayout;
  /** Rendered pages of answers, by query and paging (services.ts); the index never changes in a process. */
  readonly answers: Lru<string, Promise<unknown>>;
  readonly #top: lunr.Index;
  /** Every episode's record, from /service.json; undefined: each is fetched when a result shows it (#record). */
  readonly #episodes: Map<number, ServiceEpisode> | undefined;
  readonly #read: DocumentReader;
  /**
   * What is loaded of the index, in one byte budget (SharedBudget) with a share each for the shards, the top index's
   * matches for a word and the segments' vocabulary files (keys "s<n>", "m…", #metadataMatches, "v<s>/<b>"), and the
   * passage chunks and /ask's readings of them ("<id>/<c>", "t<id>/<c>", #askChunk). Each may use what the other leaves
   * unused: the bench's 200 searches at N = 1,000 need ~13 MB of shards and ~16 MB of chunks, and a fixed split of 32 MB
   * (60/40) had the chunks churn while shards held space they did not use (1,484 chunk loads instead of 1,191; a search
   * computed anew cost twice as much). But neither evicts the other below its share: /ask reads ~12 chunks a question,
   * and with one LRU over both they pushed out the shards every question needs again (1.2 shard reloads a question,
   * ~70 KB to parse).
   */
  readonly #budget: SharedBudget;
  readonly #shards: Lru<string, Promise<unknown>>;
  readonly #chunks: Lru<string, Promise<unknown>>;
  /**
   * The segments' shards numbered one after the other: where each segment's numbers start (engine shard n is the
   * shard n − starts[s] of the last segment s whose start is at most n).
   */
  readonly #starts: number[];
  /** Passages per episode (layout.passages.counts), to know which neighbours exist. */
  readonly #passageCounts: Map<number, number>;
  /** The per-episode sums of a query being ranked (rank(): synchronous use only). */
  readonly #sums: EpisodeSums;
  #best: { passages: Int32Array; scores: Float64Array } | undefined;

  /**
   * `service`: the build's /service.json, whose records the results show; without it, the layout's `records` say
   * where each episode's record is, and a result fetches its own (an offline reader need not download every one).
   */
  constructor(top: lunr.Index, layout: SearchLayout, service: ServiceData | undefined, analyzer: Analyzer, read: DocumentReader) {
    this.#top = top;
    this.layout = layout;
    this.service = service;
    this.analyzer = analyzer;
    this.#read = read;
    if (!service && !layout.records) throw new Error('/search/lunr-index.json has no records: the engine needs /service.json');
    this.#episodes = service && new Map(service.episodes.map((e) => [e.id, e]));
    this.#sums = new EpisodeSums(service ? service.episodes.map((e) => e.id) : layout.records!.episodes);
    this.#passageCounts = new Map(layout.passages.episodes.map((id, i) => [id, layout.passages.counts[i]!]));
    let from = 0;
    this.#starts = layout.shards.segments.map((segment) => ((from += segment.first.length), from - segment.first.length));
    const bytes = cacheBudget(layout.passages.counts.reduce((sum, n) => sum + n, 0));
    this.answers = new Lru(bytes * ANSWER_SHARE);
    this.#budget = new SharedBudget(bytes);
    this.#shards = new Lru(bytes * SHARD_SHARE, this.#budget);
    this.#chunks = new Lru(bytes * (1 - SHARD_SHARE), this.#budget);
  }

  /** /api/search ranking: operators, prefix on the last word, typo-tolerant retry when nothing matches. */
  search(query: string, { top, weights = RANKING.search }: SearchOptions = {}): Promise<Ranking> {
    return this.#withFallback(parseQuery(query, this.analyzer), weights, false, top);
  }

  /**
   * /ask ranking: the question understood (functions/search/ask-understanding.ts), ranked by transcript passages.
   * ── ASK UNDERSTANDING HOOK: (1) the question becomes weighted index terms (its own words, and related ones from
   * /search/semantic.json, weighted below them); (2) the leading episodes' candidate passages are re-ranked (ideas
   * covered, proximity, neighbours, chapter title) before the episode score is summed; (3) a hit without a passage
   * keeps the understood question for its chapter anchor (see result()). When nothing matches, the plain content
   * words go through the typo-tolerant retry as before. ──
   */
  async ask(question: string, weights: RankingWeights = RANKING.ask): Promise<Ranking> {
    const semantic = await this.#semantic();
    const stems = contentWords(question, this.analyzer).clauses.map((c) => this.analyzer.stem(c.term));
    const known = new Set<string>();
    // Each word's shard at once: a question's words are in different shards, each a file to read when not held.
    const knows = await Promise.all(stems.map((stem) => (stem ? this.#knowsStem(stem) : false)));
    for (const [i, stem] of stems.entries()) if (knows[i]) known.add(stem);
    const understood = understandQuestion(question, this.analyzer, semantic, { has: (t) => known.has(t) });
    if (understood.terms.length) {
      const parsed: ParsedQuery = {
        clauses: understood.terms.map((t) => ({ term: t.term, presence: 'optional', prefix: false, autoPrefix: false, stemmed: true, boost: t.boost })),
        truncated: false,
      };
      const askedTerms = understood.terms.map((t) => t.term);
      const { hits, total } = await this.rank(parsed, weights, {
        rescore: async (episode, candidates, postings, rank) => {
          // The leading episodes: every passage near the best candidates is a candidate, not only those the postings
          // list (ask-understanding.ts): the passages of the chunks holding the best candidates, at most
          // ASK_SCANNED_CHUNKS (a whole 13-minute episode of the sample; ~30 of an hour's ~100 passages).
          // Past the leading episodes, only the best candidate's chunk is read (its other candidates keep their
          // postings' scores): each chunk read is a file and a parse, and at N = 1,000 reading every candidate's
          // chunk for ten episodes made /ask load ~20 chunks (~200 KB) per question.
          const every = rank < MOMENT.episodes;
          const perChunk = this.layout.passages.perChunk;
          const chunkOf = (i: number) => Math.floor(i / perChunk);
          const scanned = new Set<number>();
          for (const c of candidates) if (scanned.size < (every ? ASK_SCANNED_CHUNKS : 1)) scanned.add(chunkOf(c.index));
          if (every && candidates.length) {
            // The best candidates may all sit in one chunk (the postings list 3 passages per word, often the same
            // few): the rest of the budget goes to the chunks nearest the best one, so a passage far from the
            // words as typed (the answer in the listener's words) is still scored.
            const chunks = Math.ceil((this.#passageCounts.get(episode) ?? 0) / perChunk);
            const home = chunkOf(candidates[0]!.index);
            for (let d = 1; scanned.size < ASK_SCANNED_CHUNKS && d < chunks; d++) {
              if (home + d < chunks) scanned.add(home + d);
              if (scanned.size < ASK_SCANNED_CHUNKS && home - d >= 0) scanned.add(home - d);
            }
          }
          const read = every ? candidates : candidates.filter((c) => scanned.has(chunkOf(c.index)));
          const wanted = read.map((c) => c.index);
          if (every) for (const c of scanned) for (let i = c * perChunk; i < (c + 1) * perChunk; i++) wanted.push(i);
          const ctx = await this.#passageContext(episode, wanted, askedTerms);
          const listed = new Set(read.map((c) => c.index));
          const termsOf = (i: number) => (listed.has(i) || scanned.has(chunkOf(i)) ? ctx.terms(i) : []);
          const all = every ? allCandidates(understood, ctx.count, postings, termsOf, candidates[0]?.terms) : [];
          const rescored = rescorePassages(understood, all.length ? all : read, ctx, this.analyzer);
          if (read.length === candidates.length) return { ranked: rescored, moments: rescored };
          const ranked = [...rescored, ...candidates.filter((c) => !listed.has(c.index))].sort((a, b) => b.score - a.score || a.index - b.index);
          return { ranked, moments: rescored };
        },
      });
      if (hits.length) return { hits: hits.map((h) => ({ ...h, understood })), total, fuzzy: false };
    }
    return this.#withFallback(contentWords(question, this.analyzer), weights, true);
  }

  #semanticData: Promise<SemanticData | undefined> | undefined;
  /** Related terms for /ask (optional: a build without them, or of another language, asks with the words as typed). */
  #semantic(): Promise<SemanticData | undefined> {
    this.#semanticData ??= this.#read('/search/semantic.json', async (res) => (await res.json()) as SemanticData)
      .then((d) => (d?.version === 1 && d.language === this.layout.language ? d : undefined))
      .catch(() => undefined);
    return this.#semanticData;
  }

  /** Whether the index has a stem (already stemmed). */
  async #knowsStem(stem: string): Promise<boolean> {
    if (hasTerm(this.#top, stem)) return true;
    const shards = await Promise.all(this.#shardOf(stem).map((n) => this.#shard(n)));
    return shards.some((shard) => shard.has(stem));
  }

  /** BM25's idf (Lunr's) of a term in `df` of the show's documents (contract/schemas/search-passages.ts). */
  #idf(df: number): number {
    const documents = this.layout.shards.documents;
    return Math.log(1 + Math.abs((documents - df + 0.5) / (df + 0.5)));
  }

  /**
   * What rescorePassages reads of an episode's passages (those given: their chunks' analyses are loaded first,
   * each with its chunk of passages, #askChunk): terms, questions, starts, words addressing the listener and kinds
   * of answer, and
   * the chapters. Only where a chunk has no analysis (a build without them, a file that did not load) are the
   * passages' chunks loaded and their text analysed. `asked`: the question's terms; a word with another term reads
   * as NOT_ASKED (PassageTermsReader.names), which scores alike.
   */
  async #passageContext(episode: number, indices: number[], asked: readonly string[]) {
    const chunks = new Map<number, LoadedChunk>();
    const perChunk = this.layout.passages.perChunk;
    const count = this.#passageCounts.get(episode) ?? 0;
    const wanted = indices.filter((i) => i >= 0 && i < count).map((i) => Math.floor(i / perChunk));
    const analyses = new Map<number, { reader: PassageTermsReader; names: string[] }>();
    await Promise.all(
      [...new Set(wanted)].map(async (c) => {
        const ask = await this.#askChunk(episode, c);
        if (ask) {
          analyses.set(c, { reader: ask.reader, names: ask.reader.names(asked) });
          chunks.set(c, ask.chunk);
        } else await this.#chunk(episode, c).then((chunk) => void chunks.set(c, chunk), () => undefined);
      }),
    );
    const analysisOf = (index: number) => {
      const a = analyses.get(Math.floor(index / perChunk));
      return a && index - a.reader.from < a.reader.passages ? a : undefined;
    };
    const at = (index: number) => {
      const chunk = chunks.get(Math.floor(index / perChunk));
      return chunk && index - chunk.from < chunk.first.length ? chunk : undefined;
    };
    return {
      count,
      text: (index: number) => {
        const chunk = at(index);
        return chunk ? join(chunk, index).text : '';
      },
      terms: (index: number) => {
        const a = analysisOf(index);
        return a ? a.reader.terms(index - a.reader.from, a.names) : this.#analysed(episode, at(index), index).terms;
      },
      questions: (index: number) => {
        const a = analysisOf(index);
        return a ? a.reader.questions(index - a.reader.from, a.names) : this.#analysed(episode, at(index), index).questions;
      },
      addressed: (index: number) => {
        const a = analysisOf(index);
        return a ? a.reader.addressed(index - a.reader.from) : this.#analysed(episode, at(index), index).addressed;
      },
      answers: (index: number) => {
        const a = analysisOf(index);
        return a ? a.reader.answers(index - a.reader.from) : (this.#analysed(episode, at(index), index).answers ?? 0);
      },
      start: (index: number) => {
        const a = analysisOf(index);
        if (a) return a.reader.start(index - a.reader.from);
        const chunk = at(index);
        return chunk ? chunk.starts[chunk.first[index - chunk.from]!]! : 0;
      },
      chapters: await this.#chaptersOf(episode),
    };
  }

  /**
   * The analyses of chunk c of an episode's passages as the build published them (layout.passages.terms), with the
   * chunk of passages the file carries, kept as one entry; undefined for a build without them or a file that does
   * not load: #analysed then reads the text.
   */
  #askChunk(id: number, c: number): Promise<AskChunk | undefined> {
    const path = this.layout.passages.terms;
    if (!path) return Promise.resolve(undefined);
    const load = () =>
      this.#read(path.replace('{id}', String(id)).replace('{chunk}', String(c)), async (res): Promise<AskChunk | undefined> => {
        const body = (await res.json()) as { passages?: unknown };
        const reader = PassageTermsReader.of(body);
        return reader && isPassageChunk(body.passages) ? { reader, chunk: compactChunk(body.passages) } : undefined;
      }).catch(() => undefined);
    return loadOnce(this.#chunks, `t${id}/${c}`, 24 * 1024, load, (ask) => 256 + (ask ? ask.reader.bytes + chunkBytes(ask.chunk) : 0));
  }

  /**
   * A passage's analysis read from its text, for a build that did not publish it: made on its first re-ranking
   * and kept (bounded), as the same passages recur.
   */
  readonly #passageTerms = new Lru<string, PassageAnalysis>(5_000);
  #analysed(episode: number, chunk: LoadedChunk | undefined, index: number): PassageAnalysis {
    if (!chunk) return { terms: [], questions: [], addressed: 0 };
    const key = `${episode}:${index}`;
    let analysed = this.#passageTerms.get(key);
    if (!analysed) {
      analysed = analysePassage(join(chunk, index).text, this.analyzer);
      this.#passageTerms.set(key, analysed);
    }
    return analysed;
  }

  readonly #chapters = new Map<number, Array<{ start: number; title: string }>>();
  async #chaptersOf(episode: number): Promise<Array<{ start: number; title: string }>> {
    let chapters = this.#chapters.get(episode);
    if (!chapters) {
      chapters = ((await this.#record(episode))?.chapters ?? [])
        .map((c) => ({ start: parseDuration(c.start) ?? 0, title: c.title }))
        .sort((a, b) => a.start - b.start);
      this.#chapters.set(episode, chapters);
    }
    return chapters;
  }

  /** An episode's record: from /service.json, or its own file (the layout's `records`), fetched once and kept. */
  #record(id: number): Promise<ServiceEpisode | undefined> {
    if (this.#episodes) return Promise.resolve(this.#episodes.get(id));
    const path = this.layout.records!.path.replace('{id}', String(id));
    const load = () => this.#read(path, async (res) => (await res.json()) as ServiceEpisode);
    return loadOnce(this.#chunks, `r${id}`, RECORD_BYTES, load, () => RECORD_BYTES);
  }

  /** How many shards and passage chunks this process holds (for tests and the benchmark). */
  get loaded(): { shards: number; passageChunks: number; answers: number; bytes: number; budget: number } {
    let shards = 0;
    let passageChunks = 0;
    for (const key of this.#shards.keys()) if (key.startsWith('s')) shards++;
    for (const key of this.#chunks.keys()) if (!key.startsWith('t')) passageChunks++;
    return { shards, passageChunks, answers: this.answers.size, bytes: this.#budget.weight, budget: this.#budget.limit };
  }

  /**
   * The typo-tolerant retry runs only when the exact query found nothing and some word is unknown to the index:
   * "+bread -oven" finding nothing is an answer, not a typo, and must not turn into matches for "breed".
   */
  async #withFallback(parsed: ParsedQuery, weights: RankingWeights, lastAsPrefix: boolean, top?: number): Promise<Ranking> {
    const exact = await this.rank(parsed, weights, { top });
    if (exact.total) return { ...exact, fuzzy: false };
    const unknown = new Set<string>();
    for (const c of parsed.clauses) {
      if (c.presence !== 'excluded' && !c.prefix && !(await this.#knows(c.term))) unknown.add(c.term);
    }
    const last = parsed.clauses.at(-1);
    const retryPrefix = lastAsPrefix && last !== undefined && unknown.has(last.term);
    if (![...unknown].some(fuzzyable) && !retryPrefix) return { hits: [], total: 0, fuzzy: false };
    return { ...(await this.rank(parsed, weights, { fuzzy: unknown, lastAsPrefix: retryPrefix, top })), fuzzy: true };
  }

  /** Whether the index has the word as typed (after stemming), i.e. whether it could be a typo. */
  #knows(term: string): Promise<boolean> {
    return this.#knowsStem(this.analyzer.stem(term));
  }

  /** Every matching episode (or the best `options.top`), best first (score descending, ties by id ascending). */
  async rank(parsed: ParsedQuery, weights: RankingWeights, options: RankOptions): Promise<{ hits: EpisodeHit[]; total: number }> {
    const clauses = parsed.clauses.map((c, i, all) =>
      options.lastAsPrefix && i === all.length - 1 && !c.prefix ? { ...c, autoPrefix: true } : c,
    );
    if (!clauses.some((c) => c.presence !== 'excluded')) return { hits: [], total: 0 };

    // The implicit prefix is only for a last word the index does not know as it is ("cryp"); a known word
    // ("bread") is searched as typed (bench/ issue 8: −19% search p99; relevance unchanged).
    for (const [i, c] of clauses.entries()) {
      if (c.autoPrefix && (await this.#knows(c.term))) clauses[i] = { ...c, autoPrefix: false };
    }
    const lookups = clauses.map((c) => this.#lookups(c, options.fuzzy?.has(c.term) ?? false));
    await Promise.all(
      lookups.flat().map(async (l) => {
        if (!l.fuzzy) return;
        const found = await this.#oneEditNeighbours(l.key);
        if (found) Object.assign(l, found);
        else l.shards = this.#oneEditShards(l.key);
      }),
    );
    const metadataMatches = await Promise.all(lookups.map((ls) => Promise.all(ls.map((l) => this.#metadataMatches(l)))));
    const needed = new Set(lookups.flat().flatMap((l) => l.shards));
    const shards = new Map<number, LoadedShard>();
    await Promise.all([...needed].map(async (n) => shards.set(n, await this.#shard(n))));

    // From here to the last read of `sums` nothing is awaited: the sums' arrays are every query's (EpisodeSums).
    const sums = this.#sums;
    sums.begin();
    // /ask: a hit it does not re-rank offers moments from its postings' best passages (QueryMatches.momentsOf).
    const matched = new QueryMatches(options.rescore ? Math.max(weights.passageWeights.length, MOMENT.adjacent ? Infinity : MOMENT.max) : 0);
    // A required or excluded clause's bit in sums (parseQuery keeps at most MAX_TERMS = 32 clauses; /ask's
    // understood terms, which can be more, are all optional).
    const bits = new Map<number, number>();
    for (const [ci, c] of clauses.entries()) if (c.presence !== 'optional') bits.set(ci, bits.size);
    if (bits.size > 32) throw new RangeError(`${bits.size} required or excluded words: at most 32`);
    let norm = 0;

    for (const [ci, c] of clauses.entries()) {
      const bit = bits.get(ci) ?? -1;
      const scored = c.presence !== 'excluded';
      for (const [li, l] of lookups[ci]!.entries()) {
        const expanded = new Set<string>();
        // Episode metadata: Lunr's score is Σ fields (Σ terms score) / √(terms expanded), one unit per term.
        const top = metadataMatches[ci]![li]!;
        for (const t of top.terms) expanded.add(t);
        for (const r of top.matches) {
          const s = sums.slot(r.id);
          if (s < 0) continue;
          if (bit >= 0) sums.mark(s, bit);
          if (!scored) continue;
          sums.enter(s);
          sums.addDoc(s, l.boost * r.score * top.unit);
        }
        if (scored) matched.metadata.push({ matches: top.matches, unit: top.unit, boost: l.boost });
        // Transcript: each posting lists the episode's best passages for the term, with their weights. A word as
        // typed is one posting in each segment; a prefix or a typo-tolerant word is expanded to each shard's terms
        // as lunr.Index#query expands a clause, and each term's postings are read. A term's idf needs its df in
        // every segment, so its postings are gathered first.
        const byTerm = new Map<string, Posting[]>();
        for (const n of l.shards) {
          const shard = shards.get(n)!;
          // (A shard read whole also holds neighbours beginning with another letter, "background" for "ackground":
          // which of them a query finds would depend on where the shards are cut, so the rule #lookups gives holds.)
          const terms = !l.wildcard && !l.fuzzy
            ? [l.key]
            : (l.neighbours ?? (l.fuzzy ? shard.expand(l.key, false, true).filter((t) => startsWithinReach(l.key, t)) : shard.expand(l.key, l.wildcard, false)));
          for (const t of terms) {
            const posting = shard.posting(t);
            if (!posting) continue;
            const list = byTerm.get(t);
            if (list) list.push(posting);
            else byTerm.set(t, [posting]);
          }
        }
        for (const [t, postings] of byTerm) {
          let df = metadataFrequency(this.#top, t);
          for (const posting of postings) df += posting.df;
          const idf = this.#idf(df);
          let any = false;
          for (const posting of postings) {
            posting.idf = idf;
            const weight = l.boost * idf;
            const { episodes, at, passages, scores } = posting;
            for (let k = 0; k < episodes.length; k++) {
              const s = sums.slot(episodes[k]!);
              if (s < 0) continue;
              any = true;
              if (bit >= 0) sums.mark(s, bit);
              if (!scored) continue;
              sums.enter(s);
              for (let i = at[k]!; i < at[k + 1]!; i++) sums.addPassage(s, passages[i]!, weight * scores[i]!);
            }
            if (scored) matched.postings.push({ term: t, posting, boost: l.boost });
          }
          if (scored && any) expanded.add(t);
        }
        if (scored) norm += l.boost * l.boost * expanded.size;
      }
    }

    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const passageWeights = weights.passageWeights;
    const scoreOf = (doc: number, best: ArrayLike<number>, count: number) => {
      let score = weights.episodeWeight * doc;
      for (let i = 0; i < passageWeights.length && i < count; i++) score += passageWeights[i]! * best[i]!;
      return score * scale;
    };
    // The episode's best passages for the whole query (ties: the earlier passage), only the few its score sums (a
    // common word matches every episode, and sorting each one's whole list was a tenth of such a search).
    const best = this.#bestScratch(passageWeights.length);
    // A page's worth (/api/search: offset + limit) is selected, not sorted out of every match (top-k.ts); /ask
    // re-ranks its leading episodes, which can move any of them, so it keeps them all.
    const top = options.top !== undefined && !options.rescore && options.top < sums.count ? new TopK(options.top) : undefined;
    let total = 0;
    const ranked: EpisodeHit[] = [];
    candidates: for (let i = 0; i < sums.count; i++) {
      const s = sums.entered(i);
      for (const [ci, bit] of bits) if ((clauses[ci]!.presence === 'required') !== sums.has(s, bit)) continue candidates;
      const count = sums.best(s, best);
      const score = scoreOf(sums.doc(s), best.scores, count);
      if (top) {
        // As below: a match is a score above 0, and the order is that of the rounded scores.
        if (!(score > 0)) continue;
        total++;
        top.offer(sums.id(s), roundScore(score), count ? best.passages[0]! : -1);
        continue;
      }
      const hit: EpisodeHit = { id: sums.id(s), score, matched };
      if (count) hit.passage = best.passages[0]!;
      ranked.push(hit);
    }
    // sums is free again from here.
    if (top) {
      const hits = top.sorted().map(({ id, score, passage }): EpisodeHit => (passage >= 0 ? { id, score, matched, passage } : { id, score, matched }));
      return { hits, total };
    }

    const order = (a: EpisodeHit, b: EpisodeHit) => b.score - a.score || a.id - b.id;
    if (options.rescore) {
      // /ask: the leading episodes' candidates are re-ranked with their texts, then summed as for /api/search.
      ranked.sort(order);
      await Promise.all(
        ranked.slice(0, ASK_RESCORED_EPISODES).map(async (hit, rank) => {
          if (hit.passage === undefined) return;
          const terms = matched.terms(hit.id);
          const candidates: Candidate[] = bestPassages(matched.passages(hit.id), ASK_CANDIDATES).map(([index, score]) => ({ index, score, terms }));
          const rescored = await options.rescore!(hit.id, candidates, matched.postingsOf(hit.id), rank).catch(() => ({ ranked: candidates, moments: candidates }));
          const scores = rescored.ranked.map((c) => c.score);
          hit.score = scoreOf(matched.doc(hit.id), scores, scores.length);
          hit.moments = pickMoments(rescored.moments);
          if (rescored.ranked.length) hit.passage = hit.moments[0] ?? rescored.ranked[0]!.index;
          else delete hit.passage;
        }),
      );
    }
    const hits = ranked.filter((h) => h.score > 0);
    for (const h of hits) h.score = roundScore(h.score);
    return { hits: hits.sort(order), total: hits.length };
  }

  #bestScratch(keep: number): { passages: Int32Array; scores: Float64Array } {
    if (this.#best?.passages.length !== keep) this.#best = { passages: new Int32Array(keep), scores: new Float64Array(keep) };
    return this.#best;
  }

  /**
   * The episodes whose metadata (the top index) match a lookup, with Lunr's scores and the terms each matched.
   * Kept with the shards (key "m…"): the top index never changes in a process, and the words queried most
   * are those in nearly every episode, whose Lunr query (a match object per episode) was a sixth of a search.
   */
  #metadataMatches(l: Lookup): Promise<MetadataMatches> {
    const key = `m${l.wildcard ? '*' : l.fuzzy ? '~' : ' '}${l.key}`;
    const compute = async (): Promise<MetadataMatches> => {
      const build = (q: lunr.Query) => {
        q.term(l.key, {
          usePipeline: false,
          ...(l.wildcard ? { wildcard: lunr.Query.wildcard.TRAILING } : {}),
          ...(l.fuzzy ? { editDistance: 1 } : {}),
        });
      };
      const found = queryTerm(this.#top, l.key, { wildcard: l.wildcard, fuzzy: l.fuzzy }, build);
      const terms = new Set<string>();
      const matches = found.map((r) => {
        const matched = Object.keys(r.matchData.metadata);
        for (const t of matched) terms.add(t);
        return { id: Number(r.ref), score: r.score, terms: matched };
      });
      return { matches, terms: [...terms], unit: Math.sqrt(terms.size) };
    };
    const weight = (m: MetadataMatches) => 64 + key.length * 2 + m.terms.length * 32 + m.matches.reduce((sum, r) => sum + 48 + 40 * r.terms.length, 0);
    return loadOnce(this.#shards, key, 1024, compute, weight);
  }

  /** The Lunr term clauses for a query clause, as the single index of every passage was queried before. */
  #lookups(c: Clause, fuzzy: boolean): Lookup[] {
    const prefixLookup = (prefix: string, boost: number, shards: number[]): Lookup => ({ key: prefix, boost, wildcard: true, fuzzy: false, shards });
    if (c.prefix) {
      const prefix = this.analyzer.prefixFor(c.term);
      if (prefix.length >= MIN_PREFIX) return [prefixLookup(prefix, 1, this.#shardRange(prefix, MAX_PREFIX_SHARDS))];
    }
    // /ask's understood terms arrive stemmed and weighted (ask-understanding.ts).
    const key = c.stemmed ? c.term : this.analyzer.stem(c.term);
    const fuzzyTerm = fuzzy && !c.stemmed && fuzzyable(c.term);
    const out: Lookup[] = [
      {
        key,
        boost: c.boost ?? 1,
        wildcard: false,
        fuzzy: fuzzyTerm,
        // One edit away: a word starting with the same letter, or with the second (first letter dropped or
        // swapped). Its shards are those of the words the segments' vocabularies hold, found in rank() before any
        // shard is read (#oneEditNeighbours), or without them every shard that can hold one (#oneEditShards).
        shards: fuzzyTerm ? [] : this.#shardOf(key),
      },
    ];
    if (c.autoPrefix) {
      const prefix = this.analyzer.prefixFor(c.term);
      // MAX_AUTO_PREFIX_SHARDS in a segment: the bound is on how many terms the prefix spans, which each segment's
      // shards cut alike.
      const shards = this.#shardRange(prefix, MAX_AUTO_PREFIX_SHARDS + 1);
      if (prefix.length >= MIN_AUTO_PREFIX && this.#widest(shards) <= MAX_AUTO_PREFIX_SHARDS) out.push(prefixLookup(prefix, AUTO_PREFIX_BOOST, shards));
    }
    return out;
  }

  /** The shard of each segment whose range holds a term. */
  #shardOf(term: string): number[] {
    const starts = this.#starts;
    return this.layout.shards.segments.map((segment, s) => starts[s]! + lastAtMost(segment.first, term));
  }

  /**
   * The terms one edit away from `key` that start with its first or second character (expandTerm's fuzzy match, the
   * rule #lookups gives), from the vocabulary file of each of those characters in every segment, and the shard of
   * each segment holding one; undefined for a build without vocabularies, or when one does not load (the caller
   * then reads the shards that can hold such a term).
   */
  async #oneEditNeighbours(key: string): Promise<{ neighbours: string[]; shards: number[] } | undefined> {
    const segments = this.layout.shards.segments;
    if (!key || segments.some((segment) => !segment.vocabulary)) return undefined;
    const firsts = new Set([key.charAt(0), key.charAt(1)].filter((c) => c));
    const buckets = [...new Set([...firsts].map(vocabularyBucket))];
    const neighbours = new Set<string>();
    const shards = new Set<number>();
    try {
      await Promise.all(
        segments.flatMap((segment, s) =>
          buckets.map(async (bucket) => {
            for (const term of await this.#vocabulary(s, bucket)) {
              if (!startsWithinReach(key, term) || !oneEditAway(key, term)) continue;
              neighbours.add(term);
              shards.add(this.#starts[s]! + lastAtMost(segment.first, term));
            }
          }),
        ),
      );
    } catch {
      return undefined;
    }
    return { neighbours: [...neighbours].sort(), shards: [...shards].sort((a, b) => a - b) };
  }

  /** Segment s's terms of a vocabulary bucket (layout shards.segments[s].vocabulary), in code-unit order. */
  #vocabulary(s: number, bucket: VocabularyBucket): Promise<readonly string[]> {
    const path = this.layout.shards.segments[s]!.vocabulary!.replace('{bucket}', bucket);
    const load = () =>
      this.#read(path, async (res) => {
        const parsed = VocabularySchema.safeParse(await res.json());
        if (!parsed.success) throw new Error(`${path}: not a vocabulary file; rebuild the site`);
        return parsed.data.terms;
      });
    return loadOnce(this.#shards, `v${s}/${bucket}`, 16 * 1024, load, (terms) => 64 + terms.reduce((sum, t) => sum + 40 + 2 * t.length, 0));
  }

  /** The shards of every segment that can hold a term one edit away from `key` (oneEditShards). */
  #oneEditShards(key: string): number[] {
    const starts = this.#starts;
    return this.layout.shards.segments.flatMap((segment, s) => oneEditShards(segment.first, key).map((n) => starts[s]! + n));
  }

  /** The shards that can hold terms starting with a prefix, in every segment: at most `max` of a segment's. */
  #shardRange(prefix: string, max = Infinity): number[] {
    const starts = this.#starts;
    const out: number[] = [];
    this.layout.shards.segments.forEach((segment, s) => {
      const from = lastAtMost(segment.first, prefix);
      const to = Math.min(lastAtMost(segment.first, `${prefix}\uffff`), from + max - 1);
      for (let n = from; n <= to; n++) out.push(starts[s]! + n);
    });
    return out;
  }

  /** The most shards of one segment among `shards` (engine numbers, as #shardRange gives them). */
  #widest(shards: number[]): number {
    const starts = this.#starts;
    const bySegment = new Map<number, number>();
    for (const n of shards) {
      const s = lastAtMost(starts, n);
      bySegment.set(s, (bySegment.get(s) ?? 0) + 1);
    }
    return Math.max(0, ...bySegment.values());
  }

  #shard(n: number): Promise<LoadedShard> {
    return loadOnce(
      this.#shards,
      `s${n}`,
      64 * 1024,
      () => {
        const starts = this.#starts;
        const s = lastAtMost(starts, n);
        const path = this.layout.shards.segments[s]!.path.replace('{n}', String(n - starts[s]!));
        return this.#read(path, async (res) => new LoadedShard(n, await res.json()));
      },
      (shard) => shard.bytes,
    );
  }

  /** Chunk c of an episode's passages (passages c × perChunk on). */
  #chunk(id: number, c: number): Promise<LoadedChunk> {
    const load = () =>
      this.#read(this.layout.passages.path.replace('{id}', String(id)).replace('{chunk}', String(c)), async (res): Promise<LoadedChunk> => {
        const body: unknown = await res.json();
        if (!isPassageChunk(body)) {
          throw new Error(`passages of episode ${id}, chunk ${c}: not a version 3 file; rebuild the site`);
        }
        return compactChunk(body);
      });
    return loadOnce(this.#chunks, `${id}/${c}`, 16 * 1024, load, chunkBytes);
  }

  /** The chunk holding an episode's passage, if the episode has that passage. */
  async #chunkOf(id: number, index: number): Promise<LoadedChunk | undefined> {
    if (!(index >= 0 && index < (this.#passageCounts.get(id) ?? 0))) return undefined;
    const c = Math.floor(index / this.layout.passages.perChunk);
    // /ask's moments are in chunks it re-ranked, held with their analyses: no second file for them.
    const held = this.#chunks.get(`t${id}/${c}`) as Promise<AskChunk | undefined> | undefined;
    const chunk = (held && (await held)?.chunk) || (await this.#chunk(id, c));
    return index - chunk.from < chunk.first.length ? chunk : undefined;
  }

  /** The SearchResult for a hit: episode fields, snippet, and where the snippet starts. */
  async result(hit: EpisodeHit): Promise<SearchResult> {
    const ep = await this.#record(hit.id);
    if (!ep) throw new Error(`episode ${hit.id} has no record; rebuild the site`);
    const result: SearchResult = {
      id: ep.id,
      title: ep.title,
      url: ep.url,
      score: hit.score,
      date: ep.date,
      season: ep.season,
      duration: ep.duration,
      audio: ep.audio,
      transcript: ep.transcript,
    };
    const file = hit.passage !== undefined ? await this.#chunkOf(hit.id, hit.passage) : undefined;
    if (hit.passage !== undefined && file) {
      const passage = hit.passage;
      const terms = new Set(hit.matched.terms(hit.id));
      const first = moment(this.analyzer, ep.url, file, passage, terms);
      result.snippet = first.snippet;
      result.start = first.start;
      result.timestamp = first.timestamp;
      result.url = first.url;
      const offered = hit.moments ?? (hit.matched.moments ? hit.matched.momentsOf(hit.id) : undefined);
      if (offered) {
        const moments = await Promise.all(
          offered.map(async (i) => {
            if (i === passage) return first;
            const chunk = await this.#chunkOf(hit.id, i);
            return chunk ? moment(this.analyzer, ep.url, chunk, i, terms) : undefined;
          }),
        );
        result.moments = moments.filter((m): m is SearchMoment => m !== undefined);
      }
    } else {
      const docTerms = hit.matched.docTerms(hit.id);
      const described = ep.desc ? makeSnippet(ep.desc, new Set(docTerms), this.analyzer).text : undefined;
      if (described !== undefined) result.snippet = described;
      // No passage (no transcript, or only the episode's fields matched): the best-matching chapter is the moment;
      // else, when the words matched a sentence of the description, the chapter that sentence speaks of.
      const u = hit.understood ?? { concepts: docTerms, terms: docTerms.map((term, concept) => ({ term, boost: 1, concept, own: true })) };
      const chapters = await this.#chaptersOf(ep.id);
      const anchor = chapterAnchor(u, chapters, this.analyzer)
        ?? (described?.includes(MARK_OPEN) ? describedChapter(described.replaceAll(MARK_OPEN, '').replaceAll(MARK_CLOSE, ''), chapters, this.analyzer) : undefined);
      if (anchor) {
        result.start = Math.floor(anchor.start);
        result.timestamp = timestamp(anchor.start);
        result.url = withTime(ep.url, anchor.start);
      }
    }
    return dropUndefined(result);
  }
}

/** A moment of an episode: a passage's snippet and the cue it starts at. */
function moment(analyzer: Analyzer, url: string, file: LoadedChunk, index: number, terms: Set<string>): SearchMoment {
  const joined = join(file, index);
  const snippet = makeSnippet(joined.text, terms, analyzer);
  const cue = joined.firstCue + cueAt(joined.offsets, snippet.offset);
  const start = Math.floor(file.starts[cue]!);
  return { start, timestamp: timestamp(start), url: withTime(url, start), snippet: snippet.text };
}

/**
 * A passage's cues joined into one text (with spaces, as the index read them), its first cue in the chunk, and
 * each cue's offset in the text: the chunk's bytes from the passage's first cue to its last decoded, whose cue
 * separators are line breaks.
 */
export function join(file: LoadedChunk, index: number): { text: string; offsets: number[]; firstCue: number } {
  const local = index - file.from;
  const firstCue = file.first[local]!;
  const endCue = file.first[local + 1] ?? file.offsets.length;
  const from = file.offsets[firstCue]!;
  const to = endCue < file.offsets.length ? file.offsets[endCue]! - 1 : file.bytes.length;
  const text = fromUtf8.decode(file.bytes.subarray(from, to));
  const offsets = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) offsets.push(at + 1);
  return { text: text.replaceAll('\n', ' '), offsets, firstCue };
}

/** The cue that holds a character offset of the joined passage text. */
function cueAt(offsets: number[], offset: number): number {
  return lastAtMost(offsets, offset);
}

/** Seconds as HH:MM:SS (hours always present, so the format does not change with the episode's length). */
export function timestamp(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** The episode page URL opened at a moment: ?t=SECONDS (other query parameters kept). */
export function withTime(url: string, seconds: number): string {
  const u = new URL(url);
  u.searchParams.set('t', String(Math.floor(seconds)));
  return u.toString();
}

function dropUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}

const engines = new WeakMap<DataStore, Promise<SearchEngine>>();

/**
 * The engine for a DataStore, created on first use and shared by every request of the process. Only the top of
 * the index (episode metadata and layout, small) and the service data are loaded here; a failed load is retried
 * next time.
 */
export function getEngine(data: DataStore): Promise<SearchEngine> {
  let pending = engines.get(data);
  if (!pending) {
    pending = createEngine(data);
    pending.catch(() => engines.delete(data));
    engines.set(data, pending);
  }
  return pending;
}

async function createEngine(data: DataStore): Promise<SearchEngine> {
  const [top, service] = await Promise.all([data.load(TOP_INDEX_PATH, (res) => res.text()), data.service()]);
  return engineFrom(top, service, (path, transform) => data.read(path, transform));
}

/**
 * An engine over the top of a published index (/search/lunr-index.json, as text: top-index.ts parses only what
 * queries read), for hosts and for the browser's offline search. `service`: the build's /service.json (a host has it
 * loaded anyway), or how to load it, which happens only when the layout has no `records` to fetch one at a time.
 */
export async function engineFrom(
  topText: string,
  service: ServiceData | (() => Promise<ServiceData>),
  read: DocumentReader,
): Promise<SearchEngine> {
  const top = scanTopIndex(topText);
  const parsed = SearchLayoutSchema.safeParse(top.layout);
  if (!parsed.success) throw new Error(`/search/lunr-index.json has no version ${SEARCH_LAYOUT_VERSION} layout; rebuild the site`);
  // The language's pipeline functions must be registered before Lunr can load an index that uses them.
  const language = await loadLanguage(parsed.data.language);
  const data = typeof service === 'function' ? (parsed.data.records ? undefined : await service()) : service;
  return new SearchEngine(top.index(), parsed.data, data, new Analyzer(language), read);
}

