import { describe, expect, it } from 'vitest';
import { JsonScanError, readPair, scanArray, scanObject, skipValue } from './json-scan.ts';

const tricky = { 'a "key"': ['x', '}', ']', '\\', '\\"', '{"not":"json"}'], n: -1.5e3, t: true, f: false, z: null, nested: [[{}], { '': [] }], é: '😀' };

describe('json-scan', () => {
  it("finds every member's extent, whatever the strings hold, compact or spaced", () => {
    for (const text of [JSON.stringify(tricky), JSON.stringify(tricky, null, 2), ` \n${JSON.stringify(tricky, null, '\t')}\n `]) {
      const seen: Record<string, unknown> = {};
      const end = scanObject(text, 0, () => undefined, (key, from, to) => {
        seen[key] = JSON.parse(text.slice(from, to));
      });
      expect(seen).toEqual(tricky);
      expect(text.slice(end).trim()).toBe('');
    }
  });

  it('lets a reader consume a value itself, and walks arrays element by element', () => {
    const text = JSON.stringify({ list: [['b', { x: 1 }], ['a "q"', [2, 3]]], after: 'end' });
    const pairs: Array<[string, unknown]> = [];
    let after: unknown;
    scanObject(
      text,
      0,
      (key, from) => (key === 'list' ? scanArray(text, from, (at) => {
        const [k, a, b, end] = readPair(text, at);
        pairs.push([k, JSON.parse(text.slice(a, b))]);
        return end;
      }) : undefined),
      (key, from, to) => {
        if (key === 'after') after = JSON.parse(text.slice(from, to));
      },
    );
    expect(pairs).toEqual([['b', { x: 1 }], ['a "q"', [2, 3]]]);
    expect(after).toBe('end');
  });

  it('throws a typed error on a text that ends early or is not shaped as asked', () => {
    const text = JSON.stringify(tricky);
    for (let cut = 1; cut < text.length; cut += 7) {
      expect(() => scanObject(text.slice(0, cut), 0, () => undefined), String(cut)).toThrow(JsonScanError);
    }
    expect(() => scanObject('[1]', 0, () => undefined)).toThrow(JsonScanError);
    expect(() => scanArray('{}', 0, () => undefined)).toThrow(JsonScanError);
    expect(() => readPair('["a" 1]', 0)).toThrow(JsonScanError);
    expect(() => skipValue('"open', 0)).toThrow(JsonScanError);
    expect(() => skipValue(',', 0)).toThrow(JsonScanError);
  });
});
