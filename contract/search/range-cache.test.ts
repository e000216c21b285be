import { describe, expect, it } from 'vitest';
import { RangeCache } from './range-cache.ts';

describe('RangeCache', () => {
  it('makes each distinct stretch once, wherever and in whatever text it is looked up', () => {
    const made: string[] = [];
    const cache = new RangeCache<string>(Infinity);
    const make = (key: string) => (made.push(key), key.toUpperCase());
    expect(cache.getOrMake('the bees', 4, 8, make)).toBe('BEES');
    expect(cache.getOrMake('bees!', 0, 4, make)).toBe('BEES');
    expect(cache.getOrMake('xbeesx', 1, 5, make)).toBe('BEES');
    // A prefix, an extension and a case variant are other keys.
    expect(cache.getOrMake('bee', 0, 3, make)).toBe('BEE');
    expect(cache.getOrMake('beest', 0, 5, make)).toBe('BEEST');
    expect(cache.getOrMake('Bees', 0, 4, make)).toBe('BEES');
    expect(cache.getOrMake('', 0, 0, make)).toBe('');
    expect(made).toEqual(['bees', 'bee', 'beest', 'Bees', '']);
    expect(cache.size).toBe(5);
  });

  it('tells apart keys of the same length and hash', () => {
    // "w4pvu" and "wb3ea" have the same FNV-1a hash (found by search): only their characters differ.
    const made: string[] = [];
    const cache = new RangeCache<string>(Infinity);
    const make = (key: string) => (made.push(key), `<${key}>`);
    for (const text of ['w4pvu wb3ea', 'wb3ea w4pvu']) {
      expect(cache.getOrMake(text, 0, 5, make)).toBe(`<${text.slice(0, 5)}>`);
      expect(cache.getOrMake(text, 6, 11, make)).toBe(`<${text.slice(6, 11)}>`);
    }
    expect(made).toEqual(['w4pvu', 'wb3ea']);
  });

  it('keeps every entry as it grows, each made once', () => {
    const cache = new RangeCache<number>(Infinity, 4);
    const words = Array.from({ length: 20_000 }, (_, i) => `w${(i * 7919) % 100_003}`);
    let made = 0;
    const text = words.join(' ');
    const at: number[] = [];
    for (let i = 0, p = 0; i < words.length; p += words[i]!.length + 1, i++) at.push(p);
    for (let round = 0; round < 2; round++) {
      words.forEach((w, i) => expect(cache.getOrMake(text, at[i]!, at[i]! + w.length, () => (made++, i))).toBe(i));
    }
    expect(made).toBe(words.length);
    expect(cache.size).toBe(words.length);
  });

  it('empties itself when full, then makes again what it had', () => {
    const cache = new RangeCache<string>(3);
    const made: string[] = [];
    const make = (key: string) => (made.push(key), key);
    for (const w of ['a', 'b', 'c', 'a']) cache.getOrMake(w, 0, 1, make);
    expect(made).toEqual(['a', 'b', 'c']);
    expect(cache.size).toBe(3);
    cache.getOrMake('d', 0, 1, make);
    expect(cache.size).toBe(1);
    cache.getOrMake('a', 0, 1, make);
    expect(made).toEqual(['a', 'b', 'c', 'd', 'a']);
  });
});
