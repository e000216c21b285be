/**
 * What the importer takes from the tags the five real feeds do not have: Podlove chapters, guests, per-episode
 * explicit, seasons, platform links for the show and the episodes, a Latin-1 feed, an M4A enclosure.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { importFeed } from '../../src/import/import.ts';
import { FIXTURES, offlineFetch } from './helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'import-mapping-'));
const dir = join(work, 'content');
afterAll(() => rmSync(work, { recursive: true, force: true }));
let report: Awaited<ReturnType<typeof importFeed>>;
beforeAll(async () => {
  report = await importFeed({ source: join(FIXTURES, 'podcasting20.xml'), contentDir: dir, fetch: offlineFetch });
});

describe('podcasting20.xml', () => {
  it('maps the show: Latin-1 text, language, explicit, owner from managingEditor, hosts, platforms, categories', () => {
    const show = parseYaml(readFileSync(join(dir, 'podcast.yaml'), 'utf8'));
    expect(show).toMatchObject({
      title: 'Café Podlove',
      description: 'A show in Latin-1. Also on YouTube and Amazon.',
      author: 'Le Patron',
      owner: { name: 'Le Patron', email: 'editor@cafe.example' },
      language: 'fr-fr',
      explicit: true,
      categories: [{ category: 'Arts', subcategories: ['Food'] }],
      artwork: 'https://cafe.example/art.jpg',
      hosts: ['Marie Dupont'],
      platforms: {
        spotify: 'https://open.spotify.com/show/cafepodlove',
        apple: 'https://podcasts.apple.com/us/podcast/cafe-podlove/id123456789',
        youtube: 'https://www.youtube.com/@cafepodlove',
        amazon: 'https://music.amazon.com/podcasts/abc-123',
      },
    });
  });

  it('maps an episode: numbers, season, duration, pubDate, guests and hosts, explicit, platform links, Podlove chapters', () => {
    const { content, errors } = loadContent(dir, {}, dir);
    expect(errors).toEqual([]);
    const [one, two] = content!.episodes;
    expect(two).toMatchObject({
      id: 2,
      season: 3,
      title: 'Numéro deux',
      date: '2024-03-02',
      pubDate: '2024-03-02T18:30:00+01:00',
      duration: '01:02:03',
      guests: ['Jean Martin'],
      hosts: ['Marie Dupont'],
      explicit: false,
      audioUrl: 'https://cdn.cafe.example/2.m4a',
      audioType: 'audio/x-m4a',
      audioBytes: 2048,
      spotifyUrl: 'https://open.spotify.com/episode/2abc',
      appleUrl: 'https://podcasts.apple.com/us/podcast/cafe-podlove/id123456789?i=1000600000002',
      youtubeUrl: 'https://www.youtube.com/watch?v=abc123',
      chapters: [
        { start: '00:00', title: 'Bonjour' },
        { start: '12:30', title: 'La recette' },
      ],
    });
    expect(two!.html).not.toContain('.x{}');
    expect(one).toMatchObject({ id: 1, season: 1, duration: '10:00', title: 'Numéro un' });
    expect(one!.html).toBe('<p>Plain text.<br />Second line.</p>\n');
    expect(report.notes).toEqual([
      // Read from a file, with no podcast:guid and no atom:link rel="self": nothing says what the show's guid was.
      'podcast.yaml: the feed names no podcast:guid nor its own address; its guid will follow siteUrl, so set guid before the site moves',
      'item 1 "Numéro deux": dropped chapters that start after the episode ends (01:02:03)',
    ]);
    expect(report.unfetched).toEqual([]);
  });
});

describe('durations past any episode', () => {
  it('are left out with a note, and the content they make passes the check (a feed typo must not fail the build)', async () => {
    const item = (n: number, duration: string) =>
      `<item><title>Ep ${n}</title><guid>ep-${n}</guid><pubDate>Mon, 0${n} Jan 2024 10:00:00 GMT</pubDate>` +
      `<enclosure url="https://cdn.example/${n}.mp3" length="1000" type="audio/mpeg"/><itunes:duration>${duration}</itunes:duration></item>`;
    const feed = join(work, 'long.xml');
    writeFileSync(
      feed,
      `<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Long</title>` +
        `<description>d</description><link>https://long.example/</link><language>en</language>` +
        `${item(1, '99999999999999999999')}${item(2, '1e308')}${item(3, '01:00:00')}</channel></rss>`,
    );
    const out = join(work, 'long');
    const result = await importFeed({ source: feed, contentDir: out, fetch: offlineFetch });
    expect(result.notes.filter((n) => n.includes('duration'))).toEqual([
      'item 1 "Ep 1": its itunes:duration is past 1000 hours; left out',
      'item 2 "Ep 2": its itunes:duration is past 1000 hours; left out',
    ]);
    const { content, errors } = loadContent(out, {}, out);
    expect(errors).toEqual([]);
    expect(content!.episodes.map((e) => e.duration)).toEqual([undefined, undefined, '01:00:00']);
  });

  it('written by an editor, are a content error naming the limit', () => {
    const copy = join(work, 'editor');
    cpSync(dir, copy, { recursive: true });
    const file = join(copy, 'episodes', readdirSync(join(copy, 'episodes')).find((f) => f.endsWith('.md'))!);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^duration: .*$/m, 'duration: "27777777777777776:46:40"'));
    const { errors } = loadContent(copy, {}, copy);
    expect(errors.join('\n')).toMatch(/duration.*at most 1000 hours/);
  });
});

describe('notes nested past what the converters can read', () => {
  it('an item whose HTML nests 3,000 deep keeps its episode, without notes, and says so', async () => {
    const deep = `${'<div>'.repeat(3000)}x${'</div>'.repeat(3000)}`;
    const feed = join(work, 'deep.xml');
    writeFileSync(
      feed,
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Deep</title><description>d</description><link>https://deep.example/</link><language>en</language>` +
        `<item><title>Deep one</title><guid>d-1</guid><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate><enclosure url="https://cdn.example/1.mp3" length="1" type="audio/mpeg"/>` +
        `<description><![CDATA[${deep}]]></description></item>` +
        `<item><title>Plain</title><guid>d-2</guid><pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate><enclosure url="https://cdn.example/2.mp3" length="1" type="audio/mpeg"/>` +
        `<description>Fine notes.</description></item></channel></rss>`,
    );
    const out = join(work, 'deep');
    const result = await importFeed({ source: feed, contentDir: out, fetch: offlineFetch });
    expect(result.notes).toContainEqual(expect.stringMatching(/^item 1 "Deep one": its notes are nested too deeply to read \(.+\); left out$/));
    const { content, errors } = loadContent(out, {}, out);
    expect(errors).toEqual([]);
    expect(content!.episodes.map((e) => e.desc ?? '')).toEqual(['', 'Fine notes.']);
  });

  it("an editor's notes nested 6,000 quotes deep are one content error naming the file", () => {
    const copy = join(work, 'deep-editor');
    cpSync(dir, copy, { recursive: true });
    const name = readdirSync(join(copy, 'episodes')).find((f) => f.endsWith('.md'))!;
    const file = join(copy, 'episodes', name);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n\n${'>'.repeat(6000)} x\n`);
    const { errors } = loadContent(copy, {}, copy);
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^episodes/${name.replace('.', '\\.')}: the show notes are nested too deeply to read`))]);
  });
});

describe('guids that are the names of object properties', () => {
  it('"__proto__", "constructor" and "hasOwnProperty" are guids like any other, on a first import and on the next', async () => {
    const item = (guid: string, title: string, day: number) =>
      `<item><title>${title}</title><guid>${guid}</guid><pubDate>Mon, 0${day} Jan 2024 10:00:00 GMT</pubDate><enclosure url="https://cdn.example/${day}.mp3" length="1" type="audio/mpeg"/></item>`;
    const feed = (items: string) =>
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Proto</title><description>d</description><link>https://proto.example/</link><language>en</language>${items}</channel></rss>`;
    const first = join(work, 'proto1.xml');
    const second = join(work, 'proto2.xml');
    writeFileSync(first, feed(item('g1', 'One', 1) + item('__proto__', 'Proto', 2)));
    writeFileSync(second, feed(item('g1', 'One', 1) + item('__proto__', 'Proto renamed', 2) + item('constructor', 'Built', 3) + item('hasOwnProperty', 'Owned', 4)));
    const out = join(work, 'proto');
    await importFeed({ source: first, contentDir: out, fetch: offlineFetch });
    const again = await importFeed({ source: second, contentDir: out, fetch: offlineFetch });
    expect(again.notes.filter((n) => /deleted|editor/.test(n))).toEqual([]);
    expect(again.created).toHaveLength(2);
    expect(again.updated).toHaveLength(1);
    const state = JSON.parse(readFileSync(join(out, '.import.json'), 'utf8')) as { episodes: Record<string, unknown> };
    expect(Object.keys(state.episodes).sort()).toEqual(['__proto__', 'constructor', 'g1', 'hasOwnProperty']);
    const { content, errors } = loadContent(out, {}, out);
    expect(errors).toEqual([]);
    expect(content!.episodes.map((e) => e.title)).toEqual(['One', 'Proto renamed', 'Built', 'Owned']);
  });
});
