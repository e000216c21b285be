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
  /** The kinds of answer the passage holds (answerKinds: a duration, a number, a date), as ANSWER_KIND bits; absent: none. */
  answers?: number;
}

/** The kinds of answer a "how long / how many / when" question asks for, as bits (answerKinds, expectedAnswer). */
export const ANSWER_KIND = { duration: 1, number: 2, date: 4 } as const;

const NUMBER_WORD = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million';
/** "an hour", "three to five days", "twenty-four hours", "a few weeks", "1.5 years" (English). */
const DURATION_EN = new RegExp(
  `\\b(?:\\d[\\d,.]*|${NUMBER_WORD}|a few|several|an?|half an?)(?:[- ](?:and a half|or \\w+))?[- ](?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|decades?|centuries|nights?)\\b`,
  'i',
);
/** A number, in digits or words, or a percentage (English). */
const NUMBER_EN = new RegExp(`\\b(?:\\d[\\d,.]*|${NUMBER_WORD}|percent)\\b`, 'i');
/** A year (1500-2099, or said as "nineteen ninety-one", "twenty twenty-three"), a month, a century, "ago" (English). */
const DATE_EN = new RegExp(
  '\\b(?:1[5-9]\\d\\d|20\\d\\d|(?:sixteen|seventeen|eighteen|nineteen) (?:hundred|oh|[a-z]+ty|ten|eleven|twelve|[a-z]+teen)|two thousand|' +
    'twenty (?:oh|ten|eleven|twelve|[a-z]+teen|twenty)|January|February|March|April|May|June|July|August|September|October|November|December|century|ago)\\b',
);

/**
 * The kinds of answer a passage's text holds (English), as ANSWER_KIND bits: a duration ("let the loaf cool for at
 * least an hour"), a number, a date ("Pinatubo in 1991"). A question that asks "how long", "how many" or "when"
 * (expectedAnswer) prefers a moment that says one.
 */
export function answerKinds(text: string): number {
  return (DURATION_EN.test(text) ? ANSWER_KIND.duration : 0) | (NUMBER_EN.test(text) ? ANSWER_KIND.number : 0) | (DATE_EN.test(text) ? ANSWER_KIND.date : 0);
}

/**
 * The kind of answer an English question asks for by its opening words, as ANSWER_KIND bits, 0 for none: "how
 * long / how often" a duration, "how many / much / far / big ..." a number, "when" a date.
 */
export function expectedAnswer(question: string): number {
  const q = question.trimStart();
  if (/^how (?:long|often)\b/i.test(q)) return ANSWER_KIND.duration;
  if (/^how (?:many|much|far|big|fast|old|tall|deep|hot|cold|high)\b/i.test(q)) return ANSWER_KIND.number;
  if (/^when\b/i.test(q)) return ANSWER_KIND.date;
  return 0;
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
  // Most passages ask nothing: no sentence split for them.
  if (!text.includes('?')) return [];
  return questionsIn(text).map((q) => analyzer.indexTerms(q).filter(Boolean));
}

/**
 * A passage's text (its cues joined by spaces) as /ask reads it. `terms`: its index terms when the caller has them
 * already (the build, from the index's own analysis).
 */
export function analysePassage(text: string, analyzer: Analyzer, terms: string[] = analyzer.indexTerms(text)): PassageAnalysis {
  const answers = answerKinds(text);
  return { terms, questions: questionTerms(text, analyzer), addressed: secondPersonWords(text), ...(answers ? { answers } : {}) };
}
