import { describe, expect, it } from 'vitest';
import { VOCABULARY_BUCKETS, vocabularyBucket } from './search-passages.ts';

describe('vocabularyBucket: the file of a segment\'s terms that start with a character', () => {
  it('gives each ASCII letter its own, digits one, the rest of ASCII one, and every bucket is published', () => {
    expect(vocabularyBucket('t')).toBe('t');
    expect([...'0123456789'].map(vocabularyBucket)).toEqual(Array(10).fill('0'));
    expect(['', "'", '-', 'A'].map(vocabularyBucket)).toEqual(['_', '_', '_', '_']);
    for (const c of ['a', 'z', '5', '_', 'é', 'ж', 'λ', 'ب', '한']) expect(VOCABULARY_BUCKETS, c).toContain(vocabularyBucket(c));
  });

  it('spreads the letters of an alphabet beyond ASCII over several files, not one', () => {
    for (const alphabet of ['абвгдежзийклмнопрстуфхцчшщъыьэюя', 'αβγδεζηθικλμνξοπρστυφχψω', 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي']) {
      const buckets = new Set([...alphabet].map(vocabularyBucket));
      expect(buckets.size, alphabet).toBeGreaterThanOrEqual(12);
      for (const b of buckets) expect(b, alphabet).toMatch(/^x[0-9a-f]$/);
    }
  });
});
