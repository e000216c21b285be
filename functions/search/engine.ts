/**
 * The search engine: the one module that talks to Lunr at request time. It loads the prebuilt index and
 * passages once per process, ranks episodes by aggregating their passage (and episode-level) hits, and makes
 * results with snippets and timestamps. Nothing here parses content or rebuilds an index.
 *
 * /ask differs in one hook (SearchEngine.ask, see functions/search/ask-understanding.ts): the question's words plus
 * weighted related terms, and an episode's candidate passages re-ranked before they are summed.
 *
 * Ranking, for /api/search and /ask alike: Lunr scores each document with BM25 (k1 1.2, b 0.75, field boosts
 * baked in at build time). An episode's score is
 *     episodeWeight × score(episode document) + Σᵢ passageWeights[i] × score(i-th best passage)
 * so the best passage decides, sustained discussion (a 2nd and 3rd passage) breaks near-ties, and the episode
 * document (title, topics, description, guests, chapters) adds what the editors say the episode is about. It
 * is also what finds an episode without a transcript. test/search/relevance.test.ts measured these weights:
 * an episode weight of 0.5 or less loses topic queries ("nature", "ecology") to passing mentions, 2 lets a title
 * word outrank the transcript ("engineering" → the episode titled "...engines"), one passage instead of three
 * loses "circadian rhythm"; questions rank the same for every episode weight from 0 to 1.
 */
import lunr from 'lunr';
import type { DataStore } from '../data.ts';
import type { ServiceData, ServiceEpisode } from '../../contract/schemas/service-data.ts';
import type { SearchResult } from '../../contract/schemas/search.ts';
import type { Passage, SearchPassages } from '../../contract/schemas/search-passages.ts';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import { contentWords, MIN_AUTO_PREFIX, MIN_PREFIX, parseQuery, type Clause, type ParsedQuery } from './query.ts';
import { makeSnippet } from './snippet.ts';
import { parseDuration } from '../../contract/duration.ts';
import type { SemanticData } from '../../contract/search/semantic.ts';
import { chapterAnchor, passageTerms, rescorePassages, understandQuestion, type Candidate, type UnderstoodQuestion } from './ask-understanding.ts';

export interface RankingWeights {
  episodeWeight: number;
  passageWeights: number[];
}

export const RANKING: Record<'search' | 'ask', RankingWeights> = {
  search: { episodeWeight: 1, passageWeights: [1, 0.5, 0.25] },
  ask: { episodeWeight: 1, passageWeights: [1, 0.5, 0.25] },
};

/** Passages per episode that /ask re-ranks (the ranking then sums the best three, as for /api/search). */
const ASK_CANDIDATES = 8;

/** The implicit prefix on the last word counts less than the word as typed. */
const AUTO_PREFIX_BOOST = 0.5;
/** Typo tolerance only for words long enough that one edit rarely turns them into another word... */
const MIN_FUZZY_LENGTH = 4;
/** ...and short enough to be words: Lunr's fuzzy automaton grows with the term (5,000 letters took seconds). */
const MAX_FUZZY_LENGTH = 24;
const fuzzyable = (term: string) => term.length >= MIN_FUZZY_LENGTH && term.length <= MAX_FUZZY_LENGTH;

export interface EpisodeHit {
  id: number;
  score: number;
  /** The best-matching passage (index into passages.json) and the index terms it matched. */
  passage?: { index: number; terms: string[] };
  /** Index terms the episode document matched (for a description snippet). */
  docTerms: string[];
  /** /ask: the question as understood, for the chapter anchor of a hit without a passage. */
  understood?: UnderstoodQuestion;
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
  /** Passages per episode handed to `rescore` (default: as many as the ranking weights use). */
  candidates?: number;
  /** Re-ranks an episode's candidate passages, best first (/ask's understanding hook). */
  rescore?: (episode: number, candidates: Candidate[]) => Candidate[];
}

export class SearchEngine {
  readonly analyzer: Analyzer;
  readonly service: ServiceData;
  readonly #index: lunr.Index;
  /** The index's vocabulary (Lunr keeps it as a public property that its typings leave out). */
  readonly #vocabulary: Record<string, unknown>;
  readonly #passages: Passage[];
  readonly #episodes: Map<number, ServiceEpisode>;
  readonly #joined = new Map<number, { text: string; offsets: number[] }>();
  readonly #semantic: SemanticData | undefined;
  readonly #chapters = new Map<number, Array<{ start: number; title: string }>>();
  readonly #passageTerms = new Map<number, string[]>();

  constructor(index: lunr.Index, passages: SearchPassages, service: ServiceData, analyzer: Analyzer, semantic?: SemanticData) {
    this.#semantic = semantic;
    this.#index = index;
    this.#vocabulary = (index as unknown as { invertedIndex: Record<string, unknown> }).invertedIndex;
    this.#passages = passages.passages;
    this.service = service;
    this.analyzer = analyzer;
    this.#episodes = new Map(service.episodes.map((e) => [e.id, e]));
  }

  /** /api/search ranking: operators, prefix on the last word, typo-tolerant retry when nothing matches. */
  search(query: string, weights: RankingWeights = RANKING.search): Ranking {
    return this.#withFallback(parseQuery(query, this.analyzer), weights, false);
  }

  /**
   * /ask ranking: the question understood (functions/search/ask-understanding.ts), ranked by transcript passages.
   * ── ASK UNDERSTANDING HOOK: the only place the engine calls it. (1) the question becomes weighted index terms
   * (its own words and related ones from /search/semantic.json); (2) each episode's candidate passages are
   * re-ranked (ideas covered, proximity, neighbours, chapter title) before the episode score is summed; (3) a hit
   * without a passage keeps the understood question for its chapter anchor (see result()). When nothing matches,
   * the plain content words go through the typo-tolerant retry as before. ──
   */
  ask(question: string, weights: RankingWeights = RANKING.ask): Ranking {
    const understood = understandQuestion(question, this.analyzer, this.#semantic, { has: (t) => Object.hasOwn(this.#vocabulary, t) });
    if (understood.terms.length) {
      const parsed: ParsedQuery = {
        clauses: understood.terms.map((t) => ({ term: t.term, presence: 'optional', prefix: false, autoPrefix: false, stemmed: true, boost: t.boost })),
        truncated: false,
      };
      const hits = this.rank(parsed, weights, {
        candidates: ASK_CANDIDATES,
        rescore: (episode, candidates) => rescorePassages(understood, candidates, this.#passageContext(episode), this.analyzer),
      });
      if (hits.length) return { hits: hits.map((h) => ({ ...h, understood })), fuzzy: false };
    }
    return this.#withFallback(contentWords(question, this.analyzer), weights, true);
  }

  /** What rescorePassages reads of an episode: passage texts and starts, chapter titles and starts. */
  #passageContext(episode: number) {
    return {
      text: (index: number) => this.#join(index).text,
      terms: (index: number) => this.#termsOf(index),
      start: (index: number) => this.#passages[index]!.start,
      chapters: this.#chaptersOf(episode),
    };
  }

  /** A passage's index term per word, made on first use and kept (bounded, like the joined texts). */
  #termsOf(index: number): string[] {
    let terms = this.#passageTerms.get(index);
    if (!terms) {
      terms = passageTerms(this.#join(index).text, this.analyzer);
      if (this.#passageTerms.size >= 5_000) this.#passageTerms.clear();
      this.#passageTerms.set(index, terms);
    }
    return terms;
  }

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

  /**
   * The typo-tolerant retry runs only when the exact query found nothing and some word is unknown to the index:
   * "+bread -oven" finding nothing is an answer, not a typo, and must not turn into matches for "breed".
   */
  #withFallback(parsed: ParsedQuery, weights: RankingWeights, lastAsPrefix: boolean): Ranking {
    const exact = this.rank(parsed, weights, {});
    if (exact.length) return { hits: exact, fuzzy: false };
    const unknown = new Set(
      parsed.clauses.filter((c) => c.presence !== 'excluded' && !c.prefix && !this.#knows(c.term)).map((c) => c.term),
    );
    const last = parsed.clauses.at(-1);
    const retryPrefix = lastAsPrefix && last !== undefined && unknown.has(last.term);
    if (![...unknown].some(fuzzyable) && !retryPrefix) return { hits: [], fuzzy: false };
    return { hits: this.rank(parsed, weights, { fuzzy: unknown, lastAsPrefix: retryPrefix }), fuzzy: true };
  }

  /** Whether the index has the word as typed (after stemming), i.e. whether it could be a typo. */
  #knows(term: string): boolean {
    return Object.hasOwn(this.#vocabulary, this.analyzer.stem(term));
  }

  /** Every matching episode, best first (score descending, ties by id ascending). */
  rank(parsed: ParsedQuery, weights: RankingWeights, options: RankOptions): EpisodeHit[] {
    const clauses = parsed.clauses.map((c, i, all) =>
      options.lastAsPrefix && i === all.length - 1 && !c.prefix ? { ...c, autoPrefix: true } : c,
    );
    const positive = clauses.filter((c) => c.presence !== 'excluded');
    if (!positive.length) return [];

    const results = this.#index.query((q) => {
      for (const c of positive) this.#addClause(q, c, options.fuzzy?.has(c.term) ?? false);
    });

    const acc = new Map<number, { doc: number; docTerms: string[]; passages: Array<{ index: number; score: number; terms: string[] }> }>();
    const entry = (id: number) => {
      let e = acc.get(id);
      if (!e) acc.set(id, (e = { doc: 0, docTerms: [], passages: [] }));
      return e;
    };
    const maxPassages = weights.passageWeights.length;
    const maxCandidates = Math.max(maxPassages, options.candidates ?? 0);
    for (const r of results) {
      if (r.ref.startsWith('e')) {
        const id = Number(r.ref.slice(1));
        if (!this.#episodes.has(id)) continue;
        const e = entry(id);
        e.doc = r.score;
        e.docTerms = Object.keys(r.matchData.metadata);
        continue;
      }
      const index = Number(r.ref);
      const passage = this.#passages[index];
      if (!passage || !this.#episodes.has(passage.episode)) continue;
      const e = entry(passage.episode);
      // Lunr returns results best first, so the first passages seen are the episode's best.
      if (e.passages.length < maxCandidates) e.passages.push({ index, score: r.score, terms: Object.keys(r.matchData.metadata) });
    }

    for (const c of clauses) {
      if (c.presence === 'optional') continue;
      const having = this.#episodesWith(c, c.presence === 'required' && (options.fuzzy?.has(c.term) ?? false));
      for (const id of acc.keys()) {
        if ((c.presence === 'required') !== having.has(id)) acc.delete(id);
      }
    }

    const hits: EpisodeHit[] = [];
    for (const [id, e] of acc) {
      if (options.rescore && e.passages.length) e.passages = options.rescore(id, e.passages);
      e.passages = e.passages.slice(0, maxPassages);
      let score = weights.episodeWeight * e.doc;
      e.passages.forEach((p, i) => (score += weights.passageWeights[i]! * p.score));
      if (!(score > 0)) continue;
      const best = e.passages[0];
      hits.push({
        id,
        score: Math.round(score * 10_000) / 10_000,
        passage: best ? { index: best.index, terms: best.terms } : undefined,
        docTerms: e.docTerms,
      });
    }
    return hits.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  #addClause(q: lunr.Query, c: Clause, fuzzy: boolean): void {
    if (c.prefix) {
      const prefix = this.analyzer.prefixFor(c.term);
      if (prefix.length >= MIN_PREFIX) {
        q.term(prefix, { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false });
        return;
      }
    }
    if (c.stemmed) {
      q.term(c.term, { usePipeline: false, boost: c.boost ?? 1 });
      return;
    }
    const fuzzyTerm = fuzzy && fuzzyable(c.term);
    q.term(c.term, fuzzyTerm ? { editDistance: 1 } : {});
    if (c.autoPrefix) {
      const prefix = this.analyzer.prefixFor(c.term);
      if (prefix.length >= MIN_AUTO_PREFIX) {
        q.term(prefix, { wildcard: lunr.Query.wildcard.TRAILING, usePipeline: false, boost: AUTO_PREFIX_BOOST });
      }
    }
  }

  /** Episodes that contain a word anywhere (title, description, transcript, ...), for +word and -word. */
  #episodesWith(c: Clause, fuzzy: boolean): Set<number> {
    const ids = new Set<number>();
    const results = this.#index.query((q) => this.#addClause(q, { ...c, presence: 'optional' }, fuzzy));
    for (const r of results) {
      if (r.ref.startsWith('e')) ids.add(Number(r.ref.slice(1)));
      else {
        const p = this.#passages[Number(r.ref)];
        if (p) ids.add(p.episode);
      }
    }
    return ids;
  }

  /** The SearchResult for a hit: episode fields, snippet, and where the snippet starts. */
  result(hit: EpisodeHit): SearchResult {
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
    if (hit.passage) {
      const joined = this.#join(hit.passage.index);
      const snippet = makeSnippet(joined.text, new Set(hit.passage.terms), this.analyzer);
      const cue = cueAt(joined.offsets, snippet.offset);
      const start = Math.floor(this.#passages[hit.passage.index]!.cues[cue]![0]);
      result.snippet = snippet.text;
      result.start = start;
      result.timestamp = timestamp(start);
      result.url = withTime(ep.url, start);
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

  /** A passage's cues joined into one text, with each cue's offset in it (made on first use, kept). */
  #join(index: number): { text: string; offsets: number[] } {
    let joined = this.#joined.get(index);
    if (!joined) {
      const offsets: number[] = [];
      let text = '';
      for (const [, cueText] of this.#passages[index]!.cues) {
        if (text) text += ' ';
        offsets.push(text.length);
        text += cueText;
      }
      joined = { text, offsets };
      if (this.#joined.size >= 5_000) this.#joined.clear();
      this.#joined.set(index, joined);
    }
    return joined;
  }
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
 * The engine for a DataStore, created on first use and shared by every request of the process. The index and
 * passages are fetched and deserialized once (DataStore.load memoizes them); a failed load is retried next time.
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
  const [passages, service] = await Promise.all([
    data.load('/search/passages.json', async (res) => checkPassages(await res.json())),
    data.service(),
  ]);
  // The language's pipeline functions must be registered before Lunr can deserialize an index that uses them.
  const language = await loadLanguage(passages.language);
  const index = await data.load('/search/lunr-index.json', async (res) => lunr.Index.load(await res.json()));
  // Related terms for /ask (optional: a build without it, or of another language, asks with the words as typed).
  const semantic = await data.json<SemanticData>('/search/semantic.json').catch(() => undefined);
  const usable = semantic?.version === 1 && semantic.language === passages.language ? semantic : undefined;
  return new SearchEngine(index, passages, service, new Analyzer(language), usable);
}

/**
 * A structural check rather than a full schema parse: the build validated every passage already, and at
 * network scale (a million cues) a full parse would dominate cold start.
 */
function checkPassages(body: unknown): SearchPassages {
  const p = body as Partial<SearchPassages> | null;
  if (!p || p.version !== 1 || typeof p.language !== 'string' || !Array.isArray(p.passages)) {
    throw new Error('/search/passages.json is not a version 1 passages file; rebuild the site');
  }
  return p as SearchPassages;
}
