import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedParse, configureParseCache, parseCacheStats } from '../content/parse-cache.ts';
import { parseSrt, parseSrtBlocks } from '../content/srt.ts';
import { parseVtt } from '../content/vtt.ts';
import { renderTranscript, toPodcastJson, transcriptFiles } from './transcripts.ts';

const dir = mkdtempSync(join(tmpdir(), 'transcripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const SRT = '1\n00:00:00,000 --> 00:00:04,000\nMaya: Hello <i>and</i>\nwelcome.\n\n2\n00:00:04,200 --> 00:01:10,000\nIt is good & 1 < 2.\n\n3\n00:01:10,000 --> 00:01:12,500\nInes: Thanks.\n';

describe('transcripts out', () => {
  it('names three files per transcript under one stem', () => {
    expect(transcriptFiles({ srtFile: 'a.srt', hasSrt: true }).map((f) => [f.file, f.type])).toEqual([
      ['a.srt', 'application/x-subrip'],
      ['a.vtt', 'text/vtt'],
      ['a.json', 'application/json'],
    ]);
    expect(transcriptFiles({ srtFile: 'a.srt', hasSrt: false })).toEqual([]);
  });

  it('publishes an SRT as written, and WebVTT and JSON with the same cues', () => {
    const source = { path: file('a.srt', SRT), format: 'srt' as const };
    expect(renderTranscript(source, 'srt')).toBe(SRT);
    const srt = parseSrt(SRT).cues;
    const vtt = parseVtt(renderTranscript(source, 'vtt'));
    expect(vtt.problems).toEqual([]);
    expect(vtt.cues.map(({ start, end, text }) => ({ start, end, text }))).toEqual(srt);
    expect(renderTranscript(source, 'vtt')).toContain('It is good &amp; 1 &lt; 2.');
    expect(JSON.parse(renderTranscript(source, 'json'))).toEqual({
      version: '1.0.0',
      segments: [
        { speaker: 'Maya', startTime: 0, endTime: 4, body: 'Hello and welcome.' },
        { speaker: 'Maya', startTime: 4.2, endTime: 70, body: 'It is good & 1 < 2.' },
        { speaker: 'Ines', startTime: 70, endTime: 72.5, body: 'Thanks.' },
      ],
    });
  });

  it('converts an editor\'s WebVTT to SubRip, voices as "Name:"', () => {
    const source = { path: file('b.vtt', 'WEBVTT\n\n00:00.000 --> 00:04.000\n<v Maya>Hello\n\n00:04.200 --> 01:10.000\n<v Ines>Hi.\n'), format: 'vtt' as const };
    const srt = renderTranscript(source, 'srt');
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:04,000\nMaya: Hello\n\n2\n00:00:04,200 --> 00:01:10,000\nInes: Hi.\n');
    expect(parseSrt(srt).problems).toEqual([]);
    expect(toPodcastJson([{ start: 0, end: 1, lines: ['no speaker'] }]).segments).toEqual([{ startTime: 0, endTime: 1, body: 'no speaker' }]);
  });

  it("takes an SRT's blocks from the content model's parse when that read the same text, and renders the same", () => {
    const variants = { lf: SRT, crlfWithBom: `\uFEFF${SRT.replace(/\n/g, '\r\n')}`, loneCr: SRT.replace('Hello <i>and</i>\n', 'Hello <i>and</i>\r'), twoBoms: `\uFEFF\uFEFF${SRT}` };
    const uncached = Object.fromEntries(
      Object.entries(variants).map(([name, text]) => {
        const source = { path: file(`${name}.srt`, text), format: 'srt' as const };
        return [name, ['srt', 'vtt', 'json'].map((ext) => renderTranscript(source, ext as 'srt' | 'vtt' | 'json'))];
      }),
    );
    const cache = mkdtempSync(join(tmpdir(), 'transcripts-cache-'));
    configureParseCache(cache);
    try {
      for (const [name, text] of Object.entries(variants)) {
        // What the content model reads (src/content/load.ts): the file as it is.
        cachedParse(parseSrtBlocks, text);
        const before = parseCacheStats();
        const source = { path: file(`${name}.srt`, text), format: 'srt' as const };
        expect(['srt', 'vtt', 'json'].map((ext) => renderTranscript(source, ext as 'srt' | 'vtt' | 'json')), name).toEqual(uncached[name]);
        // Shared where parsing the file as it is gives what parsing its normalized text does: no lone CR, one BOM at most.
        expect(parseCacheStats().hits - before.hits, name).toBe(name === 'loneCr' || name === 'twoBoms' ? 0 : 1);
      }
    } finally {
      configureParseCache(undefined);
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
