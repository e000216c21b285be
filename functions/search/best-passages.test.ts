import { describe, expect, it } from 'vitest';
import { bestPassages } from './best-passages.ts';

/** What the engine did before: every pair, sorted (best score first, ties: the earlier passage). */
const sorted = (flat: number[]) => {
  const all: Array<[number, number]> = [];
  for (let j = 0; j < flat.length; j += 2) all.push([flat[j]!, flat[j + 1]!]);
  return all.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
};

describe('bestPassages', () => {
  it('keeps the same first passages as sorting them all, ties to the earlier passage', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 500; round++) {
      const n = Math.floor(random() * 12);
      const passages = [...Array(40).keys()].sort(() => random() - 0.5).slice(0, n);
      // Few distinct scores, so that ties are common.
      const flat = passages.flatMap((p) => [p, Math.floor(random() * 4) / 2]);
      for (const keep of [0, 1, 3, 5, Infinity]) expect(bestPassages(flat, keep)).toEqual(sorted(flat).slice(0, keep));
    }
  });

  it('reads a list that is already in order, or reversed', () => {
    expect(bestPassages([1, 3, 2, 2, 3, 1], 2)).toEqual([[1, 3], [2, 2]]);
    expect(bestPassages([3, 1, 2, 2, 1, 3], 2)).toEqual([[1, 3], [2, 2]]);
    expect(bestPassages([5, 1, 4, 1, 9, 1], Infinity)).toEqual([[4, 1], [5, 1], [9, 1]]);
  });
});
