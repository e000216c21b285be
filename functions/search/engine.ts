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
import { SearchLayoutSchema, type EpisodePassages, type SearchLayout } from '../../contract/schemas/search-passages.ts';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import { contentWords, MIN_AUTO_PREFIX, MIN_PREFIX, parseQuery, type Clause, type ParsedQuery } from './query.ts';
import { makeSnippet } from './snippet.ts';
import { parseDuration } from '../../contract/duration.ts';
import type { SemanticData } from '../../contract/search/semantic.ts';
import {
  allCandidates, chapterAnchor, MOMENT, passageTerms, pickMoments, questionTerms, rescorePassages, understandQuestion,
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
 * Bounds on what a process keeps, so that it fits a 128 MB function isolate whatever the size of the show (bench/:
 * a shard is ~45 KB of JSON, ~0.15 MB once loaded; an episode's passages ~70 KB of JSON an hour, ~0.1 MB loaded;
 * an answer ~5 KB). A query needs a few shards and the passages of the page it shows. A host with more memory may
 * raise them before the first query.
 */
export const CACHE_LIMITS = { shards: 160, passages: 128, answers: 2_000 };

export interface EpisodeHit {
  id: number;
  score: number;
  /** The best-matching passage (index into the episode's passages) and the index terms the episode matched. */
  passage?: { index: number; terms: string[] };
  /** Index terms the episode's metadata matched (for a description snippet). */
  docTerms: string[];
  /** /ask: the question as understood, for the chapter anchor of a hit without a passage. */
  understood?: UnderstoodQuestion;
  /** /ask: the passages offered as the result's moments, best first (the first is `passage`). */
  moments?: number[];
}

export interface Ranking {
  hits: EpisodeHit[];
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
   */
  rescore?: (episode: number, candidates: Candidate[], postings: EpisodePostings, rank: number) => Promise<Candidate[]>;
}

/** Passages per episode that /ask re-ranks (the ranking then sums the best three, as for /api/search). */
const ASK_CANDIDATES = 8;
/** Episodes whose passages /ask re-ranks: their passage files are loaded, so the count is bounded. */
const ASK_RESCORED_EPISODES = 10;

/** One Lunr term clause, run on the top index and on the shards its terms can be in. */
interface Lookup {
  key: string;
  boost: number;
  wildcard: boolean;
  fuzzy: boolean;
  shards: number[];
}

/** A small LRU map: get refreshes, set evicts the least recently used entry past the limit. */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }
  get size(): number {
    return this.#map.size;
  }
  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.limit) this.#map.delete(this.#map.keys().next().value as K);
  }
  delete(key: K): void {
    this.#map.delete(key);
  }
  clear(): void {
    this.#map.clear();
  }
}

interface LoadedShard {
  index: lunr.Index;
  vocabulary: Record<string, unknown>;
}

interface LoadedPassages extends EpisodePassages {
  /** Offset of each cue in `text`. */
  offsets: number[];
}

/** Loads a build document by URL path without keeping it (the engine caches what it loads, with bounds). */
export type DocumentReader = <T>(path: string, transform: (body: Response) => Promise<T> | T) => Promise<T>;

export class SearchEngine {
  readonly analyzer: Analyzer;
  readonly service: ServiceData;
  readonly layout: SearchLayout;
  /** Rendered pages of answers, by query and paging (services.ts); the index never changes in a process. */
  readonly answers = new Lru<string, Promise<unknown>>(CACHE_LIMITS.answers);
  readonly #top: lunr.Index;
  readonly #topVocabulary: Record<string, unknown>;
  readonly #episodes: Map<number, ServiceEpisode>;
  readonly #read: DocumentReader;
  readonly #shards = new Lru<number, Promise<LoadedShard>>(CACHE_LIMITS.shards);
  readonly #passages = new Lru<number, Promise<LoadedPassages>>(CACHE_LIMITS.passages);

  constructor(top: lunr.Index, layout: SearchLayout, service: ServiceData, analyzer: Analyzer, read: DocumentReader) {
    this.#top = top;
    this.#topVocabulary = vocabularyOf(top);
    this.layout = layout;
    this.service = service;
    this.analyzer = analyzer;
    this.#read = read;
    this.#episodes = new Map(service.episodes.map((e) => [e.id, e]));
  }

  /** /api/search ranking: operators, prefix on the last word, typo-tolerant retry when nothing matches. */
  search(query: string, weights: RankingWeights = RANKING.search): Promise<Ranking> {
    return this.#withFallback(parseQuery(query, this.analyzer), weights, false);
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
    for (const stem of stems) if (stem && (await this.#knowsStem(stem))) known.add(stem);
    const understood = understandQuestion(question, this.analyzer, semantic, { has: (t) => known.has(t) });
    if (understood.terms.length) {
      const parsed: ParsedQuery = {
        clauses: understood.terms.map((t) => ({ term: t.term, presence: 'optional', prefix: false, autoPrefix: false, stemmed: true, boost: t.boost })),
        truncated: false,
      };
      const hits = await this.rank(parsed, weights, {
        rescore: async (episode, candidates, postings, rank) => {
          // The leading episodes: every passage is a candidate, not only those the postings list (ask-understanding.ts).
          const ctx = await this.#passageContext(episode);
          const all = rank < MOMENT.episodes ? allCandidates(understood, ctx.count, postings, ctx.terms, candidates[0]?.terms) : [];
          return rescorePassages(understood, all.length ? all : candidates, ctx, this.analyzer);
        },
      });
      if (hits.length) return { hits: hits.map((h) => ({ ...h, understood })), fuzzy: false };
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
    if (Object.hasOwn(this.#topVocabulary, stem)) return true;
    return Object.hasOwn((await this.#shard(this.#shardOf(stem))).vocabulary, stem);
  }

  /** What rescorePassages reads of an episode: passage texts and starts, chapter titles and starts. */
  async #passageContext(episode: number) {
    const file = await this.#episodePassages(episode);
    return {
      count: file.first.length,
      text: (index: number) => (index < file.first.length ? join(file, index).text : ''),
      terms: (index: number) => this.#analysed(episode, file, index).terms,
      questions: (index: number) => this.#analysed(episode, file, index).questions,
      start: (index: number) => file.starts[file.first[index] ?? 0] ?? 0,
      chapters: this.#chaptersOf(episode),
    };
  }

  /**
   * A passage's index term per word and the terms of the questions asked in it, made on its first re-ranking and
   * kept (bounded): the same passages recur.
   */
  readonly #passageTerms = new Lru<string, { terms: string[]; questions: string[][] }>(5_000);
  #analysed(episode: number, file: LoadedPassages, index: number): { terms: string[]; questions: string[][] } {
    if (index >= file.first.length) return { terms: [], questions: [] };
    const key = `${episode}:${index}`;
    let analysed = this.#passageTerms.get(key);
    if (!analysed) {
      const text = join(file, index).text;
      analysed = { terms: passageTerms(text, this.analyzer), questions: questionTerms(text, this.analyzer) };
      this.#passageTerms.set(key, analysed);
    }
    return analysed;
  }

  readonly #chapters = new Map<number, Array<{ start: number; title: string }>>();
  #chaptersOf(episode: number): Array<{ start: number; title: string }> {
    let chapters = this.#chapters.get(episode);
    if (!chapters) {
      chapters = (this.#episodes.get(episode)?.chapters ?? [])
        .map((c) => ({ start: parseDuration(c.start) ?? 0, title: c.title }))
        .sort((a, b) => a.start - b.start);
      this.#chapters.set(episode, chapters);
    }
    return chapters;
  }

  /** How many shards and passage files this process holds (for tests and the benchmark). */
  get loaded(): { shards: number; passages: number; answers: number } {
    return { shards: this.#shards.size, passages: this.#passages.size, answers: this.answers.size };
  }

  /**
   * The typo-tolerant retry runs only when the exact query found nothing and some word is unknown to the index:
   * "+bread -oven" finding nothing is an answer, not a typo, and must not turn into matches for "breed".
   */
  async #withFallback(parsed: ParsedQuery, weights: RankingWeights, lastAsPrefix: boolean): Promise<Ranking> {
    const exact = await this.rank(parsed, weights, {});
    if (exact.length) return { hits: exact, fuzzy: false };
    const unknown = new Set<string>();
    for (const c of parsed.clauses) {
      if (c.presence !== 'excluded' && !c.prefix && !(await this.#knows(c.term))) unknown.add(c.term);
    }
    const last = parsed.clauses.at(-1);
    const retryPrefix = lastAsPrefix && last !== undefined && unknown.has(last.term);
    if (![...unknown].some(fuzzyable) && !retryPrefix) return { hits: [], fuzzy: false };
    return { hits: await this.rank(parsed, weights, { fuzzy: unknown, lastAsPrefix: retryPrefix }), fuzzy: true };
  }

  /** Whether the index has the word as typed (after stemming), i.e. whether it could be a typo. */
  async #knows(term: string): Promise<boolean> {
    const stem = this.analyzer.stem(term);
    if (Object.hasOwn(this.#topVocabulary, stem)) return true;
    return Object.hasOwn((await this.#shard(this.#shardOf(stem))).vocabulary, stem);
  }

  /** Every matching episode, best first (score descending, ties by id ascending). */
  async rank(parsed: ParsedQuery, weights: RankingWeights, options: RankOptions): Promise<EpisodeHit[]> {
    const clauses = parsed.clauses.map((c, i, all) =>
      options.lastAsPrefix && i === all.length - 1 && !c.prefix ? { ...c, autoPrefix: true } : c,
    );
    if (!clauses.some((c) => c.presence !== 'excluded')) return [];

    // The implicit prefix is only for a last word the index does not know as it is ("cryp"); a known word
    // ("bread") is searched as typed (bench/ issue 8: −19% search p99; relevance unchanged).
    for (const [i, c] of clauses.entries()) {
      if (c.autoPrefix && (await this.#knows(c.term))) clauses[i] = { ...c, autoPrefix: false };
    }
    const lookups = clauses.map((c) => this.#lookups(c, options.fuzzy?.has(c.term) ?? false));
    const needed = new Set(lookups.flat().flatMap((l) => l.shards));
    const shards = new Map<number, LoadedShard>();
    await Promise.all([...needed].map(async (n) => shards.set(n, await this.#shard(n))));

    interface Acc {
      doc: number;
      docTerms: Set<string>;
      terms: Set<string>;
      passages: Map<number, number>;
      /** /ask: the transcript postings matched (term → `p`), for the re-ranking. */
      postings?: Map<string, number[]>;
    }
    const acc = new Map<number, Acc>();
    const entry = (id: number) => {
      let e = acc.get(id);
      if (!e) acc.set(id, (e = { doc: 0, docTerms: new Set(), terms: new Set(), passages: new Map(), postings: options.rescore ? new Map() : undefined }));
      return e;
    };
    const presence: Array<Set<number>> = [];
    let norm = 0;

    clauses.forEach((c, ci) => {
      const having = new Set<number>();
      presence[ci] = having;
      const scored = c.presence !== 'excluded';
      for (const l of lookups[ci]!) {
        const run = (index: lunr.Index) =>
          index.query((q) => {
            q.term(l.key, {
              usePipeline: false,
              ...(l.wildcard ? { wildcard: lunr.Query.wildcard.TRAILING } : {}),
              ...(l.fuzzy ? { editDistance: 1 } : {}),
            });
          });
        const expanded = new Set<string>();
        // Episode metadata: Lunr's score is Σ fields (Σ terms score) / √(terms expanded), one unit per term.
        const top = run(this.#top);
        const topTerms = new Set<string>();
        for (const r of top) for (const t of Object.keys(r.matchData.metadata)) topTerms.add(t);
        const unit = Math.sqrt(topTerms.size);
        for (const t of topTerms) expanded.add(t);
        for (const r of top) {
          const id = Number(r.ref);
          if (!this.#episodes.has(id)) continue;
          having.add(id);
          if (!scored) continue;
          const e = entry(id);
          e.doc += l.boost * r.score * unit;
          for (const t of Object.keys(r.matchData.metadata)) e.docTerms.add(t);
        }
        // Transcript: each posting lists the episode's best passages for the term, with their scores.
        for (const n of l.shards) {
          for (const r of run(shards.get(n)!.index)) {
            const id = Number(r.ref);
            if (!this.#episodes.has(id)) continue;
            having.add(id);
            if (!scored) continue;
            const e = entry(id);
            const metadata = r.matchData.metadata as Record<string, Record<string, { p?: number[] }>>;
            for (const t in metadata) {
              expanded.add(t);
              e.terms.add(t);
              const p = metadata[t]!.text?.p;
              if (!p) continue;
              e.postings?.set(t, p);
              for (let i = 0; i < p.length; i += 2) e.passages.set(p[i]!, (e.passages.get(p[i]!) ?? 0) + l.boost * p[i + 1]!);
            }
          }
        }
        if (scored) norm += l.boost * l.boost * expanded.size;
      }
    });

    for (const [ci, c] of clauses.entries()) {
      if (c.presence === 'optional') continue;
      const having = presence[ci]!;
      for (const id of acc.keys()) {
        if ((c.presence === 'required') !== having.has(id)) acc.delete(id);
      }
    }

    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const maxPassages = weights.passageWeights.length;
    const scoreOf = (e: Acc, best: Array<[number, number]>) => {
      let score = weights.episodeWeight * e.doc;
      best.forEach(([, s], i) => (score += weights.passageWeights[i]! * s));
      return score * scale;
    };
    // The episode's best passages for the whole query (ties: the earlier passage).
    const ranked = [...acc].map(([id, e]) => {
      const best = [...e.passages].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      return { id, e, best, score: scoreOf(e, best.slice(0, maxPassages)), moments: undefined as number[] | undefined };
    });
    if (options.rescore) {
      // /ask: the leading episodes' candidates are re-ranked with their texts, then summed as for /api/search.
      ranked.sort((a, b) => b.score - a.score || a.id - b.id);
      await Promise.all(
        ranked.slice(0, ASK_RESCORED_EPISODES).map(async (r, rank) => {
          if (!r.best.length) return;
          const candidates: Candidate[] = r.best.slice(0, ASK_CANDIDATES).map(([index, score]) => ({ index, score, terms: [...r.e.terms] }));
          const rescored = await options.rescore!(r.id, candidates, r.e.postings ?? new Map(), rank).catch(() => candidates);
          r.best = rescored.map((c) => [c.index, c.score]);
          r.moments = pickMoments(rescored);
          r.score = scoreOf(r.e, r.best.slice(0, maxPassages));
        }),
      );
    }
    const hits: EpisodeHit[] = [];
    for (const { id, e, best, score, moments } of ranked) {
      if (!(score > 0)) continue;
      hits.push({
        id,
        score: Math.round(score * 10_000) / 10_000,
        passage: best.length ? { index: moments?.[0] ?? best[0]![0], terms: [...e.terms] } : undefined,
        docTerms: [...e.docTerms],
        // /ask offers moments for every hit with passages (past the re-ranked ones: their postings' best).
        ...(moments ? { moments } : options.rescore && best.length ? { moments: pickMoments(best.map(([index, score]) => ({ index, score, terms: [] }))) } : {}),
      });
    }
    return hits.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** The Lunr term clauses for a query clause, as the single index of every passage was queried before. */
  #lookups(c: Clause, fuzzy: boolean): Lookup[] {
    const prefixLookup = (prefix: string, boost: number, shards: number[]): Lookup => ({ key: prefix, boost, wildcard: true, fuzzy: false, shards });
    if (c.prefix) {
      const prefix = this.analyzer.prefixFor(c.term);
      if (prefix.length >= MIN_PREFIX) return [prefixLookup(prefix, 1, this.#shardRange(prefix).slice(0, MAX_PREFIX_SHARDS))];
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
        // swapped). A different first letter is not tried: that would be every shard.
        shards: fuzzyTerm ? [...new Set([...this.#shardRange(key[0]!), ...this.#shardRange(key[1] ?? key[0]!)])] : [this.#shardOf(key)],
      },
    ];
    if (c.autoPrefix) {
      const prefix = this.analyzer.prefixFor(c.term);
      const shards = this.#shardRange(prefix);
      if (prefix.length >= MIN_AUTO_PREFIX && shards.length <= MAX_AUTO_PREFIX_SHARDS) out.push(prefixLookup(prefix, AUTO_PREFIX_BOOST, shards));
    }
    return out;
  }

  /** The shard whose range holds a term. */
  #shardOf(term: string): number {
    const first = this.layout.shards.first;
    let lo = 0;
    let hi = first.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (first[mid]! <= term) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The shards that can hold terms starting with a prefix. */
  #shardRange(prefix: string): number[] {
    const from = this.#shardOf(prefix);
    const to = this.#shardOf(`${prefix}\uffff`);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }

  #shard(n: number): Promise<LoadedShard> {
    let pending = this.#shards.get(n);
    if (!pending) {
      pending = this.#read(this.layout.shards.path.replace('{n}', String(n)), async (res) => {
        const index = lunr.Index.load(await res.json());
        return { index, vocabulary: vocabularyOf(index) };
      });
      pending.catch(() => this.#shards.delete(n));
      this.#shards.set(n, pending);
    }
    return pending;
  }

  #episodePassages(id: number): Promise<LoadedPassages> {
    let pending = this.#passages.get(id);
    if (!pending) {
      pending = this.#read(this.layout.passages.path.replace('{id}', String(id)), async (res) => {
        const body = (await res.json()) as EpisodePassages;
        if (body?.version !== 2 || typeof body.text !== 'string' || !Array.isArray(body.first)) {
          throw new Error(`passages of episode ${id}: not a version 2 file; rebuild the site`);
        }
        const offsets = [0];
        for (let at = body.text.indexOf('\n'); at >= 0; at = body.text.indexOf('\n', at + 1)) offsets.push(at + 1);
        return { ...body, offsets };
      });
      pending.catch(() => this.#passages.delete(id));
      this.#passages.set(id, pending);
    }
    return pending;
  }

  /** The SearchResult for a hit: episode fields, snippet, and where the snippet starts. */
  async result(hit: EpisodeHit): Promise<SearchResult> {
    const ep = this.#episodes.get(hit.id)!;
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
    const file = hit.passage ? await this.#episodePassages(hit.id) : undefined;
    if (hit.passage && file && hit.passage.index < file.first.length) {
      const terms = new Set(hit.passage.terms);
      const first = moment(this, ep.url, file, hit.passage.index, terms);
      result.snippet = first.snippet;
      result.start = first.start;
      result.timestamp = first.timestamp;
      result.url = first.url;
      if (hit.moments) {
        result.moments = hit.moments.filter((i) => i < file.first.length).map((i) => (i === hit.passage!.index ? first : moment(this, ep.url, file, i, terms)));
      }
    } else {
      if (ep.desc) result.snippet = makeSnippet(ep.desc, new Set(hit.docTerms), this.analyzer).text;
      // No passage (no transcript, or only the episode's fields matched): the best-matching chapter is the moment.
      const u = hit.understood ?? { concepts: hit.docTerms, terms: hit.docTerms.map((term, concept) => ({ term, boost: 1, concept, own: true })) };
      const anchor = chapterAnchor(u, this.#chaptersOf(ep.id), this.analyzer);
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
function moment(engine: { analyzer: Analyzer }, url: string, file: LoadedPassages, index: number, terms: Set<string>): SearchMoment {
  const joined = join(file, index);
  const snippet = makeSnippet(joined.text, terms, engine.analyzer);
  const cue = joined.firstCue + cueAt(joined.offsets, snippet.offset);
  const start = Math.floor(file.starts[cue]!);
  return { start, timestamp: timestamp(start), url: withTime(url, start), snippet: snippet.text };
}

function vocabularyOf(index: lunr.Index): Record<string, unknown> {
  // Lunr keeps the vocabulary as a public property that its typings leave out.
  return (index as unknown as { invertedIndex: Record<string, unknown> }).invertedIndex;
}

/**
 * A passage's cues joined into one text (with spaces, as the index read them), its first cue, and each cue's
 * offset in the text: a slice of the episode's text, whose cue separators are line breaks.
 */
function join(file: LoadedPassages, index: number): { text: string; offsets: number[]; firstCue: number } {
  const firstCue = file.first[index]!;
  const endCue = file.first[index + 1] ?? file.offsets.length;
  const from = file.offsets[firstCue]!;
  const to = endCue < file.offsets.length ? file.offsets[endCue]! - 1 : file.text.length;
  const offsets: number[] = [];
  for (let c = firstCue; c < endCue; c++) offsets.push(file.offsets[c]! - from);
  return { text: file.text.slice(from, to).replaceAll('\n', ' '), offsets, firstCue };
}

/** The cue that holds a character offset of the joined passage text. */
function cueAt(offsets: number[], offset: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
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
  const [serialized, service] = await Promise.all([
    data.load('/search/lunr-index.json', async (res) => (await res.json()) as { layout?: unknown }),
    data.service(),
  ]);
  return engineFrom(serialized, service, (path, transform) => data.read(path, transform));
}

/** An engine over the top of a published index (parsed JSON), for hosts and for the browser's offline search. */
export async function engineFrom(serialized: { layout?: unknown }, service: ServiceData, read: DocumentReader): Promise<SearchEngine> {
  const parsed = SearchLayoutSchema.safeParse(serialized?.layout);
  if (!parsed.success) throw new Error('/search/lunr-index.json has no version 2 layout; rebuild the site');
  // The language's pipeline functions must be registered before Lunr can deserialize an index that uses them.
  const language = await loadLanguage(parsed.data.language);
  const top = lunr.Index.load(serialized as object);
  return new SearchEngine(top, parsed.data, service, new Analyzer(language), read);
}
