/**
 * Snippets: the sentence or two of a passage (or description) that best matches the query, with the matched
 * words marked «like this». Guillemets are plain text, so a snippet is safe in JSON, HTML (escaped as usual),
 * a terminal or a chat message, and there is no markup to sanitize; any « or » already in the source text is
 * turned into " so the marks are unambiguous.
 */
import type { Analyzer } from '../../contract/search/analyzer.ts';

export const MARK_OPEN = '«';
export const MARK_CLOSE = '»';
import { SNIPPET_MAX_LENGTH } from '../../contract/search/syntax.ts';
import { sentenceEnds } from '../../contract/search/sentences.ts';

export { SNIPPET_MAX_LENGTH };
const ELLIPSIS = '…';

export interface Snippet {
  /** The snippet text with matched words marked. */
  text: string;
  /** Offset in the source text where the snippet begins (maps the snippet to a cue and a timestamp). */
  offset: number;
}

interface Range {
  start: number;
  end: number;
}

/** Sentence ranges: a sentence ends at . ! ? … (with closing quotes) before whitespace or the end, or at 。！？ (sentences.ts). */
export function sentences(text: string): Range[] {
  const ranges: Range[] = [];
  const end = sentenceEnds();
  let start = skipSpace(text, 0);
  for (let m = end.exec(text); m; m = end.exec(text)) {
    const stop = m.index + m[0].length;
    if (stop > start) ranges.push({ start, end: stop });
    start = skipSpace(text, stop);
  }
  const tail = text.slice(start).trimEnd();
  if (tail) ranges.push({ start, end: start + tail.length });
  return ranges;
}

/**
 * The best sentence (most distinct matched words, then most matches, then earliest), joined with its neighbour
 * when both fit in maxLength, cropped around the first match when a single sentence is longer.
 */
export function makeSnippet(
  text: string,
  terms: ReadonlySet<string>,
  analyzer: Analyzer,
  maxLength = SNIPPET_MAX_LENGTH,
): Snippet {
  // The words as parallel arrays (no object or copy per word: a snippet shows a few of a passage's hundred-odd).
  const { count, starts, ends, terms: wordTerms } = analyzer.wordSpans(text);
  const hits = new Uint8Array(count);
  if (terms.size > 0) for (let i = 0; i < count; i++) hits[i] = wordTerms[i] !== null && terms.has(wordTerms[i]!) ? 1 : 0;
  const ranges = sentences(text);
  if (!ranges.length) return { text: '', offset: 0 };

  // Each sentence's matched words, in one pass (words and sentences are both in text order).
  const stats = ranges.map(() => ({ count: 0, terms: [] as string[] }));
  for (let i = 0, r = 0; i < count && r < ranges.length; i++) {
    while (r < ranges.length && ranges[r]!.end < ends[i]!) r++;
    if (r === ranges.length || !hits[i] || starts[i]! < ranges[r]!.start) continue;
    const st = stats[r]!;
    st.count++;
    if (!st.terms.includes(wordTerms[i]!)) st.terms.push(wordTerms[i]!);
  }
  let best = 0;
  for (let i = 1; i < ranges.length; i++) {
    const a = stats[i]!;
    const b = stats[best]!;
    if (a.terms.length > b.terms.length || (a.terms.length === b.terms.length && a.count > b.count)) best = i;
  }

  const range = { ...ranges[best]! };
  const fits = (r: Range) => r.end - r.start <= maxLength;
  const next = ranges[best + 1];
  const prev = ranges[best - 1];
  if (next && fits({ start: range.start, end: next.end }) && (stats[best + 1]!.count > 0 || range.end - range.start < maxLength / 2)) {
    range.end = next.end;
  } else if (prev && stats[best - 1]!.count > 0 && fits({ start: prev.start, end: range.end })) {
    range.start = prev.start;
  }

  let cropStart = false;
  let cropEnd = false;
  if (!fits(range)) {
    let first = -1;
    for (let i = 0; i < count && first < 0; i++) if (hits[i] && starts[i]! >= range.start && ends[i]! <= range.end) first = i;
    // Start a little before the first match so it has some context, at a word boundary.
    const anchor = first >= 0 ? Math.max(range.start, starts[first]! - Math.floor(maxLength / 4)) : range.start;
    let startWord = -1;
    for (let i = 0; i < count && startWord < 0; i++) if (starts[i]! >= anchor && starts[i]! < range.end) startWord = i;
    const from = anchor === range.start ? range.start : startWord >= 0 ? starts[startWord]! : range.start;
    let to = Math.min(range.end, from + maxLength);
    let lastWhole = -1;
    for (let i = count - 1; i >= 0 && lastWhole < 0; i--) if (ends[i]! <= to && starts[i]! >= from) lastWhole = i;
    // End on a whole word, unless that would throw away most of the room (a run of emoji or symbols, no words).
    if (to < range.end && lastWhole >= 0 && ends[lastWhole]! - from >= maxLength / 2) to = ends[lastWhole]!;
    // Never inside a character as the reader sees it: not between a surrogate pair's halves (a lone half is not text,
    // and strict JSON parsers refuse it), nor between a letter and its combining mark or inside an emoji sequence.
    else if (to < range.end) to = graphemeStart(text, to, from);
    cropStart = from > range.start;
    cropEnd = to < range.end;
    range.start = from;
    range.end = to;
  }

  let out = '';
  let at = range.start;
  for (let i = 0; i < count; i++) {
    const start = starts[i]!;
    const end = ends[i]!;
    if (start < range.start || end > range.end || !hits[i]) continue;
    out += clean(text.slice(at, start)) + MARK_OPEN + clean(text.slice(start, end)) + MARK_CLOSE;
    at = end;
  }
  out += clean(text.slice(at, range.end));
  out = out.replace(/\s+/g, ' ').trim();
  return { text: `${cropStart ? ELLIPSIS : ''}${out}${cropEnd ? ELLIPSIS : ''}`, offset: range.start };
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

const clean = (s: string) => s.replace(/[«»]/g, '"');

function skipSpace(text: string, i: number): number {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
}

const graphemes = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : undefined;

/** The start of the grapheme cluster that holds `at` (no earlier than `floor`): where a cut keeps every cluster whole. */
export function graphemeStart(text: string, at: number, floor: number): number {
  if (!graphemes) return isLowSurrogate(text.charCodeAt(at)) ? at - 1 : at;
  // A window is enough: no cluster a reader meets is longer (one family emoji is 11 code units).
  const from = Math.max(floor, at - 64);
  const cluster = graphemes.segment(text.slice(from, Math.min(text.length, at + 64))).containing(at - from);
  return cluster ? from + cluster.index : at;
}
