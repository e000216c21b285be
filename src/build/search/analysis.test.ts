import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lunr from 'lunr';
import { afterEach, describe, expect, it } from 'vitest';
import { configureParseCache, parseCacheStats } from '../../content/parse-cache.ts';
import { analysePassages } from './analysis.ts';

const passage = (episode: number, ...texts: string[]) => ({ episode, start: 0, end: 1, cues: texts.map((t, i) => [i, t] as [number, string]) });

let dir: string | undefined;
afterEach(() => {
  configureParseCache(undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('analysePassages', () => {
  it("gives every word's term as Lunr's tokenizer and English index pipeline do", async () => {
    const passages = [passage(1, 'The Engines were running,', 'well-known RUNNERS!'), passage(1, 'and the runners ran')];
    const { terms, passages: analysed } = await analysePassages(passages, 'en');
    const expected = (text: string) => lunr.tokenizer(text).map((t) => lunr.stemmer(lunr.stopWordFilter(lunr.trimmer(t)) ?? new lunr.Token('', {}))).map(String).filter(Boolean);
    expect(analysed.map((ids) => [...ids].map((i) => terms[i]))).toEqual([
      expected('The Engines were running, well-known RUNNERS!'),
      expected('and the runners ran'),
    ]);
  });

  it('analyses per episode, cached by content: a changed episode is analysed again, the others are not', async () => {
    dir = mkdtempSync(join(tmpdir(), 'analysis-cache-'));
    configureParseCache(dir);
    const show = [passage(1, 'alpha beta'), passage(1, 'gamma'), passage(2, 'delta epsilon'), passage(3, 'zeta eta theta')];
    const before = parseCacheStats();
    const first = await analysePassages(show, 'en');
    expect(parseCacheStats().misses - before.misses).toBe(3);

    const changed = [...show.slice(0, 2), passage(2, 'delta epsilon iota'), show[3]!];
    const mid = parseCacheStats();
    const second = await analysePassages(changed, 'en');
    expect(parseCacheStats().misses - mid.misses).toBe(1);
    expect(parseCacheStats().hits - mid.hits).toBe(2);
    const words = (a: typeof first) => a.passages.map((ids) => [...ids].map((i) => a.terms[i]));
    expect(words(second)).toEqual([...words(first).slice(0, 2), ['delta', 'epsilon', 'iota'], words(first)[3]]);
  });
});
