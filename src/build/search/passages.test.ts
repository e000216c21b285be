import { describe, expect, it } from 'vitest';
import { buildPassages, PASSAGE_WINDOW, showPassages } from './passages.ts';

const cue = (start: number, text: string) => ({ start, end: start + 10, text });
const episodes = [
  { id: 2, cues: [cue(0, 'Two opens.'), cue(10, 'It goes on.'), cue(20, 'And on.'), cue(30, 'Then it ends.'), cue(40, 'Bye.')] },
  { id: 1, cues: [cue(0, 'One speaks.'), cue(10, 'Briefly.')] },
];

describe('showPassages', () => {
  it("makes a show's passages once per episodes array and window, as buildPassages does", () => {
    const first = showPassages(episodes);
    expect(first).toEqual(buildPassages(episodes));
    expect(first.map((p) => p.episode)).toEqual([1, 2, 2]);
    expect(showPassages(episodes, PASSAGE_WINDOW)).toBe(first);

    const short = { minSeconds: 10, maxSeconds: 20 };
    expect(showPassages(episodes, short)).toEqual(buildPassages(episodes, short));
    expect(showPassages(episodes, short)).not.toEqual(first);
    // Another array of the same episodes is another show as far as the memo knows: made again, equal.
    const copy = [...episodes];
    expect(showPassages(copy)).not.toBe(first);
    expect(showPassages(copy)).toEqual(first);
  });
});
