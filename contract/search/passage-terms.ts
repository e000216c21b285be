/**
 * What /ask reads of a transcript passage besides its text: the index term of each word, in order ('' for a stop
 * word, so distances between words stay as spoken), and the terms of each question asked in it (the host's "So
 * how do they ...?" names a topic in plain words). The build computes it once per passage and publishes it beside
 * the passages (contract/schemas/search-passages.ts, PassageTermsSchema); the request path reads that instead of
 * analysing ~100 passages per question, which was a third of /ask's time at N = 1,000 (bench/). A build without
 * the files (or a reader that failed to load one) gets the same result from analysePassage on the fly.
 */
import type { Analyzer } from './analyzer.ts';

export interface PassageAnalysis {
  /** The index term of every word in order; '' for a stop word. */
  terms: string[];
  /** The index terms (stop words left out) of each sentence that ends with a question mark. */
  questions: string[][];
  /** How many words address the listener ("you", "your", ...: secondPersonWords), for first-person questions. */
  addressed: number;
}

/** The speaker addressing the listener: how advice is given ("you want to wait an hour", "your starter"). */
const SECOND_PERSON_EN = /\b(you|your|you're|you'll|yourself|you've)\b/gi;

/**
 * How many words of a text address the listener (English second person): what /ask weighs, for a question asked
 * in the first person ("should I ...?" is answered "you should ..."), counted here so that the build can publish it
 * per passage and a question need not read the passage's text.
 */
export function secondPersonWords(text: string): number {
  return text.match(SECOND_PERSON_EN)?.length ?? 0;
}

/** The sentences of a text that end with a question mark. */
export function questionsIn(text: string): string[] {
  // Split at sentence ends, then keep the questions (a linear scan: /[^.!?]*\?/g backtracks quadratically).
  return text.split(/(?<=[.!?…])\s+/).filter((sentence) => sentence.trimEnd().endsWith('?'));
}

/** The index terms of each question (sentence ending with "?") in a text. */
export function questionTerms(text: string, analyzer: Analyzer): string[][] {
  return questionsIn(text).map((q) => analyzer.indexTerms(q).filter(Boolean));
}

/** A passage's text (its cues joined by spaces) as /ask reads it. */
export function analysePassage(text: string, analyzer: Analyzer): PassageAnalysis {
  return { terms: analyzer.indexTerms(text), questions: questionTerms(text, analyzer), addressed: secondPersonWords(text) };
}
