/** TopK keeps what sorting the whole stream and taking the first k would give. */
import { describe, expect, it } from 'vitest';
import { TopK } from './top-k.ts';

type Entry = { id: number; score: number; passage: number };
const byRank = (a: Entry, b: Entry) => b.score - a.score || a.id - b.id;

function stream(n: number, seed: number, distinctScores: number): Entry[] {
  let x = seed;
  const random = () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  // Ids shuffled, scores drawn from a few values so that ties by id decide often.
  const ids = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.map((id) => ({ id, score: Math.round(random() * distinctScores) / 4, passage: Math.floor(random() * 50) - 1 }));
}

describe('TopK', () => {
  it('keeps the k best in the ranking order, ties by id ascending, for any stream', () => {
    for (const [n, k, distinct] of [
      [1, 1, 3],
      [10, 3, 2],
      [500, 10, 4],
      [2000, 10, 1000],
      [2000, 60, 6],
      [37, 37, 5],
      [5, 50, 3],
    ] as const) {
      for (const seed of [1, 7, 42]) {
        const entries = stream(n, seed, distinct);
        const top = new TopK(k);
        for (const e of entries) top.offer(e.id, e.score, e.passage);
        expect(top.sorted(), `n ${n} k ${k} seed ${seed}`).toEqual([...entries].sort(byRank).slice(0, k));
      }
    }
  });

  it('prefers the lower id among equal scores whatever the order they come in', () => {
    const top = new TopK(2);
    for (const id of [9, 3, 7, 1, 5]) top.offer(id, 1, id * 10);
    expect(top.sorted()).toEqual([
      { id: 1, score: 1, passage: 10 },
      { id: 3, score: 1, passage: 30 },
    ]);
  });

  it('keeps passage -1 (a hit without a passage) as given, and refuses a k that is not a positive integer', () => {
    const top = new TopK(1);
    top.offer(4, 0.5, -1);
    expect(top.sorted()).toEqual([{ id: 4, score: 0.5, passage: -1 }]);
    expect(new TopK(3).sorted()).toEqual([]);
    expect(() => new TopK(0)).toThrow(RangeError);
    expect(() => new TopK(2.5)).toThrow(RangeError);
  });
});
