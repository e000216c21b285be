/** The engine's bounded cache: an LRU with a budget in weights (bytes for shards and passage chunks). */
import { describe, expect, it } from 'vitest';
import { Lru } from './engine.ts';

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

