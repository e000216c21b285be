/** The pure helpers behind the pages: transcript paragraphs, times, the `?t=` value, sitemap and robots.txt. */
import { describe, expect, it } from 'vitest';
import { groupCues, paragraphAt, splitSpeaker } from '../../src/components/transcript.ts';
import { clock, durationSeconds, firstSentence, humanDuration, isoDuration, parseTime, spokenTime } from '../../src/components/format.ts';
import { localHref, textDirection } from '../../src/components/site.ts';
import { sentences } from '../../functions/search/snippet.ts';

const cue = (start: number, end: number, text: string) => ({ start, end, text });

describe('transcript paragraphs', () => {
  it('opens a paragraph at each "Name:" and joins the cues of a turn, line breaks and all', () => {
    const paragraphs = groupCues([
      cue(0, 4, 'Maya: Hello and welcome to Deep\nField, the show'),
      cue(4.2, 8, 'where we take our time.'),
      cue(8.1, 12, 'Ines: Thank you, Maya.'),
      cue(12.5, 15, 'It is a pleasure.'),
    ]);
    expect(paragraphs).toEqual([
      { start: 0, end: 8, speaker: 'Maya', text: 'Hello and welcome to Deep Field, the show where we take our time.' },
      { start: 8.1, end: 15, speaker: 'Ines', text: 'Thank you, Maya. It is a pleasure.' },
    ]);
  });

  it('splits a long turn at a sentence end after the soft limit, and anywhere after the hard limit', () => {
    const cues = [cue(0, 20, 'Ines: One long thought'), cue(20, 40, 'goes on and on.'), cue(50, 60, 'Next idea here,'), cue(60, 100, 'and more'), cue(100, 110, 'still more')];
    const paragraphs = groupCues(cues, { softSeconds: 30, hardSeconds: 45 });
    expect(paragraphs.map((p) => [p.start, p.speaker, p.text])).toEqual([
      [0, 'Ines', 'One long thought goes on and on.'],
      [50, undefined, 'Next idea here, and more'],
      [100, undefined, 'still more'],
    ]);
  });

  it('reads names of up to four capitalised words, not ordinary sentences with a colon', () => {
    expect(splitSpeaker('Dr. Ines Duarte: Yes.')).toEqual({ speaker: 'Dr. Ines Duarte', text: 'Yes.' });
    expect(splitSpeaker('the ratio is 1:5:5')).toEqual({ text: 'the ratio is 1:5:5' });
    expect(splitSpeaker('So here is the thing: bread')).toEqual({ text: 'So here is the thing: bread' });
    // French spacing, a full-width colon, scripts without capitals, combining marks.
    expect(splitSpeaker('Maya : Bonjour.')).toEqual({ speaker: 'Maya', text: 'Bonjour.' });
    expect(splitSpeaker('Maya\u202f: Bonjour.')).toEqual({ speaker: 'Maya', text: 'Bonjour.' });
    expect(splitSpeaker('マヤ：こんにちは。')).toEqual({ speaker: 'マヤ', text: 'こんにちは。' });
    expect(splitSpeaker('מאיה: שלום.')).toEqual({ speaker: 'מאיה', text: 'שלום.' });
    expect(splitSpeaker('Ine\u0300s: Oui.')).toEqual({ speaker: 'Ine\u0300s', text: 'Oui.' });
    // A run of caseless letters longer than a name is prose.
    expect(splitSpeaker('今天我们要讨论的是面包和酵母的故事：首先')).toEqual({ text: '今天我们要讨论的是面包和酵母的故事：首先' });
    expect(splitSpeaker('the ratio : 5')).toEqual({ text: 'the ratio : 5' });
    expect(groupCues([cue(0, 1, '   '), cue(1, 2, 'No speaker at all.')])).toEqual([{ start: 1, end: 2, text: 'No speaker at all.' }]);
  });

  it('finds the paragraph at a moment in whole seconds (links carry whole seconds)', () => {
    const starts = [0, 32.018, 75.5, 120];
    expect(paragraphAt(starts, 0)).toBe(0);
    expect(paragraphAt(starts, 31.9)).toBe(0);
    expect(paragraphAt(starts, 32)).toBe(1);
    expect(paragraphAt(starts, 75)).toBe(2);
    expect(paragraphAt(starts, 9999)).toBe(3);
    expect(paragraphAt([], 5)).toBe(-1);
  });
});

describe('times and text', () => {
  it('formats clock times, spoken times, human and ISO durations', () => {
    expect([clock(0), clock(65.9), clock(3725)]).toEqual(['0:00', '1:05', '1:02:05']);
    expect([spokenTime(0), spokenTime(61), spokenTime(3600)]).toEqual(['0 seconds', '1 minute 1 second', '1 hour']);
    expect([humanDuration(877), humanDuration(20), humanDuration(3900)]).toEqual(['15 min', '1 min', '1 h 5 min']);
    expect([isoDuration(877), isoDuration(0), isoDuration(3600)]).toEqual(['PT14M37S', 'PT0S', 'PT1H']);
    expect([durationSeconds('14:37'), durationSeconds('01:02:03'), durationSeconds('soon')]).toEqual([877, 3723, undefined]);
  });

  it('reads ?t= as seconds, clock time or 1h2m3s, and nothing else', () => {
    expect(['754', '12.5', '12:34', '1:02:03', '12m34s', '1h', '90s'].map(parseTime)).toEqual([754, 12.5, 754, 3723, 754, 3600, 90]);
    expect(['', 'abc', '-5', '1:2:3:4', null, undefined].map(parseTime)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('keeps the first sentence, cut at a word under the limit', () => {
    expect(firstSentence('A baker from Porto explains her starter in detail. Then more.')).toBe('A baker from Porto explains her starter in detail.');
    expect(firstSentence('Short. But the description goes on for a while after that.')).toBe('Short. But the description goes on for a while after that.');
    const long = firstSentence('word '.repeat(80), 40);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith('word…')).toBe(true);
  });

  it('turns this site\'s addresses into paths and leaves other sites alone', () => {
    const show = { siteUrl: 'https://podcast.example' };
    expect(localHref('https://podcast.example/episodes/x/?t=5', show)).toBe('/episodes/x/?t=5');
    expect(localHref('https://cdn.example/a.mp3', show)).toBe('https://cdn.example/a.mp3');
    expect(localHref('https://podcast.example/show/rss.xml', { siteUrl: 'https://podcast.example/show' })).toBe('/show/rss.xml');
  });
});

describe('sentence ends (contract/search/sentences.ts)', () => {
  it('end a paragraph at Latin, Arabic, Devanagari and full-width marks, and cut snippets there', () => {
    const paragraphs = groupCues(
      [cue(0, 50, 'マヤ：パンの話をしましょう。'), cue(50, 55, '次の話題。'), cue(55, 110, 'هل هذا صحيح؟'), cue(110, 112, 'نعم')],
    );
    expect(paragraphs.map((p) => p.text)).toEqual(['パンの話をしましょう。', '次の話題。 هل هذا صحيح؟', 'نعم']);
    expect(sentences('パンです。酵母です！本当？ Yes. No').map((r) => 'パンです。酵母です！本当？ Yes. No'.slice(r.start, r.end))).toEqual(['パンです。', '酵母です！', '本当？', 'Yes.', 'No']);
  });
});

describe('textDirection', () => {
  it('sets Hebrew, Arabic, Persian and Urdu right to left, and the rest left to right', () => {
    for (const tag of ['he', 'he-IL', 'ar', 'ar-EG', 'fa', 'ur-PK', 'yi']) expect(textDirection(tag), tag).toBe('rtl');
    for (const tag of ['en', 'en-GB', 'fr', 'ja', 'ru', 'tr', 'zh-Hant']) expect(textDirection(tag), tag).toBe('ltr');
  });
});
