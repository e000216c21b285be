import { describe, expect, it } from 'vitest';
import { episodeKeyed } from './episode-keyed.ts';

describe('episodeKeyed', () => {
  it('is the object made key by key: the same keys, values and JSON, in any order given', () => {
    const entries: Array<[number, { p: number[] }]> = [
      [900, { p: [1, 0.5] }],
      [5, { p: [] }],
      [1_000_000, { p: [3, 2] }],
      [0, { p: [0, 1] }],
    ];
    const plain: Record<string, { p: number[] }> = {};
    for (const [episode, value] of entries) plain[episode] = value;
    const made = episodeKeyed(entries);
    expect(made).toEqual(plain);
    expect(JSON.stringify(made)).toBe(JSON.stringify(plain));
    expect(JSON.stringify(made)).toBe('{"0":{"p":[0,1]},"5":{"p":[]},"900":{"p":[1,0.5]},"1000000":{"p":[3,2]}}');
    // The values themselves, not copies.
    expect(made[900]).toBe(entries[0]![1]);
    expect(episodeKeyed([])).toEqual({});
  });

  it('takes only episode ids', () => {
    for (const bad of [1.5, -1, Number.NaN, 2 ** 53]) expect(() => episodeKeyed([[bad, {}]]), String(bad)).toThrow(RangeError);
  });
});
