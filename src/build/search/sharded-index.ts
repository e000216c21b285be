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
  encodePassages, encodePassageTerms, PASSAGES_PER_CHUNK, SEARCH_LAYOUT_VERSION, VOCABULARY_BUCKETS, vocabularyBucket, type PassageChunk, type PassageTerms, type SearchLayout,
  type VocabularyBucket,
} from '../../../contract/schemas/search-passages.ts';
import { Analyzer } from '../../../contract/search/analyzer.ts';
import { analysePassage } from '../../../contract/search/passage-terms.ts';
import { FIELD_BOOSTS, type IndexedEpisode, type SearchField } from './lunr-index.ts';
import type { BuiltPassage } from './passages.ts';
import { analysePassages, type AnalysedPassages } from './analysis.ts';
import { episodeKeyed } from './episode-keyed.ts';

/** The episode-level fields of the top-level index (the transcript has its own, sharded). */
export const DOC_FIELDS = ['title', 'description', 'guests', 'topics', 'chapters'] as const satisfies readonly SearchField[];
export type DocField = (typeof DOC_FIELDS)[number];

/** An episode ranks by its best three passages (functions/search/engine.ts RANKING), so each posting keeps three. */
export const PASSAGES_PER_TERM = 3;
/**
 * Raw JSON a query word reads from the transcript index at SHARD_REFERENCE_EPISODES: each segment's shards are cut
 * at its share of it (indexAnalysed). Smaller shards mean less loaded per query word (and less memory per cached
 * shard) but more files; measured in bench/ at N = 100 and 1,000.
 */
export const SHARD_BYTES = 64 * 1024;

/** A shard's path: `{segment}` is its segment's tag, `{n}` its number in the segment (from 0). */
export const SHARD_PATH = '/search/shards/{segment}-{n}.json';
// One folder for every episode's chunks, not one per episode: a folder is a mkdir (~250 µs on this machine's ext4,
// ~1 ms beside a build's other threads), ~2,400 of them in each build at 1,200 episodes, where a file linked in is ~30 µs.
export const PASSAGES_PATH = '/search/passages/{id}-{chunk}.json';
export const PASSAGE_TERMS_PATH = '/search/passage-terms/{id}-{chunk}.json';
export const RECORDS_PATH = '/search/records/{id}.json';

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
  /** /search/shards/<segment>-<n>.json, in segments of consecutive episodes. */
  shards: ShardSet;
  /** /search/passages/<id>-<chunk>.json: each episode's chunks, in order. */
  passages: Map<number, PassageChunk[]>;
  /** /search/passage-terms/<id>-<chunk>.json: each chunk's analysis for /ask, same order. */
  passageTerms: Map<number, PassageTerms[]>;
}

export interface ShardOptions {
  shardBytes?: number;
  passagesPerTerm?: number;
  passagesPerChunk?: number;
  /** false: leave `passages` and `passageTerms` empty (the build writes them per episode, episodePassageFiles). */
  passageFiles?: boolean;
  /**
   * What names a segment of the transcript index (in its shards' paths), given its episodes: it must change with
   * anything its shards are made from (the episodes' transcripts, the code). Absent: a digest of the segment's
   * analysed passages (segmentTagOf), which costs a pass over their terms.
   */
  segmentTag?: (episodes: readonly number[]) => string;
  /**
   * The first terms of a segment's shards, kept by its tag from an earlier build (`make` gives them otherwise): a
   * rebuild then makes none of an unchanged segment's postings, and links its shards (src/build/bulk-documents.ts).
   */
  segmentFirst?: (tag: string, make: () => string[]) => string[];
  /** The sizes of the segments of `count` episodes with transcripts (segmentSizes; tests cut them otherwise). */
  segments?: (count: number) => number[];
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * Episodes a segment of the transcript index holds: SEGMENT_EPISODES, oldest first, then what is left in halves
 * (128, 64, 32, 16) and the last few together. Adding an episode at the end makes the last segment (under 16
 * episodes) again, and, when it fills a size, the segments it merges with; a reader loads a term's shard in every
 * segment (at most 3 + 5 at 1,000 episodes).
 */
export const SEGMENT_EPISODES = 256;
/** The episodes at which a word's shards in every segment hold SHARD_BYTES together (each segment's in its share). */
const SHARD_REFERENCE_EPISODES = 1024;
/** The smallest a segment's shards are cut (a segment of a few episodes would otherwise be hundreds of files). */
const MIN_SHARD_BYTES = 4 * 1024;
const SMALLEST_SEGMENT = 16;

/** The sizes of the segments of `count` episodes with transcripts, oldest first. */
export function segmentSizes(count: number): number[] {
  const sizes: number[] = [];
  let left = count;
  for (; left >= SEGMENT_EPISODES; left -= SEGMENT_EPISODES) sizes.push(SEGMENT_EPISODES);
  for (let size = SEGMENT_EPISODES / 2; size >= SMALLEST_SEGMENT; size /= 2) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  if (left > 0) sizes.push(left);
  return sizes;
}

export async function buildShardedIndex(
  episodes: IndexedEpisode[],
  passages: BuiltPassage[],
  language: string,
  boosts: Record<SearchField, number> = FIELD_BOOSTS,
  options: ShardOptions = {},
): Promise<ShardedIndex> {
  return indexAnalysed(episodes, await analysePassages(passages, language), language, boosts, options, passages);
}

/**
 * buildShardedIndex from the passages' analysis (analysis.ts: analysePassages, or analyseShow, which a rebuild answers
 * without making unchanged episodes' passages). `passages`, the analysed ones in the same order, are needed only for
 * the passage files (`passageFiles` not false).
 */
export async function indexAnalysed(
  episodes: IndexedEpisode[],
  analysed: AnalysedPassages,
  language: string,
  boosts: Record<SearchField, number> = FIELD_BOOSTS,
  options: ShardOptions = {},
  passages?: BuiltPassage[],
): Promise<ShardedIndex> {
  if (options.passageFiles !== false && passages?.length !== analysed.passages.length) {
    throw new Error(`search index: the passage files need the ${analysed.passages.length} passages analysed, ${passages?.length ?? 'none'} given`);
  }
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

  // Pass 1: analyse everything once; document frequencies and field lengths. The passages' terms are interned
  // first, in the analysis's order, so that their ids are the analysis's own and its arrays serve as they are (a
  // copy through a map of ~24 million ids into ~100,000 new arrays at N = 1,000 otherwise).
  analysed.terms.forEach((t, i) => {
    if (intern(t) !== i) throw new Error(`search index: the analysis's term ${JSON.stringify(t)} is not its own ${i}th`);
  });
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
  // Each episode's passages, as their indexes into the analysis (an episode's groups in the order given).
  const byEpisode = new Map<number, number[]>();
  let at = 0;
  for (const { episode, count } of analysed.groups) {
    if (episode === undefined) throw new Error('search index: a passage without its episode');
    let list = byEpisode.get(episode);
    if (!list) byEpisode.set(episode, (list = []));
    for (let k = 0; k < count; k++) list.push(at++);
  }
  // A passage's distinct terms, counted in a vocabulary-wide array rather than a Set or Map per passage: ~100,000
  // passages at N = 1,000, where those cost seconds of the rebuild's critical path.
  const counter = new TermCounter(terms.length);
  for (const list of byEpisode.values()) {
    for (const p of list) {
      const distinct = counter.count(analysed.passages[p]!);
      for (let k = 0; k < distinct; k++) {
        const term = counter.terms[k]!;
        df[term] = (df[term] ?? 0) + 1;
      }
      counter.clear(distinct);
    }
  }
  const documentCount = docs.length + analysed.passages.length;
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
      const list = docPostings.get(id)!.get(f) ?? [];
      for (const [episode, score] of list) {
        const key = `${f}/${episode}`;
        let v = topVectors.get(key);
        if (!v) topVectors.set(key, (v = []));
        v.push(index, score);
      }
      posting[f] = episodeKeyed(list.map(([episode]) => [episode, {}]));
    }
    return [terms[id]!, posting];
  });

  // The transcript index, in segments of consecutive episodes (segmentSizes): each segment's postings are made from
  // its own episodes alone, so that a rebuild that adds an episode makes the last segments' shards again and links
  // the others' from the last build (src/build/bulk-documents.ts). What a segment cannot know, the document frequency
  // of a term over the whole show, the reader sums from every segment's shard of the term (each publishes its own)
  // and the top index: a score is idf × the posting's weight (contract/schemas/search-passages.ts).
  const withPassages = [...byEpisode.keys()].sort((a, b) => a - b);
  const textBoost = boosts.text ?? 1;
  const built: ShardSegment[] = [];
  let from = 0;
  const sizes = (options.segments ?? segmentSizes)(withPassages.length);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1) || sizes.reduce((a, b) => a + b, 0) !== withPassages.length) {
    throw new Error(`search index: segments of ${sizes.join(', ')} episodes for ${withPassages.length}`);
  }
  for (const size of sizes) {
    const ids = withPassages.slice(from, (from += size));
    const lists = ids.map((id) => byEpisode.get(id)!);
    // A query word reads its shard in every segment: cut in proportion to the segment's episodes, the shards it reads
    // hold about shardBytes together at SHARD_REFERENCE_EPISODES (64 KB of 16 KB shards at 1,024; cut at 64 KB each,
    // a word read ~450 KB at 1,000 episodes and in-process search p99 went from ~1.3 to 56 ms, its shards reloaded).
    const bytes = Math.max(Math.min(MIN_SHARD_BYTES, shardBytes), Math.round((shardBytes * size) / SHARD_REFERENCE_EPISODES));
    const make = () => segmentShards(ids, lists, analysed.passages, terms, { perTerm, shardBytes: bytes, textBoost, pipeline: pipelineLabels });
    const tag = options.segmentTag?.(ids) ?? segmentTagOf(ids, lists, analysed.passages, terms, { perTerm, shardBytes: bytes, textBoost, language: lang.key });
    built.push(new ShardSegment(tag, options.segmentFirst && ((first) => options.segmentFirst!(tag, first)), make));
  }
  const shards = new ShardSet(built);

  const perChunk = options.passagesPerChunk ?? PASSAGES_PER_CHUNK;
  const published = new Map<number, PassageChunk[]>();
  const askTerms = new Map<number, PassageTerms[]>();
  if (options.passageFiles !== false) {
    const analyzer = new Analyzer(lang, { unboundedCaches: true });
    for (const [episode, list] of byEpisode) {
      const own = list.map((p) => passages![p]!);
      if (own.some((p) => p.episode !== episode)) throw new Error(`search index: the passages given are not the ones analysed for episode ${episode}`);
      const files = episodePassageFiles(episode, own, analysed.terms, list.map((p) => analysed.words[p]!), analyzer, perChunk);
      published.set(episode, files.chunks);
      askTerms.set(episode, files.terms);
    }
  }

  const layout: SearchLayout = {
    version: SEARCH_LAYOUT_VERSION,
    language: lang.key,
    boosts,
    passagesPerTerm: perTerm,
    shards: { documents: documentCount, segments: built.map((segment) => ({ path: segment.path, first: segment.first, vocabulary: segment.vocabularyPath('{bucket}') })) },
    passages: {
      path: PASSAGES_PATH,
      perChunk,
      episodes: withPassages,
      counts: withPassages.map((id) => byEpisode.get(id)!.length),
      terms: PASSAGE_TERMS_PATH,
    },
    records: { path: RECORDS_PATH, episodes: docs.map((d) => d.id).sort((a, b) => a - b) },
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
 * One episode's passage files: its passages in chunks (/search/passages/<id>-<chunk>.json), and /ask's reading of
 * each passage (/search/passage-terms/<id>-<chunk>.json), published so that no question analyses text: the
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

interface SegmentOptions {
  perTerm: number;
  shardBytes: number;
  textBoost: number;
  pipeline: string[];
}

/**
 * A segment's shards from its episodes' passages alone (`lists[k]`: episode ids[k]'s passages, indexes into
 * `passages`): each posting lists the episode's best passages for the term with their BM25 weights (the term-frequency
 * part and the field boost, with the segment's average passage length), and each term its document frequency in
 * the segment; the reader multiplies by the idf of the whole show.
 */
function segmentShards(
  ids: readonly number[],
  lists: ReadonlyArray<readonly number[]>,
  passages: readonly Int32Array[],
  terms: readonly string[],
  o: SegmentOptions,
): { first: string[]; shards: Shards } {
  const counter = new TermCounter(terms.length);
  const df = new Int32Array(terms.length);
  // The size of each term's records ([term, episode, n, (passage, weight) × n] per episode holding it, n its
  // passages there up to perTerm), so that the records are written each in its term's place (TermRecords).
  const records = new TermRecords(terms.length);
  let length = 0;
  let count = 0;
  lists.forEach((list, k) => {
    for (const p of list) {
      const own = passages[p]!;
      const distinct = counter.count(own);
      for (let j = 0; j < distinct; j++) {
        const term = counter.terms[j]!;
        df[term]!++;
        records.count(term, k + 1, o.perTerm);
      }
      counter.clear(distinct);
      length += own.length;
      count++;
    }
  });
  const average = length / Math.max(1, count);
  const weight = (tf: number, passageLength: number) => round4((((K1 + 1) * tf) / (K1 * (1 - B + B * (passageLength / average)) + tf)) * o.textBoost);

  // Each term's best passages in each episode, as records in one typed array (millions of small arrays before: ~4 s
  // of the rebuild's critical path and much of its garbage at N = 1,000), each written where its term's records are,
  // terms in shard order: the shards then read the array from start to end, not all over it once per term.
  const textTerms: number[] = [];
  for (let id = 0; id < terms.length; id++) if (records.has(id)) textTerms.push(id);
  textTerms.sort((a, b) => compare(terms[a]!, terms[b]!));
  const { termStart, byTerm, data } = records.place(textTerms);
  const best = new BestPassages(terms.length, o.perTerm);
  lists.forEach((list, k) => {
    list.forEach((p, passage) => {
      const own = passages[p]!;
      const distinct = counter.count(own);
      for (let j = 0; j < distinct; j++) {
        const id = counter.terms[j]!;
        best.offer(id, passage, weight(counter.counts[id]!, own.length));
      }
      counter.clear(distinct);
    });
    best.drain(ids[k]!, records);
  });
  records.check();

  // Cut the sorted terms into shards of about shardBytes of JSON. Only the cuts are made here: each shard's objects
  // are made when it is asked for (Shards), as the build writes it. Made all at once they were ~2.2 GB of the
  // indexing thread's 3.0 GB heap at 2,000 episodes, and the garbage collector's work grew with them.
  const cuts: number[] = [0];
  const first: string[] = [''];
  let bytes = 0;
  textTerms.forEach((id, k) => {
    // Estimated JSON size of the term's entry.
    let entry = terms[id]!.length + 40;
    for (let r = termStart[id]!; r < termStart[id + 1]!; r++) entry += 14 + data[byTerm[r]! + 2]! * 11;
    if (k > 0 && bytes + entry > o.shardBytes) {
      cuts.push(k);
      first.push(terms[id]!);
      bytes = 0;
    }
    bytes += entry;
  });
  return { first, shards: new Shards({ terms, textTerms, termStart, byTerm, data, df }, cuts, o.pipeline) };
}

/**
 * A segment's tag without one from the build (ShardOptions.segmentTag): a digest of what its shards are made of,
 * its episodes' analysed passages and the options.
 */
function segmentTagOf(
  ids: readonly number[],
  lists: ReadonlyArray<readonly number[]>,
  passages: readonly Int32Array[],
  terms: readonly string[],
  o: Omit<SegmentOptions, 'pipeline'> & { language: string },
): string {
  const parts: string[] = [JSON.stringify([SEARCH_LAYOUT_VERSION, o.perTerm, o.shardBytes, o.textBoost, o.language])];
  lists.forEach((list, k) => {
    parts.push(`#${ids[k]}`);
    for (const p of list) parts.push(Array.from(passages[p]!, (id) => terms[id]!).join(' '));
  });
  return fnv1a(parts.join('\n'));
}

/** Two 32-bit FNV-1a hashes of a text, as 16 hex digits (the build's own tags use sha1 where it has them). */
function fnv1a(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (a >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * A segment of the transcript index: its tag (in its shards' paths) and its shards' first terms, and the shards
 * themselves, made when first asked for: a rebuild that links an unchanged segment's shards from the last build
 * never makes them (`first` then comes from the build's cache: ShardOptions.segmentFirst).
 */
export class ShardSegment {
  readonly tag: string;
  readonly path: string;
  readonly #make: () => { first: string[]; shards: Shards };
  #made: { first: string[]; shards: Shards } | undefined;
  #first: string[] | undefined;

  /**
   * `kept`: the first terms kept from an earlier build, given what makes them (the segment's shards, made once: a
   * build that does not have them kept writes the shards it made for them).
   */
  constructor(tag: string, kept: ((first: () => string[]) => string[]) | undefined, make: () => { first: string[]; shards: Shards }) {
    if (!/^[0-9a-z]+$/.test(tag)) throw new Error(`search index: a segment's tag must be lower-case letters and digits, not ${JSON.stringify(tag)}`);
    this.tag = tag;
    this.path = SHARD_PATH.replace('{segment}', tag);
    this.#make = make;
    this.#first = kept?.(() => this.#built().first);
  }

  get first(): string[] {
    return (this.#first ??= this.#built().first);
  }

  /** Whether this build has made the segment's postings (not when its first terms were kept and its shards not asked for). */
  get made(): boolean {
    return this.#made !== undefined;
  }

  get shards(): Shards {
    return this.#built().shards;
  }

  #built(): { first: string[]; shards: Shards } {
    if (!this.#made) {
      this.#made = this.#make();
      if (this.#first && JSON.stringify(this.#first) !== JSON.stringify(this.#made.first)) {
        throw new Error(`search index: segment ${this.tag}'s shards are not cut where the build's cache says`);
      }
    }
    return this.#made;
  }

  /**
   * Lets the segment's postings go once its files are written (its first terms stay). The bulk writer makes each file
   * once; kept, every segment's postings arrays stayed in its thread's memory to the end of the build (~120 MB at
   * 1,000 episodes, ~240 MB at 2,000). Asked for again, they are made again.
   */
  release(): void {
    this.#first ??= this.#made?.first;
    this.#made = undefined;
  }

  /** URL path of the segment's shard n. */
  shardPath(n: number): string {
    return this.path.replace('{n}', String(n));
  }

  /** URL path of the segment's vocabulary file of a bucket (the layout's `vocabulary` with '{bucket}'). */
  vocabularyPath(bucket: VocabularyBucket | '{bucket}'): string {
    return this.path.replace('{n}', `v${bucket}`);
  }

  /**
   * Every file the segment publishes, by URL path, with what writes it: its shards, then a vocabulary file per bucket
   * (all of them, empty or not, so that the paths are known from `first` alone, for a segment kept from the last build).
   */
  files(): Array<[path: string, json: () => string]> {
    return [
      ...this.first.map((_, n): [string, () => string] => [this.shardPath(n), () => this.shards.json(n)]),
      ...VOCABULARY_BUCKETS.map((b): [string, () => string] => [this.vocabularyPath(b), () => this.shards.vocabulary(b)]),
    ];
  }
}

/** Every segment's shards, numbered one after the other (segment 0's first), for tests, tools and `astro dev`. */
export class ShardSet implements Iterable<SerializedIndex> {
  readonly segments: readonly ShardSegment[];

  constructor(segments: readonly ShardSegment[]) {
    this.segments = segments;
  }

  get length(): number {
    return this.segments.reduce((sum, s) => sum + s.first.length, 0);
  }

  /** The segment and its shard number of shard n of the whole set. */
  locate(n: number): [ShardSegment, number] {
    if (Number.isInteger(n) && n >= 0) {
      let left = n;
      for (const segment of this.segments) {
        if (left < segment.first.length) return [segment, left];
        left -= segment.first.length;
      }
    }
    throw new RangeError(`no shard ${n} (${this.length} shards)`);
  }

  get(n: number): SerializedIndex {
    const [segment, k] = this.locate(n);
    return segment.shards.get(k);
  }

  json(n: number): string {
    const [segment, k] = this.locate(n);
    return segment.shards.json(k);
  }

  *[Symbol.iterator](): Iterator<SerializedIndex> {
    for (let n = 0; n < this.length; n++) yield this.get(n);
  }
}

/** The transcript postings in typed arrays (pass 2 of buildShardedIndex), by term in shard order. */
interface TermPostings {
  terms: readonly string[];
  /** The ids of the terms with postings, in code-unit order of the terms. */
  textTerms: readonly number[];
  /** Term id → its first entry in byTerm (the next term's: its end). */
  termStart: Int32Array;
  /** Offsets of the records [term, episode, n, (passage, weight) × n] in `data`, grouped by term, episodes in order. */
  byTerm: Int32Array;
  data: Float64Array;
  /** Term id → the passages of the segment that hold it. */
  df: Int32Array;
}

/**
 * The transcript index's shards, each made from the postings when asked for (`get`, or in order by iterating): a
 * caller that writes them one at a time holds one at a time. Shard n holds the terms from textTerms[cuts[n]] to the
 * next cut (`cuts` starts with 0). Outside buildShardedIndex, so that what it keeps is the postings, not that
 * function's closure.
 */
export class Shards implements Iterable<SerializedIndex> {
  readonly #postings: TermPostings;
  readonly #cuts: readonly number[];
  readonly #pipeline: string[];

  constructor(postings: TermPostings, cuts: readonly number[], pipeline: string[]) {
    this.#postings = postings;
    this.#cuts = cuts;
    this.#pipeline = pipeline;
  }

  get length(): number {
    return this.#cuts.length;
  }

  #buckets: Map<VocabularyBucket, string[]> | undefined;

  /** JSON of the segment's terms in one vocabulary bucket (VocabularySchema), in code-unit order. */
  vocabulary(bucket: VocabularyBucket): string {
    if (!this.#buckets) {
      const { terms, textTerms } = this.#postings;
      const buckets = new Map<VocabularyBucket, string[]>(VOCABULARY_BUCKETS.map((b) => [b, []]));
      for (const id of textTerms) buckets.get(vocabularyBucket(terms[id]!.charAt(0)))!.push(terms[id]!);
      this.#buckets = buckets;
    }
    return JSON.stringify({ terms: this.#buckets.get(bucket)! });
  }

  get(n: number): SerializedIndex {
    if (!Number.isInteger(n) || n < 0 || n >= this.length) throw new RangeError(`no shard ${n} (${this.length} shards)`);
    const { terms, textTerms, termStart, byTerm, data, df } = this.#postings;
    const invertedIndex: SerializedIndex['invertedIndex'] = [];
    const end = this.#cuts[n + 1] ?? textTerms.length;
    for (let k = this.#cuts[n]!; k < end; k++) {
      const id = textTerms[k]!;
      const refs: Array<[number, { p: number[] }]> = [];
      for (let r = termStart[id]!; r < termStart[id + 1]!; r++) {
        const at = byTerm[r]!;
        const p: number[] = [];
        for (let j = at + 3, stop = at + 3 + 2 * data[at + 2]!; j < stop; j++) p.push(data[j]!);
        refs.push([data[at + 1]!, { p }]);
      }
      invertedIndex.push([terms[id]!, { _index: invertedIndex.length, df: df[id]!, text: episodeKeyed(refs) }]);
    }
    return {
      version: lunr.version,
      fields: ['text'],
      // Empty: the scores are in the postings' `p`, all the engine reads (layout 4; contract/schemas/search-passages.ts
      // says why, and how a reader that wants Lunr's own query adds the vectors).
      fieldVectors: [],
      invertedIndex,
      pipeline: this.#pipeline,
    };
  }

  /**
   * JSON.stringify(get(n)), written straight from the typed arrays, without making the shard's objects: the build
   * writes every shard on the search thread (at 1,001 episodes, 1,310 shards and 74 MB: 3.6-4.0 s through get,
   * 3.0-3.2 s this way with the numbers joined by V8; later runs, alternated, on a slower morning: 4.2-5.3 s so,
   * 2.8-4.0 s with the numbers written by numberJson, 1.4-1.8 s with the records in shard order too). Same text,
   * byte for byte (search-build.test.ts); a shard the fast path cannot write exactly (a number numberJson leaves,
   * episodes out of order) is written by JSON.stringify.
   */
  json(n: number): string {
    if (!Number.isInteger(n) || n < 0 || n >= this.length) throw new RangeError(`no shard ${n} (${this.length} shards)`);
    const { terms, textTerms, termStart, byTerm, data, df } = this.#postings;
    const end = this.#cuts[n + 1] ?? textTerms.length;
    const entries: string[] = [];
    for (let k = this.#cuts[n]!; k < end; k++) {
      const id = textTerms[k]!;
      const refs: string[] = [];
      let previous = -1;
      for (let r = termStart[id]!; r < termStart[id + 1]!; r++) {
        const at = byTerm[r]!;
        const episode = data[at + 1]! | 0;
        // JSON.stringify writes integer keys in ascending order (numberJson answers for the numbers).
        if (episode <= previous) return JSON.stringify(this.get(n));
        previous = episode;
        const stop = at + 3 + 2 * data[at + 2]!;
        let p = '';
        for (let j = at + 3; j < stop; j++) {
          const text = numberJson(data[j]!);
          if (text === undefined) return JSON.stringify(this.get(n));
          p += j === at + 3 ? text : `,${text}`;
        }
        refs.push(`"${episode}":{"p":[${p}]}`);
      }
      entries.push(`[${JSON.stringify(terms[id])},{"_index":${entries.length},"df":${df[id]},"text":{${refs.join(',')}}}]`);
    }
    return `{"version":${JSON.stringify(lunr.version)},"fields":["text"],"fieldVectors":[],"invertedIndex":[${entries.join(',')}],"pipeline":${JSON.stringify(this.#pipeline)}}`;
  }

  *[Symbol.iterator](): Iterator<SerializedIndex> {
    for (let n = 0; n < this.length; n++) yield this.get(n);
  }
}

/**
 * JSON.stringify(x) for the numbers a shard holds, passage numbers and weights of four decimals (round4), written
 * through integers: V8 writes a small integer from a cache, but a fraction by its shortest round trip, most of the
 * shards' text time. Below 100,000 a number of four decimals has no shorter round trip than those decimals (two of
 * them are 0.0001 apart, its neighbours as doubles ~1e-11), so the text is the same. Undefined for anything else
 * (not finite, -0, more decimals, larger): the caller writes the shard with JSON.stringify.
 */
export function numberJson(x: number): string | undefined {
  if (Number.isInteger(x)) return Math.abs(x) < 1e6 && !Object.is(x, -0) ? String(x) : undefined;
  const k = Math.round(x * 10_000);
  if (k / 10_000 !== x || Math.abs(k) >= 1e9) return undefined;
  const a = Math.abs(k);
  const whole = Math.floor(a / 10_000);
  let digits = String(a % 10_000).padStart(4, '0');
  while (digits.endsWith('0')) digits = digits.slice(0, -1);
  return `${k < 0 ? '-' : ''}${whole}.${digits}`;
}

/** Occurrences of each term in one list of term ids at a time, in arrays the size of the vocabulary. */
class TermCounter {
  readonly counts: Int32Array;
  /** The distinct terms of the last list counted, in order of first occurrence. */
  terms: Int32Array;

  constructor(vocabulary: number) {
    this.counts = new Int32Array(vocabulary);
    this.terms = new Int32Array(64);
  }

  /** Counts `ids` into `counts`; returns how many distinct terms (the first that many of `terms`). */
  count(ids: Int32Array): number {
    if (this.terms.length < ids.length) this.terms = new Int32Array(ids.length);
    let distinct = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (this.counts[id]++ === 0) this.terms[distinct++] = id;
    }
    return distinct;
  }

  /** Zeroes what the last count touched, for the next list. */
  clear(distinct: number): void {
    for (let k = 0; k < distinct; k++) this.counts[this.terms[k]!] = 0;
  }
}

/**
 * The transcript postings' records [term, episode, n, (passage, score) × n] in one Float64Array, grouped by term:
 * counted first (count, for every passage's distinct terms, episode after episode), then placed (place: the terms
 * in the order their records are to lie), then written episode after episode (open), each record at its term's next
 * place, so that a term's records are in episode order.
 */
class TermRecords {
  /** Term → its records, and the numbers they take. */
  readonly #records: Int32Array;
  readonly #size: Int32Array;
  /** Term → the ordinal of the last episode counted that holds it, and its passages there (up to perTerm). */
  readonly #lastEpisode: Int32Array;
  readonly #inEpisode: Int32Array;
  /** Set by place: term → the next record's offset in `data`, and its next entry in `byTerm`. */
  #next = new Int32Array(0);
  #entry = new Int32Array(0);
  #end = new Int32Array(0);
  data = new Float64Array(0);
  byTerm = new Int32Array(0);

  constructor(vocabulary: number) {
    this.#records = new Int32Array(vocabulary);
    this.#size = new Int32Array(vocabulary);
    this.#lastEpisode = new Int32Array(vocabulary);
    this.#inEpisode = new Int32Array(vocabulary);
  }

  /** A passage of the episode numbered `ordinal` (from 1, in the order pass 2 takes them) holds `term`. */
  count(term: number, ordinal: number, perTerm: number): void {
    if (this.#lastEpisode[term] !== ordinal) {
      this.#lastEpisode[term] = ordinal;
      this.#inEpisode[term] = 0;
      this.#records[term]!++;
      this.#size[term]! += 3;
    }
    if (this.#inEpisode[term]! < perTerm) {
      this.#inEpisode[term]!++;
      this.#size[term]! += 2;
    }
  }

  has(term: number): boolean {
    return this.#records[term]! > 0;
  }

  /** Lays the records out, the terms in `order` (every term with records), and gives where each term's are. */
  place(order: readonly number[]): { termStart: Int32Array; byTerm: Int32Array; data: Float64Array } {
    const vocabulary = this.#records.length;
    const termStart = new Int32Array(vocabulary + 1);
    for (let id = 0; id < vocabulary; id++) termStart[id + 1] = termStart[id]! + this.#records[id]!;
    this.#entry = termStart.slice(0, vocabulary);
    this.#next = new Int32Array(vocabulary);
    this.#end = new Int32Array(vocabulary);
    let at = 0;
    for (const id of order) {
      this.#next[id] = at;
      at += this.#size[id]!;
      this.#end[id] = at;
    }
    this.data = new Float64Array(at);
    this.byTerm = new Int32Array(termStart[vocabulary]!);
    return { termStart, byTerm: this.byTerm, data: this.data };
  }

  /** Starts the record of `term` in `episode` with n pairs; gives its offset in `data` (the pairs from offset + 3). */
  open(term: number, episode: number, n: number): number {
    const at = this.#next[term]!;
    this.#next[term] = at + 3 + 2 * n;
    this.byTerm[this.#entry[term]!++] = at;
    this.data[at] = term;
    this.data[at + 1] = episode;
    this.data[at + 2] = n;
    return at;
  }

  /** Every record written where it was counted (a mismatch would be a bug in pass 1 or 2, not in the content). */
  check(): void {
    for (let id = 0; id < this.#next.length; id++) {
      if (this.#records[id] && this.#next[id] !== this.#end[id]) {
        throw new Error(`search index: term ${id}'s records do not fill their place`);
      }
    }
  }
}

/**
 * Each term's best `max` (passage, score) pairs in one episode, best first (ties: the earlier passage first, as
 * passages are offered in order), in slots reused from episode to episode.
 */
class BestPassages {
  readonly #max: number;
  /** Term → its slot this episode, or -1. */
  readonly #slotOf: Int32Array;
  /** Slot → term, in order of first offer. */
  #terms: Int32Array;
  #counts: Int32Array;
  /** Slot s holds pairs at [2 * max * s, 2 * max * (s + 1)). */
  #pairs: Float64Array;
  #used = 0;

  constructor(vocabulary: number, max: number) {
    this.#max = max;
    this.#slotOf = new Int32Array(vocabulary).fill(-1);
    this.#terms = new Int32Array(1024);
    this.#counts = new Int32Array(1024);
    this.#pairs = new Float64Array(1024 * 2 * max);
  }

  offer(term: number, passage: number, score: number): void {
    let slot = this.#slotOf[term]!;
    if (slot < 0) {
      if (this.#used === this.#terms.length) this.#grow();
      slot = this.#used++;
      this.#slotOf[term] = slot;
      this.#terms[slot] = term;
      this.#counts[slot] = 0;
    }
    const base = 2 * this.#max * slot;
    const pairs = this.#pairs;
    const n = this.#counts[slot]!;
    let at = n;
    while (at > 0 && pairs[base + 2 * (at - 1) + 1]! < score) at--;
    if (at >= this.#max) return;
    const kept = Math.min(n, this.#max - 1);
    for (let k = kept; k > at; k--) {
      pairs[base + 2 * k] = pairs[base + 2 * (k - 1)]!;
      pairs[base + 2 * k + 1] = pairs[base + 2 * (k - 1) + 1]!;
    }
    pairs[base + 2 * at] = passage;
    pairs[base + 2 * at + 1] = score;
    this.#counts[slot] = kept + 1;
  }

  /** Writes the episode's records [term, episode, n, pairs…] and empties the slots for the next episode. */
  drain(episode: number, out: TermRecords): void {
    const data = out.data;
    for (let slot = 0; slot < this.#used; slot++) {
      const term = this.#terms[slot]!;
      const n = this.#counts[slot]!;
      const at = out.open(term, episode, n) + 3;
      const base = 2 * this.#max * slot;
      for (let k = 0; k < 2 * n; k++) data[at + k] = this.#pairs[base + k]!;
      this.#slotOf[term] = -1;
    }
    this.#used = 0;
  }

  #grow(): void {
    const size = this.#terms.length * 2;
    const terms = new Int32Array(size);
    terms.set(this.#terms);
    this.#terms = terms;
    const counts = new Int32Array(size);
    counts.set(this.#counts);
    this.#counts = counts;
    const pairs = new Float64Array(size * 2 * this.#max);
    pairs.set(this.#pairs);
    this.#pairs = pairs;
  }
}

/** Code-unit order, the order lunr.TokenSet.Builder needs (what Array.prototype.sort does by default). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
