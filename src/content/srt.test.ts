import { describe, expect, it } from 'vitest';
import { parseSrt } from './srt.ts';

describe('parseSrt', () => {
  it('reads cues with start and end seconds and plain text', () => {
    const { cues, problems } = parseSrt('1\n00:00:01,500 --> 00:00:03,000\nHello <i>there</i>\nfriend\n\n2\n00:01:00,000 --> 00:01:02,250\nBye\n');
    expect(problems).toEqual([]);
    expect(cues).toEqual([
      { start: 1.5, end: 3, text: 'Hello there friend' },
      { start: 60, end: 62.25, text: 'Bye' },
    ]);
  });

  it('names the line of a broken time line', () => {
    const { problems } = parseSrt('1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:02,000 -> 00:00:03,000\nbad\n');
    expect(problems).toEqual([{ line: 6, message: 'expected a time line "HH:MM:SS,mmm --> HH:MM:SS,mmm", found "00:00:02,000 -> 00:00:03,000"' }]);
  });

  it('names the line of a missing cue number', () => {
    expect(parseSrt('00:00:01,000 --> 00:00:02,000\nno number\n').problems[0]).toEqual({
      line: 1,
      message: 'expected a cue number, found "00:00:01,000 --> 00:00:02,000"',
    });
  });

  it('rejects cues that end before they start or overlap', () => {
    expect(parseSrt('1\n00:00:05,000 --> 00:00:02,000\nx\n').problems[0]?.message).toMatch(/ends before it starts/);
    expect(parseSrt('1\n00:00:01,000 --> 00:00:05,000\nx\n\n2\n00:00:03,000 --> 00:00:06,000\ny\n').problems[0]).toMatchObject({ line: 6 });
  });

  it('names the cue a missing blank line runs into (it had been "only 4 of 3 cues could be read", at line 1)', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\na\n\n2\n00:00:02,000 --> 00:00:03,000\nb\n3\n00:00:03,000 --> 00:00:04,000\nc\n';
    expect(parseSrt(srt).problems).toEqual([{ line: 8, message: 'a blank line must come before cue 3 (every cue ends with an empty line)' }]);
    // A number alone on a line of text is text.
    expect(parseSrt('1\n00:00:01,000 --> 00:00:02,000\nThe answer is\n42\n').problems).toEqual([]);
  });

  it('rejects an empty file', () => {
    expect(parseSrt('\n\n').problems).toEqual([{ line: 1, message: 'contains no cues' }]);
  });
});
