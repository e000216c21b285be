import { describe, expect, it } from 'vitest';
import { QueryMatches } from './query-matches.ts';
import type { Posting } from './engine.ts';

/** A posting of episodes (ascending) → [passage, weight, ...], its weights times `idf`. */
const posting = (byEpisode: Record<number, number[]>, idf = 1): Posting => {
  const episodes = Object.keys(byEpisode).map(Number);
  const at = [0];
  const passages: number[] = [];
  const scores: number[] = [];
  for (const e of episodes) {
    const flat = byEpisode[e]!;
    for (let i = 0; i < flat.length; i += 2) passages.push(flat[i]!), scores.push(flat[i + 1]!);
    at.push(passages.length);
  }
  return { episodes: Int32Array.from(episodes), at: Int32Array.from(at), passages: Int32Array.from(passages), scores: Float64Array.from(scores), df: 1, idf };
};

describe('QueryMatches', () => {
  const matched = new QueryMatches(2);
  matched.postings.push(
    { term: 'bee', posting: posting({ 1: [4, 1, 7, 0.5], 3: [0, 2] }), boost: 1 },
    { term: 'hive', posting: posting({ 3: [0, 0.5], 5: [2, 0.5] }, 2), boost: 0.5 },
    { term: 'bee', posting: posting({ 1: [7, 1] }), boost: 2 },
  );
  matched.metadata.push(
    { matches: [{ id: 3, score: 2, terms: ['hive', 'bee'] }], unit: 1, boost: 1 },
    { matches: [{ id: 9, score: 1, terms: ['wax'] }, { id: 3, score: 1, terms: ['bee', 'wax'] }], unit: 2, boost: 0.5 },
  );

  it('reads an episode\'s terms and passages as the ranking summed them', () => {
    expect(matched.terms(1)).toEqual(['bee']);
    expect(matched.terms(3)).toEqual(['bee', 'hive']);
    expect(matched.terms(2)).toEqual([]);
    expect(matched.passages(1)).toEqual([4, 1, 7, 2.5]);
    expect(matched.passages(3)).toEqual([0, 2.5]);
    expect(matched.momentsOf(1)).toEqual([7, 4]);
  });

  it('reads its metadata terms and score', () => {
    expect(matched.docTerms(3)).toEqual(['hive', 'bee', 'wax']);
    expect(matched.docTerms(1)).toEqual([]);
    expect(matched.doc(3)).toBe(2 + 0.5 * 1 * 2);
  });

  it('gives /ask an episode\'s postings by term (a term read twice: the last reading)', () => {
    expect([...matched.postingsOf(3)]).toEqual([['bee', [0, 2]], ['hive', [0, 1]]]);
    expect([...matched.postingsOf(1)]).toEqual([['bee', [7, 1]]]);
  });
});
