import { describe, expect, it } from 'vitest';
import { utf8Length, viewsOfOneBuffer } from './one-buffer.ts';

describe('viewsOfOneBuffer', () => {
  it('gives zeroed views of the kinds and lengths asked, aligned, in one buffer, not overlapping', () => {
    const [bytes, wide, halves, words] = viewsOfOneBuffer([
      [Uint8Array, 3],
      [Float64Array, 2],
      [Uint16Array, 5],
      [Int32Array, 1],
    ]);
    expect([bytes, wide, halves, words].map((v) => v.constructor)).toEqual([Uint8Array, Float64Array, Uint16Array, Int32Array]);
    expect([bytes.length, wide.length, halves.length, words.length]).toEqual([3, 2, 5, 1]);
    expect(new Set([bytes.buffer, wide.buffer, halves.buffer, words.buffer]).size).toBe(1);
    expect([bytes.byteOffset, wide.byteOffset, halves.byteOffset, words.byteOffset]).toEqual([0, 8, 24, 36]);
    expect(bytes.buffer.byteLength).toBe(40);
    expect([...bytes, ...wide, ...halves, ...words].every((x) => x === 0)).toBe(true);
    bytes.fill(255);
    wide.fill(-1.5);
    halves.fill(7);
    words[0] = -2;
    expect([...bytes]).toEqual([255, 255, 255]);
    expect([...wide]).toEqual([-1.5, -1.5]);
    expect([...halves]).toEqual([7, 7, 7, 7, 7]);
    expect(words[0]).toBe(-2);
  });

  it('allows empty views and refuses a length that is not a count', () => {
    const [a, b] = viewsOfOneBuffer([
      [Uint32Array, 0],
      [Uint8Array, 0],
    ]);
    expect(a.length + b.length).toBe(0);
    expect(() => viewsOfOneBuffer([[Uint8Array, -1]])).toThrow(RangeError);
    expect(() => viewsOfOneBuffer([[Uint8Array, 1.5]])).toThrow(RangeError);
  });
});

describe('utf8Length', () => {
  it("is TextEncoder's byte count for ASCII, 2-, 3- and 4-byte characters and lone surrogates", () => {
    const encoder = new TextEncoder();
    for (const text of ['', 'bees', 'café crème', 'Ærø – “quoted” 日本語', 'emoji 🐝🍯 end', '\ud800 lone', 'end \udc00', '\ud83d', 'a\ud83d\ude00b\udc00\ud800']) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(encoder.encode(text).length);
    }
  });
});
