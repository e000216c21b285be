/**
 * The search index cache's budget: the SEARCH_CACHE_MB setting per host, and that a process keeping almost nothing
 * loaded answers exactly as one that keeps everything (the caches change cost, never answers).
 */
import { describe, expect, it } from 'vitest';
import { CACHE_LIMITS, cacheBudget, configureSearchCaches, engineFrom } from '../../functions/search/engine.ts';
import { readServiceEnv } from '../../functions/env.ts';
import { readConfig, SEARCH_CACHE_BYTES_PER_PASSAGE } from '../../hosts/node/config.ts';
import { contentFiles, memoryStore, sampleContent } from './helpers.ts';

describe('SEARCH_CACHE_MB', () => {
  it('defaults to 32 MB (a 128 MB isolate), fixed in a function, growing with the show under npm start, and is validated', () => {
    expect(readServiceEnv({}).searchCacheMb).toBe(32);
    expect(readServiceEnv({}).searchCachePerPassage).toBe(0);
    expect(readConfig({}).searchCacheMb).toBe(32);
    expect(readConfig({}).searchCachePerPassage).toBe(SEARCH_CACHE_BYTES_PER_PASSAGE);
    // An operator's value is the budget, whatever the show's size.
    expect(readConfig({ SEARCH_CACHE_MB: '64' })).toMatchObject({ searchCacheMb: 64, searchCachePerPassage: 0 });
    expect(readServiceEnv({ SEARCH_CACHE_MB: '200' }).searchCacheMb).toBe(200);
    expect(() => readServiceEnv({ SEARCH_CACHE_MB: '0' })).toThrow(/SEARCH_CACHE_MB/);
    expect(() => readServiceEnv({ SEARCH_CACHE_MB: 'lots' })).toThrow(/SEARCH_CACHE_MB/);
  });

  it('grows to its bytes per passage where the show has more passages than the fixed budget covers', () => {
    const before = { ...CACHE_LIMITS };
    try {
      configureSearchCaches(32, 700);
      expect(cacheBudget(0)).toBe(32 * 2 ** 20);
      expect(cacheBudget(40_000)).toBe(32 * 2 ** 20);
      expect(cacheBudget(200_000)).toBe(140_000_000);
      configureSearchCaches(32);
      expect(cacheBudget(200_000)).toBe(32 * 2 ** 20);
    } finally {
      Object.assign(CACHE_LIMITS, before);
    }
  });

  it('is what an engine over the published index keeps: the sample at 1 MB per passage', async () => {
    const files = await contentFiles(sampleContent());
    const before = { ...CACHE_LIMITS };
    try {
      configureSearchCaches(1, 2 ** 20);
      const store = memoryStore(files);
      const top = await store.load('/search/lunr-index.json', (r) => r.text());
      const engine = await engineFrom(top, await store.service(), (path, transform) => store.read(path, transform));
      const passages = engine.layout.passages.counts.reduce((a, b) => a + b, 0);
      expect(passages).toBeGreaterThan(100);
      expect(engine.loaded.budget).toBe(passages * 2 ** 20);
    } finally {
      Object.assign(CACHE_LIMITS, before);
    }
  });
});

describe('a tiny index cache', () => {
  it('answers the same searches and questions as a large one', async () => {
    const files = await contentFiles(sampleContent());
    const make = async (bytes: number) => {
      const before = CACHE_LIMITS.bytes;
      // Below configureSearchCaches' 1 MB floor: the sample's whole index, as the engine keeps it, weighs less.
      CACHE_LIMITS.bytes = bytes;
      try {
        const store = memoryStore(files);
        const service = await store.service();
        const top = await store.load('/search/lunr-index.json', (r) => r.text());
        return { store, engine: await engineFrom(top, service, (path, transform) => store.read(path, transform)) };
      } finally {
        CACHE_LIMITS.bytes = before;
      }
    };
    const small = await make(192 * 1024);
    const large = await make(512 * 1024 * 1024);
    const queries = ['bees', 'sourdough starter', 'bridge resonance', 'tide*', 'volcno', 'how do bees decide where to live'];
    for (const q of queries) {
      const [a, b] = await Promise.all([small.engine.search(q), large.engine.search(q)]);
      expect(a.hits, q).toEqual(b.hits);
      const [x, y] = await Promise.all([small.engine.ask(q), large.engine.ask(q)]);
      expect(x.hits.map((h) => [h.id, h.score, h.passage]), q).toEqual(y.hits.map((h) => [h.id, h.score, h.passage]));
      expect(await Promise.all(x.hits.slice(0, 5).map((h) => small.engine.result(h)))).toEqual(await Promise.all(y.hits.slice(0, 5).map((h) => large.engine.result(h))));
    }
    // 192 KB holds a few shards and chunks, not the sample's whole index.
    expect(small.engine.loaded.bytes).toBeLessThanOrEqual(1.5 * 192 * 1024);
    expect(large.engine.loaded.shards).toBeGreaterThan(small.engine.loaded.shards);
  });
});

describe('the answer cache', () => {
  it('is weighed in bytes: a small budget keeps fewer answers, never more than its share', async () => {
    const { searchEpisodes } = await import('../../functions/search/service.ts');
    const files = await contentFiles(sampleContent());
    const before = CACHE_LIMITS.bytes;
    configureSearchCaches(1); // answers: a quarter, 256 KB
    try {
      const store = memoryStore(files);
      const words = ['bees', 'bread', 'tide', 'bridge', 'volcano', 'sleep', 'jazz', 'coffee', 'moon', 'salt', 'yeast', 'honey', 'wave', 'steel', 'rhythm'];
      const queries = words.flatMap((a) => words.map((b) => `${a} ${b}`));
      for (const query of queries) await searchEpisodes(store, { query, limit: 10, offset: 0 });
      const { getEngine } = await import('../../functions/search/engine.ts');
      const engine = await getEngine(store);
      expect(engine.answers.weight).toBeLessThanOrEqual(256 * 1024);
      expect(engine.answers.size).toBeGreaterThan(5);
      expect(engine.answers.size).toBeLessThan(queries.length);
    } finally {
      CACHE_LIMITS.bytes = before;
    }
  });
});
