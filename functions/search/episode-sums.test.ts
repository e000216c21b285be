import { describe, expect, it } from 'vitest';
import { EpisodeSums } from './episode-sums.ts';
import { bestPassages } from './best-passages.ts';

const bestOf = (sums: EpisodeSums, slot: number, keep: number) => {
  const into = { passages: new Int32Array(keep), scores: new Float64Array(keep) };
  const n = sums.best(slot, into);
  return Array.from({ length: n }, (_, i) => [into.passages[i]!, into.scores[i]!]);
};

describe('EpisodeSums', () => {
  it('maps episode ids to slots, dense or not, and nothing else', () => {
    const dense = new EpisodeSums([3, 1, 2]);
    expect([1, 2, 3].map((id) => dense.slot(id))).toEqual([1, 2, 0]);
    expect([0, 4, -1, 1.5, 1e9].map((id) => dense.slot(id))).toEqual([-1, -1, -1, -1, -1]);
    const sparse = new EpisodeSums([7, 2_000_000_000]);
    expect(sparse.slot(2_000_000_000)).toBe(1);
    expect(sparse.slot(8)).toBe(-1);
    expect(sparse.id(1)).toBe(2_000_000_000);
  });

  it('sums passages in the order first added and picks the best as bestPassages does', () => {
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const sums = new EpisodeSums([10, 20]);
    for (let round = 0; round < 300; round++) {
      sums.begin();
      const flat: number[] = [];
      // Few passages and scores, so that the same passage is added to and ties are common.
      for (let k = Math.floor(random() * 20); k > 0; k--) {
        const p = Math.floor(random() * 8);
        const s = Math.floor(random() * 4) / 2;
        sums.enter(0);
        sums.addPassage(0, p, s);
        const j = flat.findIndex((x, i) => i % 2 === 0 && x === p);
        if (j >= 0) flat[j + 1]! += s;
        else flat.push(p, s);
      }
      for (const keep of [1, 3, 5]) expect(bestOf(sums, 0, keep)).toEqual(bestPassages(flat, keep));
    }
  });

  it('starts each query empty: doc, passages, clauses and the candidates entered', () => {
    const sums = new EpisodeSums([1, 2, 3]);
    sums.begin();
    sums.enter(2);
    sums.enter(0);
    sums.enter(2);
    sums.addDoc(0, 1.5);
    sums.addPassage(0, 4, 2);
    sums.mark(1, 31);
    sums.mark(0, 0);
    expect([sums.count, sums.entered(0), sums.entered(1)]).toEqual([2, 2, 0]);
    expect([sums.has(1, 31), sums.has(1, 0), sums.has(0, 0), sums.has(2, 0)]).toEqual([true, false, true, false]);
    expect(sums.doc(0)).toBe(1.5);
    sums.begin();
    expect(sums.count).toBe(0);
    expect(sums.has(1, 31)).toBe(false);
    sums.enter(0);
    expect([sums.doc(0), bestOf(sums, 0, 3)]).toEqual([0, []]);
  });

  it('holds more passages than its first arrays (they grow)', () => {
    const sums = new EpisodeSums([1, 2]);
    sums.begin();
    for (let p = 0; p < 3000; p++) sums.addPassage(p % 2, p, p);
    expect(bestOf(sums, 1, 2)).toEqual([[2999, 2999], [2997, 2997]]);
    expect(bestOf(sums, 0, 1)).toEqual([[2998, 2998]]);
  });
});
