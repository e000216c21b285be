/**
 * A shard of the transcript index as the engine keeps it (LoadedShard): every posting in a few shared typed
 * arrays and the terms in one string. Each term's posting must read back as published, and nothing else match.
 */
import { describe, expect, it } from 'vitest';
import { LoadedShard, type Posting } from './engine.ts';

/** A posting read back as the published shape: episode → [passage, score, ...]. */
function published(posting: Posting | undefined): Record<string, number[]> | undefined {
  if (!posting) return undefined;
  const out: Record<string, number[]> = {};
  posting.episodes.forEach((episode, k) => {
    const p: number[] = [];
    for (let i = posting.at[k]!; i < posting.at[k + 1]!; i++) p.push(posting.passages[i]!, posting.scores[i]!);
    out[episode] = p;
  });
  return out;
}

describe('a loaded shard', () => {
  const postings: Record<string, Record<string, number[]>> = {
    bee: { 3: [4, 2.5, 9, 1.25], 12: [0, 0.5] },
    beehiv: { 12: [7, 3.75] },
    café: { 1: [2, 1] },
    drone: {},
    zebra: { 2: [1, 0.125, 5, 0.0625, 6, 0.03125] },
  };
  const serialized = {
    invertedIndex: Object.entries(postings).map(
      ([term, refs], k) => [term, { df: 10 + k, text: Object.fromEntries(Object.entries(refs).map(([e, p]) => [e, { p }])) }] as [string, never],
    ),
  };

  it('reads every term\'s posting back as published, and has no other term', () => {
    const shard = new LoadedShard(0, serialized);
    expect(shard.size).toBe(5);
    for (const [term, refs] of Object.entries(postings)) {
      expect(shard.has(term)).toBe(true);
      expect(published(shard.posting(term)), term).toEqual(refs);
      expect(shard.posting(term)!.df, term).toBe(10 + Object.keys(postings).indexOf(term));
      expect(shard.posting(term)!.idf, term).toBe(1);
    }
    for (const other of ['', 'be', 'beeh', 'beehive', 'cafe', 'zebras', 'a', 'zz']) {
      expect(shard.has(other), other).toBe(false);
      expect(shard.posting(other)).toBeUndefined();
    }
    expect(shard.expand('', true, false)).toEqual(Object.keys(postings));
    expect(shard.expand('bee', true, false)).toEqual(['bee', 'beehiv']);
    expect(shard.expand('be', false, false)).toEqual([]);
    expect(shard.expand('cafe', false, true)).toEqual(['café']);
    expect(shard.expand('bees', false, true)).toEqual(['bee']);
    expect(shard.bytes).toBeGreaterThan(1024);
    expect(shard.bytes).toBeLessThan(1024 + 270);
  });

  it('refuses a shard whose terms are not in code-unit order, or not a serialized index', () => {
    const [a, b] = serialized.invertedIndex;
    expect(() => new LoadedShard(1, { invertedIndex: [b!, a!] })).toThrow(/order/);
    expect(() => new LoadedShard(1, { invertedIndex: [a!, a!] })).toThrow(/order/);
    expect(() => new LoadedShard(2, {} as never)).toThrow(/serialized Lunr index/);
    expect(new LoadedShard(3, { invertedIndex: [] }).has('bee')).toBe(false);
    // Layout 4's shards had the scores and no df: such a shard is refused, not misread.
    expect(() => new LoadedShard(4, { invertedIndex: [['bee', { text: { 1: { p: [0, 1.5] } } }] as [string, never]] })).toThrow(/no df/);
  });
});
