/**
 * Where a sentence ends, in one place for the passages the build cuts, the transcript's paragraphs and the
 * snippets: Latin `. ! ? …`, Arabic `؟`, Devanagari `। ॥`, and the full-width `。！？` of Chinese and Japanese, each
 * with any closing quotes or brackets after it. The full-width marks need no space after them: those scripts put none
 * between sentences.
 */
const CLOSERS = `["'’”)\\]」』）》]*`;
const SPACED = '[.!?…؟।॥]';
const UNSPACED = '[。！？]';

/** A text (a cue, a paragraph's last cue) that ends a sentence. */
export const ENDS_SENTENCE = new RegExp(`(?:${SPACED}|${UNSPACED})${CLOSERS}$`, 'u');

/** Each sentence end in a text (global: a new one per use, as exec keeps its place in lastIndex). */
export function sentenceEnds(): RegExp {
  return new RegExp(`${SPACED}+${CLOSERS}(?=\\s|$)|${UNSPACED}+${CLOSERS}`, 'gu');
}
