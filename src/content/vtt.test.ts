import { describe, expect, it } from 'vitest';
import { parseVtt } from './vtt.ts';
import { parseSrt } from './srt.ts';

describe('parseVtt', () => {
  it('reads cues with or without hours, identifiers, settings, NOTE blocks and voice spans', () => {
    const { cues, problems } = parseVtt(
      'WEBVTT - sample\nKind: captions\n\nNOTE edited by hand\nover two lines\n\nintro\n00:01.500 --> 00:03.000 align:start\n<v Maya>Hello &amp; <i>welcome</i>\nfriends\n\n01:00:00.000 --> 01:00:02.250\nBye\n',
    );
    expect(problems).toEqual([]);
    expect(cues).toEqual([
      { start: 1.5, end: 3, text: 'Maya: Hello & welcome friends', lines: ['Maya: Hello & welcome', 'friends'] },
      { start: 3600, end: 3602.25, text: 'Bye', lines: ['Bye'] },
    ]);
  });

  it('gives the same cues as the SRT it was written from', () => {
    const srt = parseSrt('1\n00:00:01,500 --> 00:00:03,000\nMaya: Hello\n\n2\n00:00:03,200 --> 00:00:05,000\nthere\n').cues;
    const vtt = parseVtt('WEBVTT\n\n00:00:01.500 --> 00:00:03.000\nMaya: Hello\n\n00:00:03.200 --> 00:00:05.000\nthere\n').cues;
    expect(vtt.map(({ start, end, text }) => ({ start, end, text }))).toEqual(srt);
  });

  it('names the line of each mistake', () => {
    expect(parseVtt('1\n00:00:01.000 --> 00:00:02.000\nx\n').problems).toEqual([{ line: 1, message: 'must start with "WEBVTT", found "1"' }]);
    expect(parseVtt('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nok\n\n00:00:02,000 --> 00:00:03.000\nbad\n').problems).toEqual([
      { line: 6, message: 'expected a timing line "HH:MM:SS.mmm --> HH:MM:SS.mmm", found "00:00:02,000 --> 00:00:03.000"' },
    ]);
    expect(parseVtt('WEBVTT\n\nid\nnot a timing\ntext\n').problems[0]).toMatchObject({ line: 3, message: expect.stringContaining('found "id"') });
    expect(parseVtt('WEBVTT\n\n00:00:05.000 --> 00:00:02.000\nx\n').problems[0]).toMatchObject({ line: 3, message: expect.stringMatching(/ends before it starts/) });
    expect(parseVtt('WEBVTT\n\n00:00:01.000 --> 00:00:05.000\nx\n\n00:00:03.000 --> 00:00:06.000\ny\n').problems[0]).toMatchObject({ line: 6 });
    expect(parseVtt('WEBVTT\n').problems).toEqual([{ line: 1, message: 'contains no cues' }]);
  });
});
