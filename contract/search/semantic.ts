/**
 * /search/semantic.json: related terms for question words, built by src/build/search/semantic.ts and read by
 * functions/search/ask-understanding.ts. `related` maps a stem (what the analyzer makes of a word a listener may
 * type) to a space-separated list "term weight term weight ...": index terms of this show, best first, with a
 * weight in hundredths (a question's own words weigh 100).
 */
export interface SemanticData {
  version: 1;
  /** The analyzer language the stems were made with (must match /search/passages.json). */
  language: string;
  related: Record<string, string>;
  /**
   * How common a word is in everyday English (English shows): stem → how often its senses occur in WordNet's
   * SemCor corpus, for the commonest words only (at least GENERIC_MIN). A question's common words ("long", "make",
   * "people") say less about where the answer is than its rare ones ("loaf", "haze").
   */
  generic?: Record<string, number>;
  /**
   * The licence of the data this file is derived from, where that licence asks to travel with every copy: WordNet's
   * copyright notice and disclaimer for English shows (the related terms and `generic` come from WordNet 3.1).
   */
  notice?: string;
}

/** The least SemCor count that /search/semantic.json's `generic` lists. */
export const GENERIC_MIN = 10;

export interface RelatedTerm {
  term: string;
  weight: number;
}

/** The related terms of a stem, best first; [] when the artifact has none. */
export function relatedTerms(data: SemanticData | undefined, stem: string): RelatedTerm[] {
  const line = data && Object.hasOwn(data.related, stem) ? data.related[stem]! : '';
  if (!line) return [];
  const parts = line.split(' ');
  const out: RelatedTerm[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push({ term: parts[i]!, weight: Number(parts[i + 1]) / 100 });
  return out;
}
