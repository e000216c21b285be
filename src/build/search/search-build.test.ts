import { describe, expect, it } from 'vitest';
import lunr from 'lunr';
import { buildPassages, PASSAGE_WINDOW } from './passages.ts';
import { buildLunrIndex } from './lunr-index.ts';
import { buildShardedIndex, numberJson, segmentSizes, SEGMENT_EPISODES, Shards } from './sharded-index.ts';
import { decodePassages } from '../../../contract/schemas/search-passages.ts';
import type { Cue } from '../../content/srt.ts';

/** Cues of `seconds` each, every `sentenceEvery`-th one ending a sentence. */
function cues(count: number, seconds: number, sentenceEvery: number): Cue[] {
  return Array.from({ length: count }, (_, i) => ({
    start: i * seconds,
    end: i * seconds + seconds - 0.1,
    text: `words of cue ${i}${(i + 1) % sentenceEvery === 0 ? '.' : ','}`,
  }));
}

describe('buildPassages', () => {
  it('closes a passage at the first sentence end after 30 s, and at 60 s at the latest', () => {
    const passages = buildPassages([{ id: 1, cues: cues(100, 4, 5) }]);
    for (const p of passages.slice(0, -1)) {
      const length = p.end - p.start;
      expect(length).toBeGreaterThanOrEqual(PASSAGE_WINDOW.minSeconds);
      expect(length).toBeLessThan(PASSAGE_WINDOW.maxSeconds + 4);
      expect(p.cues.at(-1)![1].endsWith('.')).toBe(true);
    }
  });

  it('cuts mid-sentence when no sentence ends within 60 s', () => {
    const passages = buildPassages([{ id: 1, cues: cues(60, 5, 1000) }]);
    expect(passages.length).toBeGreaterThan(1);
    for (const p of passages.slice(0, -1)) expect(p.end - p.start).toBeGreaterThanOrEqual(PASSAGE_WINDOW.maxSeconds - 0.1);
  });

  it('keeps every cue once, in order, and never mixes episodes', () => {
    const input = [
      { id: 2, cues: cues(40, 3, 4) },
      { id: 1, cues: cues(33, 4, 3) },
      { id: 3, cues: null },
    ];
    const passages = buildPassages(input);
    expect([...new Set(passages.map((p) => p.episode))]).toEqual([1, 2]);
    for (const { id, cues: own } of input) {
      const flat = passages.filter((p) => p.episode === id).flatMap((p) => p.cues);
      expect(flat).toEqual((own ?? []).map((c) => [c.start, c.text]));
    }
  });

  it('joins a short tail to the passage before it', () => {
    // 36 s of cues ending a sentence, then a 4 s sign-off.
    const passages = buildPassages([{ id: 1, cues: [...cues(9, 4, 9), { start: 36, end: 40, text: 'Bye.' }] }]);
    expect(passages).toHaveLength(1);
    expect(passages[0]!.end).toBe(40);
  });
});

describe('buildLunrIndex', () => {
  const episodes = [
    { id: 1, title: 'Sourdough', desc: 'Bread.', topics: ['baking'], guests: ['Ines'], chapters: [{ title: 'Starters' }] },
    { id: 2, title: 'Tides', desc: 'The sea.', topics: ['ocean'], guests: ['Fiona'], chapters: [] },
  ];
  const passages = buildPassages([
    { id: 1, cues: [{ start: 0, end: 40, text: 'Sourdough starters need flour and water every day.' }] },
    { id: 2, cues: [{ start: 0, end: 40, text: 'The moon pulls the sea twice a day.' }] },
  ]);

  it('holds episode documents (ref e<id>) and passages (ref = index in passages.json)', async () => {
    const index = await buildLunrIndex(episodes, passages, 'en');
    expect(index.search('ines').map((r) => r.ref)).toEqual(['e1']);
    expect(index.search('moon').map((r) => r.ref)).toEqual(['1']);
    expect(passages[1]!.episode).toBe(2);
  });

  it('survives serialization and loading, as offline apps use it', async () => {
    const index = lunr.Index.load(JSON.parse(JSON.stringify(await buildLunrIndex(episodes, passages, 'en'))));
    expect(index.search('starter').map((r) => r.ref).sort()).toEqual(['0', 'e1']);
  });

  it('normalizes field lengths over the documents that have the field, so titles are not crushed', async () => {
    const boosts = { title: 1, topics: 1, guests: 1, chapters: 1, description: 1, text: 1 };
    // As in a real show, passages far outnumber episodes; Lunr's own average would count them as empty titles.
    const many = buildPassages([
      { id: 1, cues: [{ start: 0, end: 40, text: 'Sourdough starters need flour and water every day.' }] },
      { id: 2, cues: Array.from({ length: 40 }, (_, i) => ({ start: i * 40, end: i * 40 + 39, text: `The moon pulls the sea, part ${i}.` })) },
    ]);
    const index = await buildLunrIndex(episodes, many, 'en', boosts);
    const titleHit = index.query((q) => q.term('sourdough', { fields: ['title'] }))[0]!;
    const textHit = index.query((q) => q.term('sourdough', { fields: ['text'] }))[0]!;
    // A one-word title holding the word is at least as strong as a nine-word passage holding it once.
    expect(titleHit.score).toBeGreaterThanOrEqual(textHit.score);
  });
});

describe('buildShardedIndex', () => {
  const episodes = [
    { id: 1, title: 'Sourdough', desc: 'Bread.', topics: ['baking'], guests: ['Ines'], chapters: [{ title: 'Starters' }] },
    { id: 2, title: 'Tides', desc: 'The sea.', topics: ['ocean'], guests: ['Fiona'], chapters: [] },
  ];
  const words = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${String.fromCharCode(97 + (i % 26))}${i}`).join(' ');
  const passages = buildPassages([
    { id: 1, cues: [{ start: 0, end: 40, text: `Sourdough starters need flour and water every day. ${words(300, 'a')}.` }, { start: 40, end: 80, text: 'More flour, then flour again.' }] },
    { id: 2, cues: [{ start: 0, end: 40, text: `The moon pulls the sea twice a day. ${words(300, 'm')}.` }] },
  ]);

  it('publishes a valid top index of metadata, shards covering the vocabulary in order, and passages per episode', async () => {
    const built = await buildShardedIndex(episodes, passages, 'en', undefined, { shardBytes: 2_000 });
    expect(lunr.Index.load(JSON.parse(JSON.stringify(built.top))).search('ines').map((r) => r.ref)).toEqual(['1']);
    expect(built.top.layout.shards.segments.length).toBe(1);
    const [{ first, path }] = built.top.layout.shards.segments;
    expect(path).toMatch(/^\/search\/shards\/[0-9a-f]{16}-\{n\}\.json$/);
    expect(built.top.layout.shards.documents).toBe(episodes.length + passages.length);
    expect(built.shards.length).toBe(first.length);
    expect(built.shards.length).toBeGreaterThan(2);
    expect(first[0]).toBe('');
    expect([...first].sort()).toEqual(first);
    [...built.shards].forEach((shard, n) => {
      expect(shard.fieldVectors).toEqual([]);
      const published = JSON.parse(JSON.stringify(shard));
      expect(lunr.Index.load(published)).toBeTruthy();
      // Lunr's own query, with the empty vector per episode with a transcript that a reader adds from the layout
      // (contract/schemas/search-passages.ts, docs.md): it finds the episodes each term's posting lists.
      const index = lunr.Index.load({ ...published, fieldVectors: built.top.layout.passages.episodes.map((id) => [`text/${id}`, []]) });
      for (const [term, posting] of shard.invertedIndex) {
        const { df } = posting as { df: number };
        expect(Number.isInteger(df) && df > 0 && df <= passages.length).toBe(true);
        expect(term >= first[n]!).toBe(true);
        if (n + 1 < first.length) expect(term < first[n + 1]!).toBe(true);
        const holding = Object.keys((posting as { text: Record<string, unknown> }).text);
        expect(index.query((q) => q.term(term, { usePipeline: false })).map((r) => r.ref).sort()).toEqual(holding.sort());
      }
    });
    expect([...built.passages.keys()]).toEqual([1, 2]);
    const own = passages.filter((p) => p.episode === 1);
    expect(built.passages.get(1)!.reduce((n, chunk) => n + chunk.first.length, 0)).toBe(own.length);
    expect(decodePassages(built.passages.get(1)!)).toEqual(own.map(({ start, end, cues }) => ({ start, end, cues })));
    expect(built.top.layout.passages.counts).toEqual([1, 2].map((id) => passages.filter((p) => p.episode === id).length));
  });

  it('makes each shard when asked for, the same each time, in the order iteration gives', async () => {
    const built = await buildShardedIndex(episodes, passages, 'en', undefined, { shardBytes: 2_000 });
    const { shards } = built;
    expect([...shards]).toEqual(Array.from({ length: shards.length }, (_, n) => shards.get(n)));
    expect(shards.get(1)).not.toBe(shards.get(1));
    expect(JSON.stringify(shards.get(1))).toBe(JSON.stringify(shards.get(1)));
    for (const n of [-1, shards.length, 0.5, Number.NaN]) expect(() => shards.get(n), String(n)).toThrow(RangeError);
  });

  it('writes each shard as JSON.stringify would, byte for byte, without making its objects', async () => {
    const built = await buildShardedIndex(episodes, passages, 'en', undefined, { shardBytes: 2_000 });
    const { shards } = built;
    expect(shards.length).toBeGreaterThan(2);
    for (let n = 0; n < shards.length; n++) expect(shards.json(n), `shard ${n}`).toBe(JSON.stringify(shards.get(n)));
    expect((await buildShardedIndex(episodes, [], 'en')).shards.length).toBe(0);
    for (const n of [-1, shards.length, 0.5, Number.NaN]) expect(() => shards.json(n), String(n)).toThrow(RangeError);
    // Postings the fast path cannot write as JSON.stringify does: NaN (null), -0 (0), episodes out of order (sorted keys).
    const odd = (data: number[]) =>
      new Shards(
        { terms: ['a', 'b'], textTerms: [0, 1], termStart: Int32Array.of(0, 1, 3), byTerm: Int32Array.of(0, 5, 10), data: Float64Array.from(data), df: Int32Array.of(1, 2) },
        [0],
        ['stemmer'],
      );
    for (const data of [
      [0, 1, 1, 0, Number.NaN, 1, 3, 1, 2, 0.5, 1, 7, 1, 0, 0.25],
      [0, 1, 1, 0, -0, 1, 3, 1, 2, 0.5, 1, 7, 1, 0, 0.25],
      [0, 1, 1, 0, 1.5, 1, 3, 1, 2, 0.5, 1, 7, 1, 0, 0.25],
      // Numbers numberJson leaves to JSON.stringify: five decimals, a passage number past a million.
      [0, 1, 1, 0, 1.23456, 1, 3, 1, 2, 0.5, 1, 7, 1, 0, 0.25],
      [0, 1, 1, 2_000_000, 1.5, 1, 3, 1, 2, 0.5, 1, 7, 1, 0, 0.25],
    ]) {
      const shard = odd(data);
      expect(shard.json(0)).toBe(JSON.stringify(shard.get(0)));
    }
  });

  it('writes a shard\'s numbers as JSON.stringify does, or leaves them to it', () => {
    // Every weight of four decimals below 100,000 the index can hold (round4), and integers: the same text.
    const samples = [0, 1, 7, 999_999, 0.0001, 0.001, 0.01, 0.1, 0.5, 0.05, 0.007, 0.0007, 1.25, 2.103, 2.1035, 12.34, 99_999.9999, -0.5, -3.007, -3.0071];
    for (let i = 0; i < 40_000; i++) samples.push((((i * 7_919) % 2_000_000) - 1_000_000) / 10_000, ((i * 104_729) % 1_000_000) / 10_000);
    for (const x of samples) expect(numberJson(x), String(x)).toBe(JSON.stringify(x));
    // Anything else is not written here: not finite, -0, more decimals, a million and above, too small for 4 decimals.
    for (const x of [Number.NaN, Infinity, -Infinity, -0, 1 / 3, 1.23456, 1e6, 1e6 + 0.5, 1e21, 0.00001, 5e-7]) expect(numberJson(x), String(x)).toBeUndefined();
  });

  it('publishes no segment when no episode has a transcript', async () => {
    const built = await buildShardedIndex(episodes, [], 'en');
    expect(built.top.layout.shards).toEqual({ documents: episodes.length, segments: [] });
    expect(built.shards.length).toBe(0);
    expect(() => built.shards.get(0)).toThrow(RangeError);
  });

  it('cuts the episodes into segments: full ones, then halves, then the last few', () => {
    expect(segmentSizes(0)).toEqual([]);
    expect(segmentSizes(5)).toEqual([5]);
    expect(segmentSizes(16)).toEqual([16]);
    expect(segmentSizes(1000)).toEqual([256, 256, 256, 128, 64, 32, 8]);
    expect(segmentSizes(1001)).toEqual([256, 256, 256, 128, 64, 32, 9]);
    expect(segmentSizes(2000)).toEqual([...Array(7).fill(256), 128, 64, 16]);
    for (const n of [1, 15, 17, 255, 256, 257, 511, 1000, 4097]) {
      const sizes = segmentSizes(n);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(n);
      expect(sizes.every((size) => size <= SEGMENT_EPISODES)).toBe(true);
      expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    }
  });

  it('keeps a segment\'s shards byte for byte when an episode is added after it, and names them by their content', async () => {
    const show = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, title: `Episode ${i + 1}` }));
    const said = (id: number) => ({ id, cues: [{ start: 0, end: 40, text: `Episode ${id} talks about ${words(80, String.fromCharCode(97 + id))} and bread.` }] });
    const before = await buildShardedIndex(show.slice(0, 4), buildPassages([1, 2, 3, 4].map(said)), 'en', undefined, { shardBytes: 2_000, segments: () => [2, 2] });
    const after = await buildShardedIndex(show, buildPassages([1, 2, 3, 4, 5].map(said)), 'en', undefined, { shardBytes: 2_000, segments: () => [2, 3] });
    const [kept, changed] = before.shards.segments;
    expect(after.shards.segments[0]!.tag).toBe(kept!.tag);
    expect(after.shards.segments[1]!.tag).not.toBe(changed!.tag);
    for (let n = 0; n < kept!.first.length; n++) expect(after.shards.segments[0]!.shards.json(n)).toBe(kept!.shards.json(n));
    // The show's statistics are not in a segment's shards: the new episode changed the documents the idf counts.
    expect(after.top.layout.shards.documents).toBe(before.top.layout.shards.documents + 2);
  });

  it("makes a segment's postings once, and none of a segment whose first terms are kept until its shards are asked for", async () => {
    const kept = new Map<string, string[]>();
    const segmentFirst = (tag: string, first: () => string[]) => {
      if (!kept.has(tag)) kept.set(tag, first());
      return kept.get(tag)!;
    };
    const options = { shardBytes: 2_000, segments: (n: number) => [1, n - 1], segmentFirst };
    const made = await buildShardedIndex(episodes, passages, 'en', undefined, options);
    // Made for their first terms, and those shards kept for writing: not made a second time.
    expect(made.shards.segments.map((s) => s.made)).toEqual([true, true]);
    const again = await buildShardedIndex(episodes, passages, 'en', undefined, options);
    expect(again.shards.segments.map((s) => s.made)).toEqual([false, false]);
    expect(again.top).toEqual(made.top);
    expect(again.shards.segments[1]!.shards.json(0)).toBe(made.shards.segments[1]!.shards.json(0));
    expect(again.shards.segments.map((s) => s.made)).toEqual([false, true]);
  });

  it("lets a segment's postings go once its files are written, and makes the same files again if asked", async () => {
    const built = await buildShardedIndex(episodes, passages, 'en', undefined, { shardBytes: 2_000, segments: (n: number) => [1, n - 1] });
    const segment = built.shards.segments[1]!;
    const written = segment.files().map(([path, json]) => [path, json()]);
    const first = segment.first;
    expect(segment.made).toBe(true);
    segment.release();
    expect(segment.made).toBe(false);
    // What the layout names stays without the postings.
    expect(segment.first).toBe(first);
    expect(segment.made).toBe(false);
    expect(segment.files().map(([path, json]) => [path, json()])).toEqual(written);
    expect(segment.made).toBe(true);
  });

  it('cuts an episode\'s passages into chunks of perChunk, numbered as the postings number them', async () => {
    const built = await buildShardedIndex(episodes, passages, 'en', undefined, { passagesPerChunk: 2 });
    const own = passages.filter((p) => p.episode === 1);
    const chunks = built.passages.get(1)!;
    expect(chunks.length).toBe(Math.ceil(own.length / 2));
    chunks.forEach((chunk, c) => {
      expect(chunk.from).toBe(c * 2);
      expect(chunk.first.length).toBe(Math.min(2, own.length - c * 2));
    });
    expect(decodePassages(chunks)).toEqual(own.map(({ start, end, cues }) => ({ start, end, cues })));
    expect(built.top.layout.passages.perChunk).toBe(2);
  });

  it("lists each term's best passages in the episode with their scores, best first", async () => {
    const built = await buildShardedIndex(episodes, passages, 'en');
    const shard = [...built.shards].find((s) => s.invertedIndex.some(([t]) => t === 'flour'))!;
    const posting = shard.invertedIndex.find(([t]) => t === 'flour')![1] as { text: Record<string, { p: number[] }> };
    const p = posting.text['1']!.p;
    expect(p.length).toBe(4);
    // "More flour, then flour again." (passage 1, two hits in four words) beats one hit in a long passage.
    expect(p[0]).toBe(1);
    expect(p[1]!).toBeGreaterThan(p[3]!);
  });

  it('keeps the best passagesPerTerm of an episode, best first, ties in passage order, each episode on its own', async () => {
    const passage = (episode: number, at: number, text: string) => ({ episode, start: at, end: at + 30, cues: [[at, text]] as Array<[number, string]> });
    const own = [
      passage(1, 0, 'flour water'),
      passage(1, 30, 'flour water'),
      passage(1, 60, 'flour flour'),
      passage(1, 90, 'flour water'),
      passage(1, 120, 'water water'),
      passage(2, 0, 'water flour'),
    ];
    const built = await buildShardedIndex(episodes, own, 'en', undefined, { passagesPerTerm: 3 });
    const entryOf = (term: string) => {
      const shard = [...built.shards].find((s) => s.invertedIndex.some(([t]) => t === term))!;
      return shard.invertedIndex.find(([t]) => t === term)![1] as { df: number; text: Record<string, { p: number[] }> };
    };
    const postingOf = (term: string) => entryOf(term).text;
    // The passages holding the word, listed or not ("flour" is in five: four of episode 1's and episode 2's one).
    expect(entryOf('flour').df).toBe(5);
    expect(entryOf('water').df).toBe(5);
    const flour = postingOf('flour');
    const passagesOf = (p: number[]) => p.filter((_, i) => i % 2 === 0);
    const scoresOf = (p: number[]) => p.filter((_, i) => i % 2 === 1);
    // Passage 2 says it twice; 0, 1 and 3 tie, so the first two of them stay.
    expect(passagesOf(flour['1']!.p)).toEqual([2, 0, 1]);
    expect(scoresOf(flour['1']!.p)[0]).toBeGreaterThan(scoresOf(flour['1']!.p)[1]!);
    expect(scoresOf(flour['1']!.p)[1]).toBe(scoresOf(flour['1']!.p)[2]);
    expect(passagesOf(flour['2']!.p)).toEqual([0]);
    expect(Object.keys(flour)).toEqual(['1', '2']);
    const water = postingOf('water');
    expect(passagesOf(water['1']!.p)).toEqual([4, 0, 1]);
    expect(passagesOf(water['2']!.p)).toEqual([0]);
  });
});
