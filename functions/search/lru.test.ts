/** The engine's bounded cache: an LRU with a budget in weights (bytes for shards and passage chunks). */
import { describe, expect, it } from 'vitest';
import { Lru, SharedBudget } from './engine.ts';

describe('Lru', () => {
  it('evicts the least recently used entries once the weights exceed the limit, keeping at least one', () => {
    const lru = new Lru<string, string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A'); // a is now the most recent
    lru.set('c', 'C', 4); // 12 > 10: b goes
    expect([lru.get('b'), lru.get('a'), lru.get('c')]).toEqual([undefined, 'A', 'C']);
    expect(lru.weight).toBe(8);
    lru.set('huge', 'H', 50);
    expect(lru.size).toBe(1);
    expect(lru.get('huge')).toBe('H');
  });

  it('re-weighs an entry once its size is known, only if it is still the same value', () => {
    const lru = new Lru<string, string>(10);
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    lru.weigh('a', 'A', 9);
    expect(lru.weight).toBe(10);
    lru.weigh('b', 'other', 100); // replaced meanwhile: ignored
    expect(lru.weight).toBe(10);
    lru.weigh('b', 'B', 5); // 14 > 10: a (least recent) goes
    expect(lru.get('a')).toBeUndefined();
    expect(lru.weight).toBe(5);
    lru.delete('b');
    expect(lru.weight).toBe(0);
  });
});


describe('SharedBudget', () => {
  it('lets each map use what the others leave, and never evicts one below its own share', () => {
    const budget = new SharedBudget(10);
    const shards = new Lru<string, string>(5, budget);
    const chunks = new Lru<string, string>(5, budget);
    // Chunks alone may take the whole budget.
    for (const k of ['c1', 'c2', 'c3', 'c4']) chunks.set(k, k, 2);
    expect([chunks.weight, budget.weight]).toEqual([8, 8]);
    // A shard arriving takes back from the chunks, which are over their share...
    shards.set('s1', 's1', 2);
    shards.set('s2', 's2', 2);
    expect(shards.weight).toBe(4);
    expect(chunks.weight).toBe(6);
    expect(chunks.get('c1')).toBeUndefined();
    // ...but chunks coming and going never push the shards below their share.
    for (let i = 5; i < 30; i++) chunks.set(`c${i}`, 'c', 2);
    expect(shards.weight).toBe(4);
    expect([shards.get('s1'), shards.get('s2')]).toEqual(['s1', 's2']);
    expect(budget.weight).toBeLessThanOrEqual(10);
    // A map growing past its share takes back from one that borrowed, then gives up its own entries.
    shards.set('s3', 's3', 2);
    expect([shards.weight, chunks.weight]).toEqual([6, 4]);
    shards.set('s4', 's4', 2);
    expect([shards.weight, chunks.weight]).toEqual([6, 4]);
    expect(shards.get('s1')).toBeUndefined();
    expect(shards.get('s4')).toBe('s4');
  });
});
