import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lunr from 'lunr';
import { afterEach, describe, expect, it } from 'vitest';
import { configureParseCache, parseCacheStats } from '../../content/parse-cache.ts';
import { analysePassages, analyseShow, episodeAnalyser, GROUP_CODEC, lastMergeStats } from './analysis.ts';
import { showPassages } from './passages.ts';

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

  it("shares an episode's analysis between the per-episode files and the index: one made, the other read back", async () => {
    dir = mkdtempSync(join(tmpdir(), 'analysis-cache-'));
    configureParseCache(dir);
    const episode7 = [passage(7, 'Scout bees search', 'for a new home'), passage(7, 'and dance for the sites')];
    const before = parseCacheStats();
    // The per-episode thread's path (bulk-documents.ts episodeDocuments), then the index's (analysePassages).
    const own = (await episodeAnalyser('en'))(7, episode7);
    const mid = parseCacheStats();
    expect(mid.misses - before.misses).toBe(1);
    const show = await analysePassages([...episode7, passage(8, 'tides and the moon')], 'en');
    expect(parseCacheStats().hits - mid.hits).toBe(1);
    expect(parseCacheStats().misses - mid.misses).toBe(1);
    expect(show.words.slice(0, 2).map((w) => [...w].map((id) => (id < 0 ? '' : show.terms[id])))).toEqual(
      own.words.map((w) => [...w].map((id) => (id < 0 ? '' : own.terms[id]))),
    );
  });

  it('reads back from the cache the same analysis it computed, stop words in place', async () => {
    dir = mkdtempSync(join(tmpdir(), 'analysis-cache-'));
    configureParseCache(dir);
    const show = [passage(4, 'The bees were dancing for the sites', ''), passage(4, 'and then'), passage(5, 'a well-known hive of bees')];
    const computed = await analysePassages(show, 'en');
    // The memo keeps only the latest set: after another one, the show is read from the folder.
    await analysePassages([passage(6, 'something else')], 'en');
    const before = parseCacheStats();
    const read = await analysePassages(show, 'en');
    expect(parseCacheStats().hits - before.hits).toBe(2);
    expect(parseCacheStats().misses - before.misses).toBe(0);
    expect(read.terms).toEqual(computed.terms);
    expect(read.words.map((w) => [...w])).toEqual(computed.words.map((w) => [...w]));
    expect(computed.words[1]!.every((id) => id === -1)).toBe(true);
    expect(computed.passages.map((p) => [...p])).toEqual(computed.words.map((w) => [...w].filter((id) => id >= 0)));
  });
});

describe("analysePassages: the show's vocabulary kept from one build to the next", () => {
  const show = [passage(1, 'alpha beta', 'gamma alpha'), passage(2, 'delta beta'), passage(3, 'epsilon zeta alpha'), passage(4, 'eta theta')];
  type Show = typeof show;
  const plain = (a: Awaited<ReturnType<typeof analysePassages>>) => ({ terms: a.terms, passages: a.passages.map((p) => [...p]), words: a.words.map((w) => [...w]) });
  const vocabulary = () => join(dir!, 'search-vocabulary.bin');
  /** With no cache folder: nothing read or kept. Analysing another set is also how the memo is emptied. */
  const uncached = async (passages: Show) => {
    configureParseCache(undefined);
    try {
      return plain(await analysePassages(passages, 'en'));
    } finally {
      configureParseCache(dir);
    }
  };
  /** As a build with the folder does it (the memo emptied first, so the groups are merged again), and the merge's figures. */
  const built = async (passages: Show) => {
    await uncached([passage(99, 'unrelated')]);
    const analysis = plain(await analysePassages(passages, 'en'));
    return { analysis, merge: lastMergeStats() };
  };
  /** As a build without any cache does it. */
  const reference = async (passages: Show) => {
    await uncached([passage(99, 'unrelated')]);
    return uncached(passages);
  };

  it('merges an episode added after the others onto the kept vocabulary, with the same result as from nothing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'analysis-cache-'));
    configureParseCache(dir);
    expect((await built(show)).merge).toEqual({ groups: 4, reused: 0 });

    const added = [...show, passage(5, 'iota alpha kappa', 'beta')];
    const merged = await built(added);
    expect(merged.merge).toEqual({ groups: 5, reused: 4 });
    expect(merged.analysis).toEqual(await reference(added));

    // Nothing changed: every group reused, and the kept vocabulary is not written again.
    const file = statSync(vocabulary()).ino;
    expect(await built(added)).toEqual({ analysis: merged.analysis, merge: { groups: 5, reused: 5 } });
    expect(statSync(vocabulary()).ino).toBe(file);
  });

  it('merges again from the first episode that changed, and from nothing when the kept vocabulary is damaged', async () => {
    dir = mkdtempSync(join(tmpdir(), 'analysis-cache-'));
    configureParseCache(dir);
    await built(show);
    const edited = [show[0]!, passage(2, 'delta omega beta'), show[2]!, show[3]!];
    expect(await built(edited)).toEqual({ analysis: await reference(edited), merge: { groups: 4, reused: 1 } });

    const removed = edited.slice(0, 3);
    expect(await built(removed)).toEqual({ analysis: await reference(removed), merge: { groups: 3, reused: 3 } });
    expect(await built(edited)).toEqual({ analysis: await reference(edited), merge: { groups: 4, reused: 3 } });

    // A show without any transcript has nothing to merge, with or without a kept vocabulary.
    expect(await built([])).toEqual({ analysis: { terms: [], passages: [], words: [] }, merge: { groups: 0, reused: 0 } });
    expect(await reference([])).toEqual({ terms: [], passages: [], words: [] });

    writeFileSync(vocabulary(), 'not a vocabulary');
    expect(await built(edited)).toEqual({ analysis: await reference(edited), merge: { groups: 4, reused: 0 } });
  });
});

describe('GROUP_CODEC', () => {
  const group = { terms: ['bee', 'hive', 'dänc'], words: [Int32Array.of(0, -1, 1), new Int32Array(0), Int32Array.of(-1, 2, 2, 0)] };
  const plain = (g: { terms: string[]; words: ArrayLike<number>[] }) => ({ terms: g.terms, words: g.words.map((w) => Array.from(w)) });

  it('gives back the terms and every passage, empty ones and stop words included', () => {
    expect(plain(GROUP_CODEC.decode(GROUP_CODEC.encode(group)))).toEqual(plain(group));
  });

  it('reads bytes that start at any offset of their buffer', () => {
    const bytes = GROUP_CODEC.encode(group);
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    expect(plain(GROUP_CODEC.decode(shifted.subarray(3)))).toEqual(plain(group));
  });

  it('refuses a truncated entry (the cache then computes again)', () => {
    const bytes = GROUP_CODEC.encode(group);
    expect(() => GROUP_CODEC.decode(bytes.subarray(0, bytes.byteLength - 4))).toThrow(/damaged/);
  });
});

describe('analyseShow: unchanged episodes analysed without making their passages', () => {
  /** An episode whose cues count how often they are read; `digest` names its transcript as the loader does. */
  const episode = (id: number, digest: string, ...texts: string[]) => {
    const cues = texts.map((text, i) => ({ start: 40 * i, end: 40 * i + 39, text: text && `${text}.` }));
    const read = { count: 0 };
    return {
      read,
      e: {
        id,
        transcript: { format: 'srt', digest },
        get cues() {
          read.count++;
          return cues;
        },
      },
    };
  };
  const plain = (a: Awaited<ReturnType<typeof analyseShow>>) => ({ terms: a.terms, passages: a.passages.map((p) => [...p]), words: a.words.map((w) => [...w]), groups: a.groups });

  it('gives what analysePassages of the show\'s passages gives, and reads an unchanged episode\'s by its transcript', async () => {
    dir = mkdtempSync(join(tmpdir(), 'analysis-cache-'));
    configureParseCache(dir);
    const make = () => [
      episode(3, 'c', 'Scout bees search for a new home', 'and dance for the sites they found', 'The swarm follows'),
      episode(1, 'a', 'Winter bees live five months'),
      episode(2, 'b', ''),
    ];
    const first = make();
    const episodes = first.map((x) => x.e);
    const shown = await analyseShow(episodes, 'en');
    expect(await analyseShow(episodes, 'en')).toBe(shown);
    // Episode 2's only cue holds no words: no passage, no group; the others by id, as buildPassages orders them.
    expect(plain(shown)).toEqual(plain(await analysePassages(showPassages(episodes), 'en')));
    expect(shown.groups).toEqual([
      { episode: 1, count: 1 },
      { episode: 3, count: 3 },
    ]);

    // The next build: new objects, the same transcripts but episode 1's.
    const second = make();
    const changed = episode(1, 'a2', 'Winter bees live five months, summer bees six weeks');
    second[1] = changed;
    const before = parseCacheStats();
    const again = await analyseShow(second.map((x) => x.e), 'en');
    expect(second[0]!.read.count).toBe(0);
    expect(changed.read.count).toBeGreaterThan(0);
    expect(parseCacheStats().misses - before.misses).toBe(1);
    expect(plain(again)).toEqual(plain(await analysePassages(showPassages(second.map((x) => x.e)), 'en')));

    // Its analysis no longer kept (a cache pruned), an unchanged episode's passages are made again to analyse it.
    for (const name of readdirSync(dir)) if (name.endsWith('.bin') && !name.startsWith('search-')) rmSync(join(dir, name));
    const third = make();
    third[1] = changed;
    const rebuilt = await analyseShow(third.map((x) => x.e), 'en');
    expect(third[0]!.read.count).toBeGreaterThan(0);
    expect(plain(rebuilt)).toEqual(plain(again));
  });

  it('makes every passage without a cache folder, or for an episode whose transcript has no digest', async () => {
    const x = episode(4, 'd', 'Tides and the moon');
    const { digest: _digest, ...undigested } = x.e.transcript;
    const y = { ...episode(5, 'e', 'Rip currents pull out to sea').e, transcript: undigested };
    const shown = await analyseShow([x.e, y], 'en');
    expect(x.read.count).toBeGreaterThan(0);
    expect(plain(shown)).toEqual(plain(await analysePassages(showPassages([x.e, y]), 'en')));
  });
});
