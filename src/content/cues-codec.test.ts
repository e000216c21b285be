import { describe, expect, it } from 'vitest';
import { CUES_CODEC, peekCues, type ParsedCues } from './cues-codec.ts';
import { parseSrt } from './srt.ts';

const roundTrip = (value: ParsedCues) => CUES_CODEC.decode(CUES_CODEC.encode(value));
/** What JSON, the cache's other form, gives back: the codec must give back the same. */
const viaJson = (value: ParsedCues) => JSON.parse(JSON.stringify(value)) as ParsedCues;

describe('CUES_CODEC', () => {
  it('gives back a parsed transcript exactly: times to the bit, texts with any characters, in order', () => {
    const srt = [
      '1\n00:00:01,000 --> 00:00:02,500\nHello there.',
      '2\n00:00:02,501 --> 00:00:04,000\nCafé, naïve — “quoted” 日本語 🐝 emoji.',
      '3\n00:59:59,999 --> 01:00:00,000\n<i>Tagged</i>\nover two lines',
      '4\n01:00:00,000 --> 01:00:01,123\n\u00a0',
    ].join('\n\n');
    const parsed = parseSrt(srt);
    expect(parsed.cues).toHaveLength(4);
    expect(roundTrip(parsed)).toEqual(viaJson(parsed));
    const odd: ParsedCues = { cues: [{ start: 0.1 + 0.2, end: 1 / 3, text: '' }, { start: 1e-3, end: 86_399.999, text: 'x'.repeat(70_000) }], problems: [] };
    expect(roundTrip(odd)).toEqual(viaJson(odd));
    expect(roundTrip({ cues: [], problems: [] })).toEqual({ cues: [], problems: [] });
  });

  it('keeps the problems of a transcript that did not parse', () => {
    const parsed = parseSrt('1\n00:00:01,000 --> 00:00:02,500\nHello\n\nnot a cue\n');
    expect(parsed.problems.length).toBeGreaterThan(0);
    expect(roundTrip(parsed)).toEqual(viaJson(parsed));
  });

  it('keeps as JSON what the layout cannot hold exactly: a cue with other fields, a lone surrogate', () => {
    const withLines = { cues: [{ start: 1, end: 2, text: 'a', lines: ['a'] }], problems: [] } as unknown as ParsedCues;
    expect(roundTrip(withLines)).toEqual(withLines);
    const lone: ParsedCues = { cues: [{ start: 1, end: 2, text: 'broken \ud800 pair' }], problems: [] };
    expect(roundTrip(lone)).toEqual(lone);
    expect(roundTrip(lone).cues[0]!.text).toBe('broken \ud800 pair');
  });

  it('refuses a damaged entry instead of returning wrong cues', () => {
    const bytes = CUES_CODEC.encode({ cues: [{ start: 1, end: 2, text: 'hello' }, { start: 2, end: 3, text: 'world' }], problems: [] });
    expect(() => CUES_CODEC.decode(bytes.subarray(0, bytes.byteLength - 3))).toThrow();
  });

  it('summarises an entry without its cues: their number, the last end, the problems (peekCues), as decode gives them', () => {
    for (const value of [
      parseSrt('1\n00:00:01,000 --> 00:00:02,500\nHello.\n\n2\n00:00:03,000 --> 00:01:04,250\nAgain.'),
      parseSrt('1\n00:00:01,000 --> 00:00:02,500\nHello\n\nnot a cue\n'),
      { cues: [], problems: [] },
      { cues: [{ start: 1, end: 2.5, text: 'broken \ud800 pair' }], problems: [] },
    ] satisfies ParsedCues[]) {
      const bytes = CUES_CODEC.encode(value);
      const decoded = CUES_CODEC.decode(bytes);
      expect(peekCues(bytes)).toEqual({ count: decoded.cues.length, lastEnd: decoded.cues.at(-1)?.end, problems: decoded.problems });
    }
    const bytes = CUES_CODEC.encode(parseSrt('1\n00:00:01,000 --> 00:00:02,500\nHello.'));
    expect(() => peekCues(bytes.subarray(0, bytes.byteLength - 10))).toThrow(/damaged/);
  });
});
