/**
 * The search index as published since issue 13 (network scale), cut up so that a query loads only what it needs
 * (the layout is described in contract/schemas/search-passages.ts):
 *
 *   - a top-level Lunr index of the episodes' metadata (title, description, guests, topics, chapters), one document
 *     per episode: small, loaded once;
 *   - the transcript index, one document per episode, cut by term into shards of about SHARD_BYTES: a query loads
 *     the shard of each of its words (and the few a prefix spans), so per-query cost and memory stay bounded as the
 *     show grows. Each posting carries, as Lunr metadata, the episode's best passages for the term with their
 *     scores, so the engine can rank episodes by their best passages (and find the moment to open) without any
 *     passage-level document;
 *   - the passages themselves, in chunks of an episode's consecutive passages, loaded only for the results shown.
 *
 * Every score is what Lunr's own builder would compute for a single index holding one document per passage plus
 * one per episode (BM25, k1 1.2, b 0.75, field boosts; idf over all of them; the average field length over the
 * documents that have the field): the same scores the previous single index held, computed here in one pass over
 * typed arrays instead of Lunr's Builder (which kept every passage's term frequencies in objects), and with the
 * whole show's statistics in every shard, so scores from different shards add up.
 *
 * Extensible per passage: a posting's metadata is an object of arrays (Lunr's format), so further per-passage
 * fields (e.g. the expansions a meaning-aware ask adds) can sit beside `p` without changing the layout.
 */
import lunr from 'lunr';
import { loadLanguage } from '../../../contract/search/language.ts';
import {
  encodePassages, encodePassageTerms, PASSAGES_PER_CHUNK, type PassageChunk, type PassageTerms, type SearchLayout,
} from '../../../contract/schemas/search-passages.ts';
import { Analyzer } from '../../../contract/search/analyzer.ts';
import { analysePassage } from '../../../contract/search/passage-terms.ts';
import { FIELD_BOOSTS, type IndexedEpisode, type SearchField } from './lunr-index.ts';
import type { BuiltPassage } from './passages.ts';
import { analysePassages } from './analysis.ts';

/** The episode-level fields of the top-level index (the transcript has its own, sharded). */
export const DOC_FIELDS = ['title', 'description', 'guests', 'topics', 'chapters'] as const satisfies readonly SearchField[];
export type DocField = (typeof DOC_FIELDS)[number];

/** An episode ranks by its best three passages (functions/search/engine.ts RANKING), so each posting keeps three. */
export const PASSAGES_PER_TERM = 3;
/**
 * Raw JSON size a shard is cut at. Smaller shards mean less loaded per query word (and less memory per cached
 * shard) but more files; measured in bench/ at N = 100 and 1,000.
 */
export const SHARD_BYTES = 64 * 1024;

export const SHARD_PATH = '/search/shards/{n}.json';
export const PASSAGES_PATH = '/search/passages/{id}/{chunk}.json';
export const PASSAGE_TERMS_PATH = '/search/passage-terms/{id}/{chunk}.json';

const K1 = 1.2;
const B = 0.75;

export interface SerializedIndex {
  version: string;
  fields: string[];
  fieldVectors: Array<[string, number[]]>;
  invertedIndex: Array<[string, Record<string, unknown>]>;
  pipeline: string[];
}

export interface ShardedIndex {
  /** /search/lunr-index.json: the metadata index, and the layout of the rest. */
  top: SerializedIndex & { layout: SearchLayout };
  /** /search/shards/<n>.json */
  shards: SerializedIndex[];
  /** /search/passages/<id>/<chunk>.json: each episode's chunks, in order. */
  passages: Map<number, PassageChunk[]>;
  /** /search/passage-terms/<id>/<chunk>.json: each chunk's analysis for /ask, same order. */
  passageTerms: Map<number, PassageTerms[]>;
}

export interface ShardOptions {
  shardBytes?: number;
  passagesPerTerm?: number;
  passagesPerChunk?: number;
  /** false: leave `passages` and `passageTerms` empty (the build writes them per episode, episodePassageFiles). */
  passageFiles?: boolean;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export async function buildShardedIndex(
  episodes: IndexedEpisode[],
  passages: BuiltPassage[],
  language: string,
  boosts: Record<SearchField, number> = FIELD_BOOSTS,
  options: ShardOptions = {},
): Promise<ShardedIndex> {
  const shardBytes = options.shardBytes ?? SHARD_BYTES;
  const perTerm = options.passagesPerTerm ?? PASSAGES_PER_TERM;
  const lang = await loadLanguage(language);
  const builder = new lunr.Builder();
  lang.plugin.call(builder, builder);
  const pipelineLabels = builder.searchPipeline.toJSON() as unknown as string[];

  // Terms are interned to ids; text is analysed the way Lunr's Builder does it (lunr.tokenizer splits on
  // whitespace and hyphens, lower-cased; then the index pipeline), one pipeline run per distinct token.
  // The transcript passages are analysed the same way by analysis.ts, per episode and cached by content.
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  const intern = (t: string): number => {
    let id = termIds.get(t);
    if (id === undefined) {
      id = terms.length;
      termIds.set(t, id);
      terms.push(t);
    }
    return id;
  };
  const tokenCache = new Map<string, number[]>();
  const analyse = (text: string): number[] => {
    const out: number[] = [];
    for (const token of text.toLowerCase().split(/[\s-]+/)) {
      if (!token) continue;
      let ids = tokenCache.get(token);
      if (!ids) {
        ids = [];
        for (const t of builder.pipeline.runString(token)) {
          if (!t) continue;
          ids.push(intern(t));
        }
        tokenCache.set(token, ids);
      }
      for (const id of ids) out.push(id);
    }
    return out;
  };

  const sorted = [...episodes].sort((a, b) => a.id - b.id);
  // df: documents holding the term, counted once per field (as lunr.idf counts them).
  const df: number[] = [];
  const bump = (ids: ArrayLike<number> & Iterable<number>) => {
    const seen = new Set<number>();
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      df[id] = (df[id] ?? 0) + 1;
    }
  };
  const fieldSum: Record<string, number> = {};
  const fieldCount: Record<string, number> = {};
  const addLength = (field: string, n: number) => {
    if (!n) return;
    fieldSum[field] = (fieldSum[field] ?? 0) + n;
    fieldCount[field] = (fieldCount[field] ?? 0) + 1;
  };

  // Pass 1: analyse everything once; document frequencies and field lengths.
  const docText = (e: IndexedEpisode): Record<DocField, string> => ({
    title: e.title,
    description: e.desc ?? '',
    guests: (e.guests ?? []).join('. '),
    topics: (e.topics ?? []).join('. '),
    chapters: (e.chapters ?? []).map((c) => c.title).join('. '),
  });
  const docs = sorted.map((e) => {
    const text = docText(e);
    const fields = {} as Record<DocField, number[]>;
    for (const f of DOC_FIELDS) {
      fields[f] = analyse(text[f]);
      bump(fields[f]);
      addLength(f, fields[f].length);
    }
    return { id: e.id, fields };
  });
  const byEpisode = new Map<number, BuiltPassage[]>();
  for (const p of passages) {
    let list = byEpisode.get(p.episode);
    if (!list) byEpisode.set(p.episode, (list = []));
    list.push(p);
  }
  const analysed = await analysePassages(passages, language);
  const remap = analysed.terms.map(intern);
  const analysedOf = new Map(passages.map((p, i) => [p, analysed.passages[i]!]));
  const passageTerms = new Map<number, Int32Array[]>();
  for (const [id, list] of byEpisode) {
    passageTerms.set(
      id,
      list.map((p) => {
        const ids = analysedOf.get(p)!.map((i) => remap[i]!);
        bump(ids);
        addLength('text', ids.length);
        return ids;
      }),
    );
  }
  const documentCount = docs.length + passages.length;
  const average: Record<string, number> = {};
  for (const f of Object.keys(fieldSum)) average[f] = fieldSum[f]! / fieldCount[f]!;
  const idf = (id: number) => {
    const n = df[id] ?? 0;
    return Math.log(1 + Math.abs((documentCount - n + 0.5) / (n + 0.5)));
  };
  const bm25 = (id: number, tf: number, length: number, field: string) =>
    round3(((idf(id) * (K1 + 1) * tf) / (K1 * (1 - B + B * (length / average[field]!)) + tf)) * (boosts[field as SearchField] ?? 1));

  // The top-level index: episode metadata.
  const docPostings = new Map<number, Map<DocField, Array<[number, number]>>>();
  for (const d of docs) {
    for (const f of DOC_FIELDS) {
      const ids = d.fields[f];
      const tf = new Map<number, number>();
      for (const id of ids) tf.set(id, (tf.get(id) ?? 0) + 1);
      for (const [id, n] of tf) {
        let byField = docPostings.get(id);
        if (!byField) docPostings.set(id, (byField = new Map()));
        let list = byField.get(f);
        if (!list) byField.set(f, (list = []));
        list.push([d.id, bm25(id, n, ids.length, f)]);
      }
    }
  }
  const topTerms = [...docPostings.keys()].sort((a, b) => compare(terms[a]!, terms[b]!));
  const topVectors = new Map<string, number[]>();
  const topInverted: SerializedIndex['invertedIndex'] = topTerms.map((id, index) => {
    const posting: Record<string, unknown> = { _index: index };
    for (const f of DOC_FIELDS) {
      const refs: Record<string, object> = {};
      for (const [episode, score] of docPostings.get(id)!.get(f) ?? []) {
        refs[episode] = {};
        const key = `${f}/${episode}`;
        let v = topVectors.get(key);
        if (!v) topVectors.set(key, (v = []));
        v.push(index, score);
      }
      posting[f] = refs;
    }
    return [terms[id]!, posting];
  });

  // Pass 2: the transcript postings, episode by episode: each term's best passages in the episode.
  // postings[term] = flat [episode, n, (passage, score) × n, ...]
  const postings: number[][] = [];
  for (const [episode, list] of passageTerms) {
    const best = new Map<number, number[]>();
    list.forEach((ids, passage) => {
      const tf = new Map<number, number>();
      for (const id of ids) tf.set(id, (tf.get(id) ?? 0) + 1);
      for (const [id, n] of tf) {
        const score = bm25(id, n, ids.length, 'text');
        let top = best.get(id);
        if (!top) best.set(id, (top = []));
        insertTop(top, passage, score, perTerm);
      }
    });
    for (const [id, top] of best) (postings[id] ??= []).push(episode, top.length / 2, ...top);
  }

  // Pass 3: cut the sorted vocabulary into shards of about shardBytes of JSON.
  const textTerms: number[] = [];
  for (let id = 0; id < postings.length; id++) if (postings[id]) textTerms.push(id);
  textTerms.sort((a, b) => compare(terms[a]!, terms[b]!));
  const shards: SerializedIndex[] = [];
  const first: string[] = [];
  let current: { inverted: SerializedIndex['invertedIndex']; episodes: Set<number>; bytes: number } | undefined;
  const close = () => {
    if (!current) return;
    shards.push({
      version: lunr.version,
      fields: ['text'],
      // Lunr needs a vector for every document it matches, but the scores are in the postings' metadata (`p`),
      // which the engine reads: empty vectors keep the shard a valid Lunr index at a quarter less JSON.
      fieldVectors: [...current.episodes].sort((a, b) => a - b).map((episode) => [`text/${episode}`, []]),
      invertedIndex: current.inverted,
      pipeline: pipelineLabels,
    });
    current = undefined;
  };
  for (const id of textTerms) {
    const list = postings[id]!;
    // Estimated JSON size of the term's entry and its vector entries.
    let bytes = terms[id]!.length + 32;
    for (let i = 0; i < list.length; ) {
      const n = list[i + 1]!;
      bytes += 14 + n * 10;
      i += 2 + 2 * n;
    }
    if (current && current.bytes + bytes > shardBytes) close();
    if (!current) {
      current = { inverted: [], episodes: new Set(), bytes: 0 };
      first.push(shards.length === 0 ? '' : terms[id]!);
    }
    const index = current.inverted.length;
    const refs: Record<string, { p: number[] }> = {};
    for (let i = 0; i < list.length; ) {
      const episode = list[i]!;
      const n = list[i + 1]!;
      refs[episode] = { p: list.slice(i + 2, i + 2 + 2 * n) };
      if (!current.episodes.has(episode)) current.episodes.add(episode), (current.bytes += 16);
      i += 2 + 2 * n;
    }
    current.inverted.push([terms[id]!, { _index: index, text: refs }]);
    current.bytes += bytes;
  }
  close();
  if (!first.length) {
    // No transcript at all: one empty shard keeps the layout uniform.
    first.push('');
    shards.push({ version: lunr.version, fields: ['text'], fieldVectors: [], invertedIndex: [], pipeline: pipelineLabels });
  }

  const perChunk = options.passagesPerChunk ?? PASSAGES_PER_CHUNK;
  const withPassages = [...byEpisode.keys()].sort((a, b) => a - b);
  const published = new Map<number, PassageChunk[]>();
  const askTerms = new Map<number, PassageTerms[]>();
  if (options.passageFiles !== false) {
    const analyzer = new Analyzer(lang, { unboundedCaches: true });
    const wordsOf = new Map(passages.map((p, i) => [p, analysed.words[i]!]));
    for (const [episode, list] of byEpisode) {
      const files = episodePassageFiles(episode, list, analysed.terms, list.map((p) => wordsOf.get(p)!), analyzer, perChunk);
      published.set(episode, files.chunks);
      askTerms.set(episode, files.terms);
    }
  }

  const layout: SearchLayout = {
    version: 3,
    language: lang.key,
    boosts,
    passagesPerTerm: perTerm,
    shards: { path: SHARD_PATH, first },
    passages: {
      path: PASSAGES_PATH,
      perChunk,
      episodes: withPassages,
      counts: withPassages.map((id) => byEpisode.get(id)!.length),
      terms: PASSAGE_TERMS_PATH,
    },
  };
  return {
    top: {
      version: lunr.version,
      fields: [...DOC_FIELDS],
      fieldVectors: [...topVectors],
      invertedIndex: topInverted,
      pipeline: pipelineLabels,
      layout,
    },
    shards,
    passages: published,
    passageTerms: askTerms,
  };
}

/**
 * One episode's passage files: its passages in chunks (/search/passages/<id>/<chunk>.json), and /ask's reading of
 * each passage (/search/passage-terms/<id>/<chunk>.json), published so that no question analyses text: the
 * index's own analysis (analysis.ts, cached by content) with stop words in place, and the terms of the questions
 * asked (only where there is a "?"), each passage's start, its words addressing the listener and the kinds of answer
 * it holds (a duration, a number, a date: answerKinds), with the chunk's
 * passages (/ask then reads one file per chunk). Per episode, so
 * the build can write them on another thread than the index.
 * `words`: each passage's word analyses as indexes into `terms` (-1: a stop word).
 */
export function episodePassageFiles(
  episode: number,
  passages: BuiltPassage[],
  terms: readonly string[],
  words: ReadonlyArray<ArrayLike<number>>,
  analyzer: Analyzer,
  perChunk = PASSAGES_PER_CHUNK,
): { chunks: PassageChunk[]; terms: PassageTerms[] } {
  const chunks = encodePassages(episode, passages, perChunk);
  return {
    chunks,
    terms: chunks.map((chunk, c) =>
      encodePassageTerms(
        chunk,
        passages.slice(c * perChunk, (c + 1) * perChunk).map((p, k) =>
          analysePassage(
            p.cues.map(([, t]) => t).join(' '),
            analyzer,
            Array.from(words[c * perChunk + k]!, (id) => (id < 0 ? '' : terms[id]!)),
          ),
        ),
      ),
    ),
  };
}

/** Keeps the best `max` (passage, score) pairs in a flat array, best first (ties: earlier passage first). */
function insertTop(top: number[], passage: number, score: number, max: number): void {
  let at = top.length / 2;
  while (at > 0 && top[2 * (at - 1) + 1]! < score) at--;
  if (at >= max) return;
  top.splice(2 * at, 0, passage, score);
  if (top.length > 2 * max) top.length = 2 * max;
}

/** Code-unit order, the order lunr.TokenSet.Builder needs (what Array.prototype.sort does by default). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
