/**
 * The engine keeps a chunk of passages as UTF-8 bytes and typed arrays (compactChunk) and decodes a passage's text
 * when it reads it (join): the text and each cue's offset in it must be what the published chunk says, whatever
 * characters the transcript has.
 */
import { describe, expect, it } from 'vitest';
import { compactChunk, join } from './engine.ts';
import { decodePassages, encodePassages } from '../../contract/schemas/search-passages.ts';

describe('a chunk of passages as the engine keeps it', () => {
  const passages = [
    { start: 0, end: 9, cues: [[0, 'Café crème — naïve “quotes”'], [4.5, 'and an emoji 🐝 in the hive']] as Array<[number, string]> },
    { start: 9, end: 20, cues: [[9, 'plain ASCII'], [12.25, 'ünïcödé again'], [15, 'last cue…']] as Array<[number, string]> },
    { start: 20, end: 21, cues: [[20, 'one']] as Array<[number, string]> },
  ];
  const [file] = encodePassages(4, passages, 16);

  it('reads back every passage\'s text with its cues\' offsets and starts', () => {
    const chunk = compactChunk(file!);
    expect(chunk.bytes.byteLength).toBeGreaterThan(file!.text.length);
    decodePassages(file!).forEach((p, index) => {
      const joined = join(chunk, index);
      const texts = p.cues.map(([, t]) => t);
      expect(joined.text).toBe(texts.join(' '));
      expect(joined.offsets).toEqual(texts.map((_, k) => texts.slice(0, k).join(' ').length + (k ? 1 : 0)));
      expect(Array.from(joined.offsets, (_, k) => chunk.starts[joined.firstCue + k])).toEqual(p.cues.map(([s]) => s));
    });
  });

  it('passages past the first chunk count from its first passage', () => {
    const chunks = encodePassages(4, passages, 2);
    const second = compactChunk(chunks[1]!);
    expect(second.from).toBe(2);
    expect(join(second, 2)).toEqual({ text: 'one', offsets: [0], firstCue: 0 });
  });
});
