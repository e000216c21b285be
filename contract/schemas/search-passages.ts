import { z } from 'zod';
import type { PassageAnalysis } from '../search/passage-terms.ts';

/**
 * The published search index, version 3: cut up so that a query loads only what it needs (issue 13, network
 * scale). Written by src/build/search, read by functions/search (server, function hosts) and by offline apps and
 * the website's offline fallback through the same code.
 *
 *   /search/lunr-index.json       a serialized Lunr index of the episodes' metadata (refs are episode ids; fields
 *                                 title, description, guests, topics, chapters), plus `shards` and `passages`
 *                                 below, which say where the transcript index and the passages are.
 *   /search/shards/<n>.json       shard n of the transcript index: a serialized Lunr index (refs are episode ids,
 *                                 one field `text`) holding the terms from shards.first[n] up to shards.first[n+1]
 *                                 (exclusive), in code-unit order. Each posting's metadata `p` lists the episode's
 *                                 best passages for that term: [passage, score, passage, score, ...], best first.
 *                                 The scores are there, not in the field vectors (empty: Lunr's own score is 0).
 *   /search/passages/<id>/<c>.json  chunk c of an episode's transcript passages, which `p` numbers from 0: the
 *                                 passages from c × passages.perChunk on (a result loads one chunk, not the
 *                                 whole episode: at N = 1,000, 553 KB of passage JSON per query came down to ~100).
 *
 * All scores are BM25 (k1 1.2, b 0.75) with statistics of the whole show (one document per passage plus one per
 * episode, as a single index of every passage would have them), so scores from different shards add up.
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
 * /search/passage-terms/<id>/<c>.json: what /ask reads of chunk c of an episode's passages besides their text
 * (contract/search/passage-terms.ts), made at build time so that the request path does not analyse text (bench/,
 * N = 1,000: a third of /ask's time). A file of its own, not a field of the passages' chunk: every search reads
 * chunks for its snippets, and at N = 1,000 the analysis made them twice the size (search CPU +27%). The distinct
 * terms are one space-separated string (index terms hold no spaces), split only when read: a JSON array of a
 * thousand short strings parsed five times slower than the whole passages' chunk. A word's term is an index into
 * them (0: a stop word; k: the k-th term), written as `width` digits of TERM_DIGITS, one string per passage.
 */
export const PassageTermsSchema = z.object({
  version: z.literal(1),
  episode: z.int().positive(),
  /** The number of the chunk's first passage in the episode, as in the passages' chunk. */
  from: z.int().nonnegative(),
  /** The chunk's distinct index terms, separated by single spaces. */
  terms: z.string(),
  /** Digits per term index in `words`. */
  width: z.int().min(1).max(4),
  /** Per passage, the term of each word in order: `width` digits (TERM_DIGITS, most significant first) each. */
  words: z.array(z.string()),
  /** Per passage, the terms of each question asked in it, as term indexes. */
  questions: z.array(z.array(z.array(z.int().nonnegative()))),
});
export type PassageTerms = z.infer<typeof PassageTermsSchema>;

/** The digits of a term index in PassageTerms.words (base64url's alphabet: nothing JSON escapes). */
export const TERM_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < TERM_DIGITS.length; i++) DIGIT_VALUE[TERM_DIGITS.charCodeAt(i)] = i;

/** A chunk's passage analyses as published (decoded by PassageTermsReader). */
export function encodePassageTerms(episode: number, from: number, analyses: PassageAnalysis[]): PassageTerms {
  const ids = new Map<string, number>([['', 0]]);
  const terms = [''];
  const id = (term: string) => {
    let i = ids.get(term);
    if (i === undefined) ids.set(term, (i = terms.push(term) - 1));
    return i;
  };
  const words = analyses.map((a) => a.terms.map(id));
  const questions = analyses.map((a) => a.questions.map((q) => q.map(id)));
  let width = 1;
  while (TERM_DIGITS.length ** width < terms.length) width++;
  const digits = (n: number) => {
    let out = '';
    for (let k = 0; k < width; k++, n = Math.floor(n / TERM_DIGITS.length)) out = TERM_DIGITS[n % TERM_DIGITS.length] + out;
    return out;
  };
  // Each index's digits made once (a chunk has at most a few thousand terms; the build writes millions of words).
  const written = terms.map((_, i) => digits(i));
  return { version: 1, episode, from, terms: terms.slice(1).join(' '), width, words: words.map((w) => w.map((i) => written[i]).join('')), questions };
}

/** Reads a chunk's published analyses, passage by passage (the term list is split once, on first use). */
export class PassageTermsReader {
  readonly #file: PassageTerms;
  #terms: string[] | undefined;
  constructor(file: PassageTerms) {
    this.#file = file;
  }

  /**
   * A reader for a file as fetched, or undefined when it does not have PassageTermsSchema's shape (checked by hand:
   * the request path reads ~13 of these a question, and this is what the reader relies on).
   */
  static of(body: unknown): PassageTermsReader | undefined {
    const f = body as Partial<PassageTerms> | null;
    const valid = f?.version === 1 && Number.isInteger(f.from) && typeof f.terms === 'string' && Number.isInteger(f.width) &&
      f.width! >= 1 && Array.isArray(f.words) && Array.isArray(f.questions);
    return valid ? new PassageTermsReader(f as PassageTerms) : undefined;
  }

  /** The number of the chunk's first passage in the episode. */
  get from(): number {
    return this.#file.from;
  }

  /** How many passages the chunk has. */
  get passages(): number {
    return this.#file.words.length;
  }

  /** About what the reader holds, in bytes: its strings, and the term list once split (~24 bytes a term). */
  get bytes(): number {
    let bytes = 2 * this.#file.terms.length;
    for (const w of this.#file.words) bytes += 24 + w.length;
    for (let at = this.#file.terms.indexOf(' '); at >= 0; at = this.#file.terms.indexOf(' ', at + 1)) bytes += 24;
    return bytes;
  }

  #list(): string[] {
    this.#terms ??= ['', ...(this.#file.terms ? this.#file.terms.split(' ') : [])];
    return this.#terms;
  }

  /** Passage n's terms (n from the chunk's first passage): each word's term in order, '' for a stop word. */
  terms(n: number): string[] {
    const terms = this.#list();
    const { width } = this.#file;
    const text = this.#file.words[n] ?? '';
    const out = new Array<string>(Math.floor(text.length / width));
    for (let w = 0, at = 0; w < out.length; w++) {
      let i = 0;
      for (let k = 0; k < width; k++) i = i * TERM_DIGITS.length + DIGIT_VALUE[text.charCodeAt(at++) & 127]!;
      out[w] = terms[i] ?? '';
    }
    return out;
  }

  /** Passage n's questions, as terms. */
  questions(n: number): string[][] {
    const terms = this.#list();
    return (this.#file.questions[n] ?? []).map((q) => q.map((i) => terms[i] ?? ''));
  }

  /** Every passage's analysis, in order. */
  all(): PassageAnalysis[] {
    return this.#file.words.map((_, n) => ({ terms: this.terms(n), questions: this.questions(n) }));
  }
}

/**
 * /search/passages/<id>/<c>.json: passages `from` … `from + first.length - 1` of an episode (chunk c of the
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

export const SearchLayoutSchema = z.object({
  /** 3: passages in chunks (2 had one file per episode). */
  version: z.literal(3),
  /** The lunr-languages pack the index was built with ("en" = Lunr's English pipeline). */
  language: z.string(),
  /** Field boosts the index was built with (baked into every score). */
  boosts: z.record(z.string(), z.number().positive()),
  /** How many of an episode's best passages each transcript posting lists. */
  passagesPerTerm: z.int().positive(),
  shards: z.object({
    /** URL path of shard n: `{n}` replaced by n. */
    path: z.string(),
    /** The first term of each shard, ascending; shard n holds terms t with first[n] <= t < first[n+1]. */
    first: z.array(z.string()),
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
});
export type SearchLayout = z.infer<typeof SearchLayoutSchema>;

/** /search/passages.json: where the passages are (the layout's `passages`, with the language and boosts). */
export const SearchPassagesSchema = SearchLayoutSchema.pick({ version: true, language: true, boosts: true, passages: true });
export type SearchPassages = z.infer<typeof SearchPassagesSchema>;
