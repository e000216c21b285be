import { z } from 'zod';
import type { PassageAnalysis } from '../search/passage-terms.ts';
import { findPackedTerm } from '../search/packed-terms.ts';
import { utf8Length, viewsOfOneBuffer } from '../search/one-buffer.ts';

/**
 * The published search index, layout version 6 (SEARCH_LAYOUT_VERSION): cut up so that a query loads only what it
 * needs (issue 13, network scale). Written by src/build/search, read by functions/search (server, function hosts)
 * and by offline apps and the website's offline fallback through the same code.
 *
 *   /search/lunr-index.json       a serialized Lunr index of the episodes' metadata (refs are episode ids; fields
 *                                 title, description, guests, topics, chapters), plus `shards` and `passages`
 *                                 below, which say where the transcript index and the passages are.
 *   /search/shards/<s>-<n>.json   shard n of segment s of the transcript index (its path is in shards.segments):
 *                                 a serialized Lunr index (refs are episode ids, one field `text`) of the segment's
 *                                 episodes, holding the terms from first[n] up to first[n+1] (exclusive), in
 *                                 code-unit order. A segment holds consecutive episodes (the oldest first), so that
 *                                 a rebuild that adds an episode makes only the last segments' shards again; a
 *                                 query reads the shard of its word in every segment. Each term's posting has `df`,
 *                                 the segment's passages that hold it, and per episode the metadata `p`: the
 *                                 episode's best passages for the term, [passage, weight, passage, weight, ...],
 *                                 best first. A weight is BM25's term-frequency part with the field's boost (k1
 *                                 1.2, b 0.75, the segment's average passage length); the reader multiplies it by
 *                                 the term's idf over the whole show (shards.documents says how). The weights are
 *                                 there, so `fieldVectors` is empty: lunr.Index.load reads a shard as it is, and
 *                                 Lunr's own query over it (which would score 0) needs an empty vector per
 *                                 episode, ['text/<id>', []], added by the reader.
 *   /search/shards/<s>-v<b>.json  segment s's terms whose first character is in bucket b (vocabularyBucket), for
 *                                 a word looked up one edit away: two of them per segment, then the shards of the
 *                                 terms found, not every shard that could hold one.
 *   /search/passages/<id>-<c>.json  chunk c of an episode's transcript passages, which `p` numbers from 0: the
 *                                 passages from c × passages.perChunk on (a result loads one chunk, not the
 *                                 whole episode: at N = 1,000, 553 KB of passage JSON per query came down to ~100).
 *   /search/records/<id>.json     an episode's record, as /service.json lists it (`records` below): what a
 *                                 result shows of the episode besides its snippet and moments.
 *
 * Scores are BM25 with statistics of the whole show (one document per passage plus one per episode, as a single
 * index of every passage would have them): the top index's as published, the shards' once multiplied by the idf,
 * so scores from different shards and segments add up.
 */
export const PassageSchema = z.object({
  /** Seconds from the start of the episode to the first and past the last cue. */
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  /** The passage's cues in order: [start seconds, text]. */
  cues: z.array(z.tuple([z.number().nonnegative(), z.string()])).min(1),
});
export type Passage = z.infer<typeof PassageSchema>;

/**
 * /search/passage-terms/<id>-<c>.json: what /ask reads of chunk c of an episode's passages (contract/search/
 * passage-terms.ts), made at build time so that the request path does not analyse text (bench/, N = 1,000: a third
 * of /ask's time), with each passage's start and second-person words so that re-ranking decodes no passage text,
 * and the passages' chunk itself (`passages`), so that a question reads one file per chunk, not two: a moment /ask
 * shows is always in a chunk it re-ranked. A file of its own, not a field of the passages' chunk: every search reads
 * chunks for its snippets, and at N = 1,000 the analysis made them twice the size (search CPU +27%). The distinct
 * terms are one space-separated string in code-point order (index terms hold no spaces), never split by a reader:
 * it finds a question's terms in its bytes by binary search. A word's term is an index into them (0: a stop word;
 * k: the k-th term), written as `width` digits of TERM_DIGITS, one string per passage; a reader keeps them as typed
 * arrays (PassageTermsReader).
 */
export const PassageTermsSchema = z.object({
  /** 2: sorted terms, starts, addressed and passages (1 had the terms in order of appearance and none of them). */
  version: z.literal(2),
  episode: z.int().positive(),
  /** The number of the chunk's first passage in the episode, as in the passages' chunk. */
  from: z.int().nonnegative(),
  /** The chunk's distinct index terms, in code-point order (byCodePoint), separated by single spaces. */
  terms: z.string(),
  /** Digits per term index in `words`. */
  width: z.int().min(1).max(4),
  /** Per passage, the term of each word in order: `width` digits (TERM_DIGITS, most significant first) each. */
  words: z.array(z.string()),
  /** Per passage, the terms of each question asked in it, as term indexes. */
  questions: z.array(z.array(z.array(z.int().nonnegative()))),
  /** Per passage, the seconds it starts at (its first cue's start, as in the passages' chunk). */
  starts: z.array(z.number().nonnegative()),
  /** Per passage, its words addressing the listener (secondPersonWords). */
  addressed: z.array(z.int().nonnegative()),
  /**
   * Per passage, the kinds of answer it holds (answerKinds: ANSWER_KIND bits for a duration, a number, a date), for
   * "how long / how many / when" questions; absent when no passage holds any (a reader then reads 0).
   */
  answers: z.array(z.int().nonnegative()).optional(),
  /** The chunk of passages these analyse, as /search/passages/<id>-<c>.json has it. */
  passages: z.lazy(() => PassageChunkSchema),
});
export type PassageTerms = z.infer<typeof PassageTermsSchema>;

/** The digits of a term index in PassageTerms.words (base64url's alphabet: nothing JSON escapes). */
export const TERM_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < TERM_DIGITS.length; i++) DIGIT_VALUE[TERM_DIGITS.charCodeAt(i)] = i;

/**
 * Code-point order, which is the order of the strings' UTF-8 bytes: the terms of a PassageTerms file are sorted so
 * and searched in their bytes (PassageTermsReader.indexOf).
 */
export function byCodePoint(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return (a.length - i) - (b.length - j);
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();
const ASCII = /^[\x00-\x7f]*$/;

/** The analyses of a chunk's passages, with the chunk, as published (read by PassageTermsReader). */
export function encodePassageTerms(chunk: PassageChunk, analyses: PassageAnalysis[]): PassageTerms {
  const { episode, from } = chunk;
  const starts = chunk.first.map((cue) => chunk.starts[cue]!);
  if (starts.length !== analyses.length) throw new Error(`passage terms of episode ${episode}: ${analyses.length} analyses, ${starts.length} passages`);
  const distinct = new Set<string>();
  for (const a of analyses) {
    for (const t of a.terms) if (t) distinct.add(t);
    for (const q of a.questions) for (const t of q) if (t) distinct.add(t);
  }
  const terms = ['', ...[...distinct].sort(byCodePoint)];
  const ids = new Map(terms.map((t, i) => [t, i]));
  let width = 1;
  while (TERM_DIGITS.length ** width < terms.length) width++;
  const digits = (n: number) => {
    let out = '';
    for (let k = 0; k < width; k++, n = Math.floor(n / TERM_DIGITS.length)) out = TERM_DIGITS[n % TERM_DIGITS.length] + out;
    return out;
  };
  // Each index's digits made once (a chunk has at most a few thousand terms; the build writes millions of words).
  const written = terms.map((_, i) => digits(i));
  return {
    version: 2,
    episode,
    from,
    terms: terms.slice(1).join(' '),
    width,
    words: analyses.map((a) => a.terms.map((t) => written[ids.get(t)!]).join('')),
    questions: analyses.map((a) => a.questions.map((q) => q.map((t) => ids.get(t)!))),
    starts,
    addressed: analyses.map((a) => a.addressed),
    ...(analyses.some((a) => a.answers) ? { answers: analyses.map((a) => a.answers ?? 0) } : {}),
    passages: chunk,
  };
}

/**
 * Reads a chunk's published analyses, passage by passage. What it keeps is typed arrays (the sorted terms as UTF-8
 * bytes), outside the JS heap and weighed by their size (`bytes`): ~9 KB for a chunk of an hour-long episode where
 * the parsed file with its terms split was ~26 KB, so a budget holds more than twice as many, a scavenge copies
 * and a full collection marks a few small objects per chunk instead of hundreds of strings, and an evicted chunk
 * leaves the old generation nothing to collect. A question finds its own terms in the chunk (`names`) and reads
 * each passage's words as those terms, every other word as NOT_ASKED.
 */
export class PassageTermsReader {
  readonly from: number;
  /** The sorted terms' UTF-8 bytes, space-separated, and where term k (from 1) starts (at[k + 1] - 1: ends). */
  readonly #terms: Uint8Array;
  readonly #at: Uint16Array | Uint32Array;
  /** Every passage's words as term indexes, passage n's from words[wordAt[n]] up to words[wordAt[n + 1]]. */
  readonly #words: Uint16Array | Uint32Array;
  readonly #wordAt: Uint32Array;
  /** Passage n's questions: questionAt[n] … questionAt[n + 1] - 1, question q's terms asked[askedAt[q] …]. */
  readonly #questionAt: Uint32Array;
  readonly #askedAt: Uint32Array;
  readonly #asked: Uint16Array | Uint32Array;
  readonly #starts: Float64Array;
  readonly #addressed: Uint32Array;
  readonly #answers: Uint8Array;

  constructor(file: PassageTerms) {
    this.from = file.from;
    const { terms: sorted, width } = file;
    const termBytes = utf8Length(sorted);
    // A space is one byte in UTF-8 and never part of another character's bytes.
    let count = sorted.length ? 1 : 0;
    for (let i = 0; i < sorted.length; i++) if (sorted.charCodeAt(i) === 32) count++;
    const Indexes = count + 1 <= 0xffff ? Uint16Array : Uint32Array;
    let words = 0;
    for (const w of file.words) words += Math.floor(w.length / width);
    const passages = file.words.length;
    let questions = 0;
    let asked = 0;
    for (const qs of file.questions.slice(0, passages)) for (const q of qs) (questions++, (asked += q.length));
    // One buffer for all (contract/search/one-buffer.ts), the widest elements first.
    [this.#starts, this.#wordAt, this.#questionAt, this.#askedAt, this.#addressed, this.#at, this.#words, this.#asked, this.#terms, this.#answers] = viewsOfOneBuffer([
      [Float64Array, passages],
      [Uint32Array, passages + 1],
      [Uint32Array, passages + 1],
      [Uint32Array, questions + 1],
      [Uint32Array, passages],
      [termBytes < 0xffff ? Uint16Array : Uint32Array, count + 2],
      [Indexes, words],
      [Indexes, asked],
      [Uint8Array, termBytes],
      [Uint8Array, passages],
    ]);
    const text = this.#terms;
    utf8.encodeInto(sorted, text);
    for (let i = 0, k = 2; i < text.length; i++) if (text[i] === 32) this.#at[k++] = i + 1;
    this.#at[count + 1] = text.length + 1;
    let w = 0;
    file.words.forEach((digits, n) => {
      this.#wordAt[n] = w;
      for (let at = 0; at + width <= digits.length; w++) {
        let i = 0;
        for (let k = 0; k < width; k++) i = i * TERM_DIGITS.length + DIGIT_VALUE[digits.charCodeAt(at++) & 127]!;
        this.#words[w] = i <= count ? i : 0;
      }
    });
    this.#wordAt[passages] = w;
    for (let n = 0, q = 0, a = 0; n < passages; n++) {
      this.#questionAt[n] = q;
      for (const terms of file.questions[n] ?? []) {
        this.#askedAt[q++] = a;
        for (const t of terms) this.#asked[a++] = t <= count ? t : 0;
      }
      this.#questionAt[n + 1] = q;
      this.#askedAt[q] = a;
    }
    for (let n = 0; n < passages; n++) {
      this.#starts[n] = file.starts[n] ?? 0;
      this.#addressed[n] = file.addressed[n] ?? 0;
      this.#answers[n] = file.answers?.[n] ?? 0;
    }
  }

  /**
   * A reader for a file as fetched, or undefined when it does not have PassageTermsSchema's shape (checked by hand:
   * the request path reads ~13 of these a question, and this is what the reader relies on).
   */
  static of(body: unknown): PassageTermsReader | undefined {
    const f = body as Partial<PassageTerms> | null;
    const valid = f?.version === 2 && Number.isInteger(f.from) && typeof f.terms === 'string' && Number.isInteger(f.width) && isPassageChunk(f.passages) &&
      f.width! >= 1 && Array.isArray(f.words) && Array.isArray(f.questions) && Array.isArray(f.starts) && Array.isArray(f.addressed) &&
      f.words.every((w) => typeof w === 'string') && f.questions.every(Array.isArray) && (f.answers === undefined || Array.isArray(f.answers));
    return valid ? new PassageTermsReader(f as PassageTerms) : undefined;
  }

  /** How many passages the chunk has. */
  get passages(): number {
    return this.#wordAt.length - 1;
  }

  /** How many distinct terms the chunk's words have. */
  get size(): number {
    return this.#at.length - 2;
  }

  /** About what the reader holds, in bytes: its typed arrays (one buffer) and their objects. */
  get bytes(): number {
    return 10 * 100 + this.#terms.buffer.byteLength;
  }

  /** Term k (from 1); '' for 0 (a stop word). */
  term(k: number): string {
    return k >= 1 && k < this.#at.length - 1 ? fromUtf8.decode(this.#terms.subarray(this.#at[k], this.#at[k + 1]! - 1)) : '';
  }

  /**
   * The index of a term among the chunk's (from 1), or 0 when none of its words has it: binary search in the
   * terms' bytes (an ASCII term compared as it is, another as its UTF-8 bytes).
   */
  indexOf(term: string): number {
    const k = findPackedTerm(this.#terms, this.#at, 1, this.#at.length - 2, ASCII.test(term) ? term : utf8.encode(term));
    return k < 0 ? 0 : k;
  }

  /**
   * The names a question reads the chunk's words by: its own terms as themselves, every other term as `other`, a
   * stop word as ''. With `terms` undefined, every term as itself.
   */
  names(terms?: Iterable<string>, other = NOT_ASKED): string[] {
    const size = this.size;
    if (!terms) return Array.from({ length: size + 1 }, (_, k) => this.term(k));
    const names = new Array<string>(size + 1).fill(other);
    names[0] = '';
    for (const t of terms) {
      const k = this.indexOf(t);
      if (k) names[k] = t;
    }
    return names;
  }

  /** Passage n's terms (n from the chunk's first passage): each word's term in order (by `names`), '' for a stop word. */
  terms(n: number, names: readonly string[] = this.names()): string[] {
    if (!(n >= 0 && n < this.passages)) return [];
    const from = this.#wordAt[n]!;
    const out = new Array<string>(this.#wordAt[n + 1]! - from);
    for (let w = 0; w < out.length; w++) out[w] = names[this.#words[from + w]!] ?? '';
    return out;
  }

  /** Passage n's questions, as terms (by `names`). */
  questions(n: number, names: readonly string[] = this.names()): string[][] {
    if (!(n >= 0 && n < this.passages)) return [];
    const out: string[][] = [];
    for (let q = this.#questionAt[n]!; q < this.#questionAt[n + 1]!; q++) {
      const terms: string[] = [];
      for (let a = this.#askedAt[q]!; a < this.#askedAt[q + 1]!; a++) terms.push(names[this.#asked[a]!] ?? '');
      out.push(terms);
    }
    return out;
  }

  /** The seconds passage n starts at. */
  start(n: number): number {
    return this.#starts[n] ?? 0;
  }

  /** Passage n's words addressing the listener (secondPersonWords). */
  addressed(n: number): number {
    return this.#addressed[n] ?? 0;
  }

  /** Passage n's kinds of answer (answerKinds: ANSWER_KIND bits), 0 for none. */
  answers(n: number): number {
    return this.#answers[n] ?? 0;
  }

  /** Every passage's analysis, in order. */
  all(): PassageAnalysis[] {
    const names = this.names();
    return Array.from({ length: this.passages }, (_, n) => {
      const answers = this.answers(n);
      return { terms: this.terms(n, names), questions: this.questions(n, names), addressed: this.addressed(n), ...(answers ? { answers } : {}) };
    });
  }
}

/**
 * What a question reads a chunk's word as when the word's term is not one of its own (PassageTermsReader.names):
 * a word, not a stop word, that equals no index term (those hold no control characters).
 */
export const NOT_ASKED = '\u0000';

/**
 * /search/passages/<id>-<c>.json: passages `from` … `from + first.length - 1` of an episode (chunk c of the
 * layout's passages.perChunk), in a form that parses fast (one string rather than an array per cue).
 */
export const PassageChunkSchema = z.object({
  version: z.literal(3),
  episode: z.int().positive(),
  /** The number of the chunk's first passage in the episode (c × perChunk). */
  from: z.int().nonnegative(),
  /** The chunk's cues' texts, in order, separated by "\n" (a cue's own line breaks are spaces here). */
  text: z.string(),
  /** Each of the chunk's cues' start, seconds. */
  starts: z.array(z.number().nonnegative()),
  /** Passage from + n is the chunk's cues from first[n] up to first[n + 1] (the last one: to the end). */
  first: z.array(z.int().nonnegative()),
  /** Where each passage ends, seconds (past its last cue). */
  ends: z.array(z.number().nonnegative()),
});
export type PassageChunk = z.infer<typeof PassageChunkSchema>;

/** Whether a fetched file has what a reader of PassageChunkSchema relies on (checked by hand, as it is read often). */
export function isPassageChunk(body: unknown): body is PassageChunk {
  const f = body as Partial<PassageChunk> | null;
  return f?.version === 3 && typeof f.text === 'string' && Array.isArray(f.first) && Array.isArray(f.starts) && Number.isInteger(f.from);
}

/** Passages per chunk file: ~16 × 45 s ≈ 12 minutes of speech, ~10 KB of JSON. */
export const PASSAGES_PER_CHUNK = 16;

/** The passages of a chunk (or of consecutive chunks) as a reader wants them. */
export function decodePassages(chunks: PassageChunk | PassageChunk[]): Passage[] {
  return (Array.isArray(chunks) ? chunks : [chunks]).flatMap((file) => {
    const cues = file.text.split('\n');
    return file.first.map((from, n) => {
      const to = file.first[n + 1] ?? cues.length;
      return {
        start: file.starts[from]!,
        end: file.ends[n]!,
        cues: cues.slice(from, to).map((text, k) => [file.starts[from + k]!, text] as [number, string]),
      };
    });
  });
}

/** The inverse of decodePassages: an episode's passages as chunk files of perChunk passages. */
export function encodePassages(episode: number, passages: Passage[], perChunk = PASSAGES_PER_CHUNK): PassageChunk[] {
  const chunks: PassageChunk[] = [];
  for (let from = 0; from < passages.length; from += perChunk) {
    const texts: string[] = [];
    const starts: number[] = [];
    const first: number[] = [];
    const ends: number[] = [];
    for (const p of passages.slice(from, from + perChunk)) {
      first.push(starts.length);
      ends.push(p.end);
      for (const [start, text] of p.cues) {
        starts.push(start);
        texts.push(text.replace(/[\r\n]+/g, ' '));
      }
    }
    chunks.push({ version: 3, episode, from, text: texts.join('\n'), starts, first, ends });
  }
  return chunks;
}

/**
 * 5: the transcript index in segments of consecutive episodes, each posting's weights without the idf, and each
 * term's document frequency in its segment (4: one set of shards with the whole show's scores; 3 had an empty field
 * vector per episode in each shard; 2 one passages file per episode).
 */
export const SEARCH_LAYOUT_VERSION = 6;

/**
 * The files a segment's terms are split into by their first character (a vocabulary file each, always all of them):
 * a word the show does not have is looked up one edit away (a typo) among the terms that start with its first or
 * second character, so a reader reads two of these small files per segment, then only the shards of the words it
 * found, instead of every shard that could hold one (at 2,000 episodes 421-629 shard files for one misspelt word).
 */
export const VOCABULARY_BUCKETS = [...'abcdefghijklmnopqrstuvwxyz', '0', '_', ...[...'0123456789abcdef'].map((h) => `x${h}`)] as const;
export type VocabularyBucket = (typeof VOCABULARY_BUCKETS)[number];

/**
 * The vocabulary file of terms starting with `c` (one UTF-16 code unit): a-z their own, digits '0', the rest of ASCII
 * '_', and beyond ASCII one of 16 by the code unit's last hex digit: a show in Russian, Greek, Arabic or Korean
 * (lunr-languages packs the project offers) spreads its words over those, where one file would hold them all.
 */
export function vocabularyBucket(c: string): VocabularyBucket {
  if (c >= 'a' && c <= 'z') return c as VocabularyBucket;
  if (c >= '0' && c <= '9') return '0';
  const code = c.charCodeAt(0);
  return !(code >= 0x80) ? '_' : (`x${(code & 15).toString(16)}` as VocabularyBucket);
}

/** A segment's vocabulary file: its terms in one bucket (vocabularyBucket of their first character), in code-unit order. */
export const VocabularySchema = z.object({ terms: z.array(z.string()) });

/** The top of the index, at this path of the site; the paths in its layout (shards, passages, records) are the site's too. */
export const TOP_INDEX_PATH = '/search/lunr-index.json';

export const SearchLayoutSchema = z.object({
  version: z.literal(SEARCH_LAYOUT_VERSION),
  /** The lunr-languages pack the index was built with ("en" = Lunr's English pipeline). */
  language: z.string(),
  /** Field boosts the index was built with (baked into every score). */
  boosts: z.record(z.string(), z.number().positive()),
  /** How many of an episode's best passages each transcript posting lists. */
  passagesPerTerm: z.int().positive(),
  shards: z.object({
    /**
     * The documents BM25's idf counts: every transcript passage and every episode (its metadata). A term's idf is
     * ln(1 + (documents − df + 0.5) / (df + 0.5)), df its documents: those its posting in the top index lists, one per
     * field, plus the `df` of its posting in each segment's shard.
     */
    documents: z.int().nonnegative(),
    /** The transcript index's segments, oldest episodes first (none without a transcript). */
    segments: z.array(
      z.object({
        /** URL path of the segment's shard n: `{n}` replaced by n. */
        path: z.string(),
        /** The first term of each of its shards, ascending; shard n holds terms t with first[n] <= t < first[n+1]. */
        first: z.array(z.string()).min(1),
        /**
         * URL path of the segment's terms that start with one first character (VocabularySchema), `{bucket}`
         * replaced by vocabularyBucket of it. Absent: a reader looking for words one edit away reads the shards
         * that can hold one (a build of layout 6 without them).
         */
        vocabulary: z.string().optional(),
      }),
    ),
  }),
  passages: z.object({
    /** URL path of a chunk of an episode's passages: `{id}` replaced by the episode id, `{chunk}` by the chunk. */
    path: z.string(),
    /** Passages per chunk: passage p of an episode is in chunk ⌊p / perChunk⌋. */
    perChunk: z.int().positive(),
    /** Episodes that have passages (a transcript), ascending. */
    episodes: z.array(z.int().positive()),
    /** How many passages each of those episodes has (same order). */
    counts: z.array(z.int().positive()),
    /**
     * URL path of a chunk's analysis (PassageTermsSchema), `{id}` and `{chunk}` as for `path`: what /ask reads of
     * the passages besides their text. Absent: readers analyse the text themselves (the same result).
     */
    terms: z.string().optional(),
  }),
  /**
   * Each episode's record (the element of /service.json's `episodes` for it, ServiceEpisodeSchema) on its own: a
   * reader without /service.json (an offline app, the website's offline fallback) fetches the records of the
   * results it shows instead of every episode's (at N = 1,000, 400 KB gzip before the first answer). Absent:
   * readers take the records from /service.json.
   */
  records: z
    .object({
      /** URL path of an episode's record: `{id}` replaced by the episode id. */
      path: z.string(),
      /** Every episode of the show, ascending (with or without a transcript). */
      episodes: z.array(z.int().positive()),
    })
    .optional(),
});
export type SearchLayout = z.infer<typeof SearchLayoutSchema>;

/** /search/passages.json: where the passages are (the layout's `passages`, with the language and boosts). */
export const SearchPassagesSchema = SearchLayoutSchema.pick({ version: true, language: true, boosts: true, passages: true });
export type SearchPassages = z.infer<typeof SearchPassagesSchema>;
