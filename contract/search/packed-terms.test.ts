import { describe, expect, it } from 'vitest';
import { findPackedTerm } from './packed-terms.ts';

/** Terms packed as the shards and chunks keep them: each followed by a space, `at` where each starts. */
function pack(terms: string[], from: number) {
  const at = new Array<number>(from).fill(0);
  let text = '';
  for (const t of terms) {
    at.push(text.length);
    text += `${t} `;
  }
  at.push(text.length);
  return { text, at };
}

describe('findPackedTerm', () => {
  const terms = ['ab', 'abc', 'b', 'bee', 'hive', 'zz'];

  it('finds every term and misses what is between, before, after, a prefix or an extension', () => {
    const { text, at } = pack(terms, 0);
    terms.forEach((t, k) => expect(findPackedTerm(text, at, 0, terms.length - 1, t)).toBe(k));
    for (const missing of ['a', 'abd', 'be', 'bees', 'c', 'zzz', '', 'aa']) expect(findPackedTerm(text, at, 0, terms.length - 1, missing)).toBe(-1);
  });

  it('counts from where it is told (an /ask chunk numbers its terms from 1)', () => {
    const { text, at } = pack(terms, 1);
    expect(findPackedTerm(text, at, 1, terms.length, 'ab')).toBe(1);
    expect(findPackedTerm(text, at, 1, terms.length, 'zz')).toBe(terms.length);
  });

  it('compares bytes with bytes: a UTF-8 key among UTF-8 terms, an ASCII string among bytes', () => {
    const sorted = ['cafe', 'café', 'naïve'].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const bytes = new TextEncoder().encode(sorted.map((t) => `${t} `).join(''));
    const at = [0];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 32) at.push(i + 1);
    const utf8 = (s: string) => new TextEncoder().encode(s);
    expect(findPackedTerm(bytes, at, 0, 2, utf8('café'))).toBe(sorted.indexOf('café'));
    expect(findPackedTerm(bytes, at, 0, 2, utf8('naïve'))).toBe(sorted.indexOf('naïve'));
    expect(findPackedTerm(bytes, at, 0, 2, 'cafe')).toBe(sorted.indexOf('cafe'));
    expect(findPackedTerm(bytes, at, 0, 2, utf8('cafê'))).toBe(-1);
  });
});
