/**
 * Text analysis that matches what the index did at build time: Lunr's word separator, the language's trimmer,
 * stop words and stemmer. Queries, snippet marking and the index all go through the same steps, so a word in a
 * snippet is marked exactly when the index would have matched it.
 */
import lunr from 'lunr';
import type { LanguageSupport } from './language.ts';
import { RangeCache } from './range-cache.ts';

/** Lunr's own token separator (whitespace and hyphen), kept identical so words split the same way. */
export const WORD_SEPARATOR = /[\s-]+/;

export interface WordSpan {
  /** The word as written, trimmed of surrounding punctuation. */
  text: string;
  /** Offsets of `text` in the analysed string. */
  start: number;
  end: number;
  /** What term(text) gives: the word's index term, null for a stop word. */
  term: string | null;
}

const CACHE_LIMIT = 50_000;
/**
 * Chunks include their punctuation ("bees," "bees."), so a show has a few per word: at N = 1,000 (bench/, 36,000
 * words) a smaller bound was cleared over and over. ~80 bytes an entry.
 */
const CHUNK_CACHE_LIMIT = 200_000;
/**
 * words() entries (an object each, ~150 bytes): raw chunks of the passages shown as results, where the common ones
 * recur; bounded lower than the chunk → term cache to keep the server small (issue 13: RSS).
 */
const CUT_CACHE_LIMIT = 50_000;

/** Where a chunk's word is in it and the word's term (Analyzer#wordSpans). */
interface Cut {
  at: number;
  length: number;
  term: string | null;
}

/**
 * Whether a UTF-16 code unit is one of WORD_SEPARATOR's: a hyphen, or what \s matches (ECMAScript's WhiteSpace and
 * LineTerminator: analyzer.test.ts checks every code unit against the pattern).
 */
export function isSeparator(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c === 0x2d) return true;
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

export class Analyzer {
  readonly language: string;
  readonly #lang: LanguageSupport;
  readonly #indexPipeline: lunr.Pipeline;
  readonly #searchPipeline: lunr.Pipeline;
  readonly #termCache = new Map<string, string | null>();
  /** Raw chunk (as split from a text) → its index term, '' for a stop word, null for punctuation only. */
  readonly #chunkCache = new Map<string, string | null>();
  /**
   * Raw chunk, as written → where its word is in it (#wordIn) and the word's term: every snippet cuts a passage's
   * words and looks each one up (bench/, N = 1,000: cutting and term() were most of a snippet's time).
   */
  readonly #cutCache: RangeCache<Cut | null>;
  /** What a chunk not seen before becomes (#wordIn, then term()), for #cutCache. */
  readonly #cut = (raw: string): Cut | null => {
    const where = this.#wordIn(raw);
    return where && { at: where[0], length: where[1], term: this.term(raw.slice(where[0], where[0] + where[1])) };
  };
  /** How many times the bounds above its caches are allowed (the build: no bound). */
  readonly #scale: number;

  /**
   * `unboundedCaches`: for a build, which is short-lived and analyses the whole show: at N = 1,000 the vocabulary
   * (111,000 words; 156,000 at N = 2,000) overflowed the bounds, which were cleared over and over, more often the
   * larger the show (passage files 5.2 s -> 10.7 s of CPU from N = 1,000 to 2,000 with the bounds, 2.04x without).
   * A long-running server keeps them bounded: what it caches grows with the words its clients send.
   */
  constructor(lang: LanguageSupport, options: { unboundedCaches?: boolean } = {}) {
    this.#scale = options.unboundedCaches ? Infinity : 1;
    this.#cutCache = new RangeCache(CUT_CACHE_LIMIT * this.#scale);
    this.language = lang.key;
    this.#lang = lang;
    const builder = new lunr.Builder();
    lang.plugin.call(builder, builder);
    this.#indexPipeline = builder.pipeline;
    this.#searchPipeline = builder.searchPipeline;
  }

  /** Lower-cased and trimmed of punctuation as the index does, before stop words and stemming; '' if nothing is left. */
  normalize(word: string): string {
    const token = this.#lang.trimmer(new lunr.Token(word.toLowerCase(), {}), 0, []);
    return token ? token.toString() : '';
  }

  isStopWord(normalized: string): boolean {
    return !this.#lang.stopWordFilter(new lunr.Token(normalized, {}), 0, []);
  }

  /** The index term a written word became at build time, or null for stop words and punctuation. */
  term(word: string): string | null {
    const key = word.toLowerCase();
    let term = this.#termCache.get(key);
    if (term === undefined) {
      term = this.#indexPipeline.runString(key).find((t) => t !== '') ?? null;
      if (this.#termCache.size >= CACHE_LIMIT * this.#scale) this.#termCache.clear();
      this.#termCache.set(key, term);
    }
    return term;
  }

  /**
   * The index term of every word of a text, in order ('' for stop words): what words() then term() give, for
   * texts analysed in bulk (/ask scores every passage of its leading episodes). Each raw chunk's result is kept,
   * so a word seen before costs a lookup instead of trimming, lower-casing and the pipeline (bench/, N = 1,000:
   * most of /ask's time).
   */
  indexTerms(text: string): string[] {
    const out: string[] = [];
    const chunk = /[^\s-]+/g;
    for (let m = chunk.exec(text); m; m = chunk.exec(text)) {
      // normalize() and term() lower-case first, so the lower-cased chunk decides the result.
      const raw = m[0].toLowerCase();
      let term = this.#chunkCache.get(raw);
      if (term === undefined) {
        // The word as words() cuts it from the chunk, then term().
        const where = this.#wordIn(raw);
        term = where ? (this.term(raw.slice(where[0], where[0] + where[1])) ?? '') : null;
        if (this.#chunkCache.size >= CHUNK_CACHE_LIMIT * this.#scale) this.#chunkCache.clear();
        this.#chunkCache.set(raw, term);
      }
      if (term !== null) out.push(term);
    }
    return out;
  }

  /** What the search pipeline makes of a normalized word (its stem), stop word or not. */
  stem(normalized: string): string {
    return this.#searchPipeline.runString(normalized).find((t) => t !== '') ?? normalized;
  }

  /**
   * The longest prefix a typed prefix can be looked up by: the index holds stems, and a stem can be shorter than
   * the word ("hydration*" must find the stem "hydrat"), so the prefix is cut to what word and stem share.
   */
  prefixFor(normalized: string): string {
    const stem = this.stem(normalized);
    let i = 0;
    while (i < normalized.length && i < stem.length && normalized[i] === stem[i]) i++;
    return normalized.slice(0, i);
  }

  /** Every word of a text with its position, split and trimmed the way the index splits it. */
  words(text: string): WordSpan[] {
    const { count, starts, ends, terms } = this.wordSpans(text);
    const spans = new Array<WordSpan>(count);
    for (let i = 0; i < count; i++) spans[i] = { text: text.slice(starts[i], ends[i]), start: starts[i]!, end: ends[i]!, term: terms[i]! };
    return spans;
  }

  /**
   * words() as parallel arrays (word i: text.slice(starts[i], ends[i]), its term terms[i]), without an object or
   * a copy of each word: what a snippet reads of a passage's hundred-odd words, most of which it never shows.
   */
  wordSpans(text: string): { count: number; starts: number[]; ends: number[]; terms: Array<string | null> } {
    const starts: number[] = [];
    const ends: number[] = [];
    const terms: Array<string | null> = [];
    // WORD_SEPARATOR's chunks, found by code unit: the cache is looked up in place, without cutting each one out.
    const n = text.length;
    for (let i = 0; i < n; ) {
      if (isSeparator(text.charCodeAt(i))) {
        i++;
        continue;
      }
      const from = i;
      do i++;
      while (i < n && !isSeparator(text.charCodeAt(i)));
      const cut = this.#cutCache.getOrMake(text, from, i, this.#cut);
      if (!cut) continue;
      const start = from + cut.at;
      starts.push(start);
      ends.push(start + cut.length);
      terms.push(cut.term);
    }
    return { count: starts.length, starts, ends, terms };
  }

  /** Where a chunk's word is in it ([offset, length]), or null when only punctuation is left: how words() cuts. */
  #wordIn(raw: string): [number, number] | null {
    const core = this.normalize(raw);
    if (!core) return null;
    // The trimmer only removes characters at the edges, so the core sits inside the raw chunk.
    const at = raw.toLowerCase().indexOf(core);
    return at < 0 ? [0, raw.length] : [at, core.length];
  }
}
