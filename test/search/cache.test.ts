/**
 * The search index cache's budget: the SEARCH_CACHE_MB setting per host, and that a process keeping almost nothing
 * loaded answers exactly as one that keeps everything (the caches change cost, never answers).
 */
import { describe, expect, it } from 'vitest';
import { CACHE_LIMITS, configureSearchCaches, engineFrom } from '../../functions/search/engine.ts';
import { readServiceEnv } from '../../functions/env.ts';
import { readConfig } from '../../hosts/node/config.ts';
import { contentFiles, memoryStore, sampleContent } from './helpers.ts';

describe('SEARCH_CACHE_MB', () => {
  it('defaults to 32 MB (a 128 MB isolate), 64 MB for npm start, and is validated', () => {
    expect(readServiceEnv({}).searchCacheMb).toBe(32);
    expect(readConfig({}).searchCacheMb).toBe(64);
    expect(readServiceEnv({ SEARCH_CACHE_MB: '200' }).searchCacheMb).toBe(200);
    expect(() => readServiceEnv({ SEARCH_CACHE_MB: '0' })).toThrow(/SEARCH_CACHE_MB/);
    expect(() => readServiceEnv({ SEARCH_CACHE_MB: 'lots' })).toThrow(/SEARCH_CACHE_MB/);
  });
});

describe('a tiny index cache', () => {
  it('answers the same searches and questions as a large one', async () => {
    const files = await contentFiles(sampleContent());
    const make = async (megabytes: number) => {
      const before = CACHE_LIMITS.bytes;
      configureSearchCaches(megabytes);
      try {
        const store = memoryStore(files);
        const service = await store.service();
        const top = await store.load('/search/lunr-index.json', (r) => r.json() as Promise<{ layout?: unknown }>);
        return { store, engine: await engineFrom(top, service, (path, transform) => store.read(path, transform)) };
      } finally {
        CACHE_LIMITS.bytes = before;
      }
    };
    const small = await make(1);
    const large = await make(512);
    const queries = ['bees', 'sourdough starter', 'bridge resonance', 'tide*', 'volcno', 'how do bees decide where to live'];
    for (const q of queries) {
      const [a, b] = await Promise.all([small.engine.search(q), large.engine.search(q)]);
      expect(a.hits, q).toEqual(b.hits);
      const [x, y] = await Promise.all([small.engine.ask(q), large.engine.ask(q)]);
      expect(x.hits.map((h) => [h.id, h.score, h.passage?.index]), q).toEqual(y.hits.map((h) => [h.id, h.score, h.passage?.index]));
      expect(await Promise.all(x.hits.slice(0, 5).map((h) => small.engine.result(h)))).toEqual(await Promise.all(y.hits.slice(0, 5).map((h) => large.engine.result(h))));
    }
    // 1 MB holds a few shards and chunks, not the sample's whole index.
    expect(small.engine.loaded.bytes).toBeLessThanOrEqual(1.5 * 1024 * 1024);
    expect(large.engine.loaded.shards).toBeGreaterThan(small.engine.loaded.shards);
  });
});
