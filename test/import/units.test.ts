/** The importer's pure parts: show notes, transcripts, chapters, dates, slugs, episode numbers. */
import { describe, expect, it } from 'vitest';
import { parseSrt } from '../../src/content/srt.ts';
import { markdownToHtml } from '../../src/content/markdown.ts';
import { notesToMarkdown } from '../../src/import/notes.ts';
import { convertTranscript, pickTranscript, transcriptFormat } from '../../src/import/transcripts.ts';
import { chaptersFromJson, chaptersFromPodlove } from '../../src/import/chapters.ts';
import { assignNumbers, pubDateToIso, slugify, type ImportedEpisode } from '../../src/import/map.ts';

describe('show notes → Markdown', () => {
  it('converts HTML, drops scripts and styles, and lets no markup through as raw HTML', () => {
    const md = notesToMarkdown(
      '<h2>Episode 1</h2><p>With <strong>Ann</strong> &amp; <a href="https://ann.example/">her site</a>.</p>' +
        '<script>alert("x")</script><style>p { color: red }</style><ul><li>one</li><li>two</li></ul>' +
        '<p>&lt;script&gt;alert(1)&lt;/script&gt; <a href="javascript:alert(1)">click</a> <img src="x" onerror="alert(1)"></p>',
    );
    expect(md).toContain('## Episode 1');
    expect(md).toContain('With **Ann** & [her site](https://ann.example/).');
    expect(md).toMatch(/^-\s+one$/m);
    expect(md).not.toMatch(/alert\("x"\)|color: red|javascript:|onerror/);
    const html = markdownToHtml(md);
    expect(html).not.toMatch(/<script|<img|href="javascript/);
    expect(html).toContain('&lt;script&gt;alert(1)');
  });

  it('keeps the paragraphs and line breaks of plain-text notes, and of text with inline links only', () => {
    expect(notesToMarkdown('Links:\nOne: http://a.example/\n\n*Note* 1. not a list')).toBe('Links:\\\nOne: http://a.example/\n\n\\*Note\\* 1. not a list');
    expect(notesToMarkdown("First.\n    <a href='https://x.example/'>X</a>\n\n    Second.")).toBe('First.\\\n[X](https://x.example/)\n\nSecond.');
  });
});

describe('transcripts → SubRip', () => {
  const check = (srt: string) => {
    const { cues, problems } = parseSrt(srt);
    expect(problems).toEqual([]);
    return cues;
  };

  it('reads SubRip, WebVTT and JSON into SubRip the content model accepts', () => {
    const srt = check(convertTranscript('1\r\n00:00:01,000 --> 00:00:04,000\r\n<i>Hello</i> there\r\n\r\n2\r\n00:00:03,500 --> 00:00:06,000\r\nOverlap\r\n', 'srt'));
    expect(srt).toEqual([
      { start: 1, end: 3.5, text: 'Hello there' },
      { start: 3.5, end: 6, text: 'Overlap' },
    ]);
    const vtt = check(
      convertTranscript('WEBVTT\n\nNOTE a comment\n\nintro\n00:01.000 --> 00:04.000 align:start\n<v Adam Curry>Hello &amp; welcome\n\n00:04.000 --> 01:00:05.250\nBye', 'vtt'),
    );
    expect(vtt).toEqual([
      { start: 1, end: 4, text: 'Adam Curry: Hello & welcome' },
      { start: 4, end: 3605.25, text: 'Bye' },
    ]);
    const json = check(
      convertTranscript(
        JSON.stringify({
          version: '1.0.0',
          segments: [
            { speaker: 'Ann', startTime: 0.5, endTime: 0.9, body: 'Hi' },
            { speaker: 'Ann', startTime: 0.9, endTime: 1.2, body: 'there' },
            { speaker: 'Ann', startTime: 1.2, endTime: 1.3, body: '.' },
            { speaker: 'Bob', startTime: 1.5, endTime: 2, body: 'Hello' },
            { startTime: 9, endTime: 10, body: 'Later' },
          ],
        }),
        'json',
      ),
    );
    expect(json).toEqual([
      { start: 0.5, end: 1.3, text: 'Ann: Hi there.' },
      { start: 1.5, end: 2, text: 'Bob: Hello' },
      { start: 9, end: 10, text: 'Later' },
    ]);
  });

  it('says why a file cannot be used', () => {
    expect(() => convertTranscript('<html>nope</html>', 'vtt')).toThrow(/is not a readable VTT transcript/);
    expect(() => convertTranscript('{"segments": []}', 'json')).toThrow(/has no usable cues/);
    expect(() => convertTranscript('not json', 'json')).toThrow(/is not a readable JSON transcript/);
  });

  it('picks SubRip over WebVTT over JSON, and ignores untimed formats', () => {
    expect(transcriptFormat('application/srt', 'x')).toBe('srt');
    expect(transcriptFormat('text/html', 'x.html')).toBeNull();
    expect(transcriptFormat(undefined, 'https://x/t.vtt?x=1')).toBe('vtt');
    const picked = pickTranscript([
      { url: 'https://x/t.json', type: 'application/json' },
      { url: 'https://x/t.html', type: 'text/html' },
      { url: 'https://x/t.vtt', type: 'text/vtt' },
    ]);
    expect(picked).toMatchObject({ url: 'https://x/t.vtt', format: 'vtt' });
  });
});

describe('chapters', () => {
  it('reads JSON chapters (skipping toc: false) and Podlove simple chapters', () => {
    const json = JSON.stringify({
      version: '1.2.0',
      chapters: [
        { startTime: 65.5, title: 'Second' },
        { startTime: 0, title: 'First' },
        { startTime: 30, title: 'Hidden', toc: false },
        { startTime: 3700, title: '  Late\n one ' },
        { startTime: 90 },
      ],
    });
    expect(chaptersFromJson(json)).toEqual([
      { start: '00:00', title: 'First' },
      { start: '01:05', title: 'Second' },
      { start: '01:01:40', title: 'Late one' },
    ]);
    expect(chaptersFromPodlove([{ start: '00:00:00.000', title: 'Intro' }, { start: '1:02:03.5', title: 'End' }, { start: 'soon', title: 'Bad' }])).toEqual([
      { start: '00:00', title: 'Intro' },
      { start: '01:02:03', title: 'End' },
    ]);
    expect(() => chaptersFromJson('<html>')).toThrow(/is not JSON/);
    expect(() => chaptersFromJson('{"title": "x"}')).toThrow(/no "chapters" list/);
  });
});

describe('dates, slugs and episode numbers', () => {
  it('keeps the pubDate in the offset the feed wrote it in', () => {
    expect(pubDateToIso('Thu, 28 Sep 2023 16:20:00 -0500')).toBe('2023-09-28T16:20:00-05:00');
    expect(pubDateToIso('Sun, 24 Oct 2021 20:22:24 +0000')).toBe('2021-10-24T20:22:24Z');
    expect(pubDateToIso('Wed, 03 Nov 2021 08:00:00 -0000')).toBe('2021-11-03T08:00:00Z');
    expect(pubDateToIso('Fri, 18 Mar 2022 09:46:00 GMT')).toBe('2022-03-18T09:46:00Z');
    expect(pubDateToIso('Mon, 02 Jan 2023 23:30:00 PST')).toBe('2023-01-02T23:30:00-08:00');
    expect(pubDateToIso('2024-05-01T10:00:00+02:00')).toBe('2024-05-01T10:00:00+02:00');
    expect(pubDateToIso('sometime')).toBeUndefined();
  });

  it('makes ASCII slugs from any title', () => {
    expect(slugify('18.03.2022 – Langsam gesprochene Nachrichten')).toBe('18-03-2022-langsam-gesprochene-nachrichten');
    expect(slugify('Großes Café: Ça va?')).toBe('grosses-cafe-ca-va');
    expect(slugify('東京')).toBe('episode');
    expect(slugify('a'.repeat(30) + ' ' + 'b'.repeat(40))).toBe('a'.repeat(30));
  });

  const ep = (position: number, number: number | undefined, date: string) =>
    ({ position, number, fields: { date, pubDate: `${date}T08:00:00Z` } }) as unknown as ImportedEpisode;

  it('numbers episodes by itunes:episode when those are distinct, else by date, oldest first', () => {
    const notes: string[] = [];
    const distinct = [ep(1, undefined, '2024-03-01'), ep(2, 7, '2024-02-01'), ep(3, 3, '2024-01-01')];
    expect([...assignNumbers(distinct, notes).values()]).toEqual([7, 3, 8]);
    const repeated = [ep(1, 1, '2024-03-01'), ep(2, 2, '2024-02-01'), ep(3, 1, '2024-01-01')];
    const ids = assignNumbers(repeated, notes);
    expect(repeated.map((e) => ids.get(e))).toEqual([3, 2, 1]);
    expect(notes).toEqual([expect.stringMatching(/repeats itunes:episode numbers/)]);
  });
});
