import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCorpus, heapsVocabulary } from '../corpus.ts';
import { makeQueries } from '../queries.ts';
import { loadContent } from '../../src/content/load.ts';

const root = mkdtempSync(join(tmpdir(), 'bench-corpus-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const read = (dir: string) =>
  Object.fromEntries(
    ['episodes', 'transcripts'].flatMap((sub) => readdirSync(join(dir, sub)).map((f) => [`${sub}/${f}`, readFileSync(join(dir, sub, f), 'utf8')])),
  );

describe('bench/corpus', () => {
  const a = generateCorpus({ episodes: 4, out: join(root, 'a') });

  it('is deterministic for a seed and differs across seeds', () => {
    generateCorpus({ episodes: 4, out: join(root, 'b') });
    generateCorpus({ episodes: 4, out: join(root, 'c'), seed: 7 });
    expect(read(join(root, 'b'))).toEqual(read(join(root, 'a')));
    expect(read(join(root, 'c'))['transcripts/0001-episode.srt']).not.toEqual(read(join(root, 'a'))['transcripts/0001-episode.srt']);
  });

  it('writes content the real loader accepts, with transcripts for every episode', () => {
    const { content, errors } = loadContent(join(root, 'a'), { SITE_URL: 'https://bench.example.com' });
    expect(errors).toEqual([]);
    expect(content!.episodes).toHaveLength(4);
    for (const e of content!.episodes) {
      expect(e.hasSrt).toBe(true);
      expect(e.seconds).toBeGreaterThanOrEqual(30 * 60);
      expect(e.seconds).toBeLessThanOrEqual(90 * 60);
      const words = e.cues!.reduce((n, c) => n + c.text.split(/\s+/).length, 0);
      const perHour = (words / e.seconds!) * 3600;
      expect(perHour).toBeGreaterThan(8000);
      expect(perHour).toBeLessThan(10000);
    }
  });

  it('draws words with Zipf frequencies and sprinkles rare proper nouns', () => {
    const counts = new Map<string, number>();
    let total = 0;
    let nouns = 0;
    const nounSet = new Set(a.properNouns);
    for (const text of Object.values(read(join(root, 'a'))).filter((t) => !t.startsWith('---'))) {
      for (const line of text.split('\n')) {
        if (/^\d+$/.test(line) || line.includes('-->') || !line.trim()) continue;
        for (const raw of line.split(/\s+/)) {
          const w = raw.replace(/[.,?]$/, '');
          if (nounSet.has(w)) nouns++;
          const key = w.toLowerCase();
          counts.set(key, (counts.get(key) ?? 0) + 1);
          total++;
        }
      }
    }
    // Rank 1 ("the") against rank 10: 10^1.07 ≈ 11.7 times as frequent, within sampling noise.
    const ratio = counts.get(a.words[0]!)! / counts.get(a.words[9]!)!;
    expect(ratio).toBeGreaterThan(7);
    expect(ratio).toBeLessThan(20);
    expect(nouns / total).toBeGreaterThan(0.002);
    expect(nouns / total).toBeLessThan(0.008);
  });

  it('grows the vocabulary with the corpus (Heaps)', () => {
    expect(heapsVocabulary(9_000_000)).toBeGreaterThan(2.5 * heapsVocabulary(900_000));
    expect(a.words.length).toBe(heapsVocabulary(4 * 60 * 60 * 2.44));
  });

  it('draws a fixed query set from the corpus vocabulary', () => {
    const q1 = makeQueries(a);
    expect(makeQueries(a)).toEqual(q1);
    expect(q1.search).toHaveLength(200);
    expect(q1.ask).toHaveLength(200);
    const known = new Set([...a.words, ...a.properNouns.map((n) => n)]);
    for (const q of q1.search) for (const w of q.split(' ')) expect(known.has(w)).toBe(true);
    expect(a.meta[0]!.topics).toContain(q1.probe);
  });
});
