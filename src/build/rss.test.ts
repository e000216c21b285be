/**
 * Feed details the sample show does not exercise: an episode's own image, a show without hosts, item text that looks
 * like the feed's own tags.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFeed } from 'podcast-partytime';
import { xml2js } from 'xml-js';
import { loadContent } from '../content/load.ts';
import { buildRss } from './rss.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'rss-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
cpSync(join(ROOT, 'content'), join(dir, 'content'), { recursive: true });

describe('buildRss', () => {
  it('gives an episode with an image its own itunes:image, absolute', () => {
    const file = join(dir, 'content/episodes/002-cryptography.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^audioFile:/m, 'image: /episodes/crypto.png\naudioFile:'));
    const { content, errors } = loadContent(join(dir, 'content'), { SITE_URL: 'https://pod.example.org' }, dir);
    expect(errors).toEqual([]);
    const feed = parseFeed(buildRss(content!))!;
    const item = feed.items.find((i) => i.itunesEpisode === 2)!;
    expect(item.itunesImage).toBe('https://pod.example.org/episodes/crypto.png');
    expect(feed.items.find((i) => i.itunesEpisode === 1)!.itunesImage).toBeUndefined();
    // The host's img is made absolute from the site address; the guid stays pinned.
    expect(feed.podcastPeople?.[0]?.img).toBe('https://pod.example.org/artwork.png');
    expect(feed.guid).toBe(content!.show.guid);
  });

  it("declares the podcast namespace and puts the channel's tags before the items, whatever the items' text says", () => {
    const file = join(dir, 'content/episodes/001-sourdough.md');
    const { content: before } = loadContent(join(dir, 'content'), {}, dir);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: "Bread </item></channel> <item> and <rss> tags"'));
    const { content, errors } = loadContent(join(dir, 'content'), {}, dir);
    expect(errors).toEqual([]);
    const xml = buildRss(content!);
    expect(xml).toMatch(/^<\?xml[^>]*\?>\s*<rss [^>]*xmlns:podcast="https:\/\/podcastindex\.org\/namespace\/1\.0"[^>]*>/);
    // Every channel tag (the show's guid, its people, the iTunes category) comes before the first item.
    const firstItem = xml.search(/<item>/);
    for (const tag of ['<podcast:guid>', '<itunes:category', '<itunes:owner>']) expect(xml.indexOf(tag)).toBeLessThan(firstItem);
    const feed = parseFeed(xml)!;
    expect(feed.items).toHaveLength(before!.episodes.length);
    expect(feed.items.map((i) => i.title)).toContain('Bread </item></channel> <item> and <rss> tags');
    expect(feed.guid).toBe(content!.show.guid);
  });

  it('writes the notes as text into the description readers render as HTML: markup written as text stays text', () => {
    const file = join(dir, 'content/episodes/003-beekeeping.md');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, source.replace(/\n---\n/, '\n---\nWrite &lt;script&gt;alert(1)&lt;/script&gt; & see `<b>` here.\n\n'));
    try {
      const { content, errors } = loadContent(join(dir, 'content'), {}, dir);
      expect(errors).toEqual([]);
      const xml = buildRss(content!);
      expect(xml).not.toContain('<script>');
      // The CDATA holds the escaped text, which an HTML reader shows as the characters written.
      expect(xml).toContain('<description><![CDATA[Write &lt;script&gt;alert(1)&lt;/script&gt; &amp; see &lt;b&gt; here.');
      expect(parseFeed(xml)!.items.find((i) => i.itunesEpisode === 3)!.description).toMatch(/^Write /);
    } finally {
      writeFileSync(file, source);
    }
  });

  it('stays well-formed XML with "]]>" more than once in an item title or its notes', () => {
    const file = join(dir, 'content/episodes/004-volcanoes.md');
    const source = readFileSync(file, 'utf8');
    const title = 'Salt & <Pepper>: a ]]> b ]]> c';
    writeFileSync(file, source.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`).replace(/\n---\n/, '\n---\nEnd a CDATA with `]]>`, twice: `]]>`.\n\n'));
    try {
      const { content, errors } = loadContent(join(dir, 'content'), {}, dir);
      expect(errors).toEqual([]);
      const xml = buildRss(content!);
      // xml-js's reader is strict (sax): an early end of a CDATA section is an error there.
      const parsed = xml2js(xml, { compact: true }) as { rss: { channel: { item: Array<{ title: { _cdata: string | string[] }; 'itunes:episode': { _text: string } }> } } };
      const item = parsed.rss.channel.item.find((i) => i['itunes:episode']._text === '4')!;
      expect([item.title._cdata].flat().join('')).toBe(title);
      const feed = parseFeed(xml)!.items.find((i) => i.itunesEpisode === 4)!;
      expect(feed.title).toBe(title);
      expect(feed.content).toContain('<code>]]></code>, twice: <code>]]></code>');
    } finally {
      writeFileSync(file, source);
    }
  });

  it("dates lastBuildDate at the newest item's own time, not before it", () => {
    const file = join(dir, 'content/episodes/013-chess.md');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, source.replace(/^date: (.*)$/m, 'date: $1\npubDate: "$1T20:22:24Z"'));
    try {
      const feed = parseFeed(buildRss(loadContent(join(dir, 'content'), {}, dir).content!))!;
      const newest = Math.max(...feed.items.map((i) => i.pubDate!.getTime()));
      expect(feed.lastBuildDate?.getTime()).toBe(newest);
      expect(new Date(newest).toISOString()).toMatch(/T20:22:24/);
    } finally {
      writeFileSync(file, source);
    }
  });

  it('says podcast:locked yes when the show is locked', () => {
    const show = join(dir, 'content/podcast.yaml');
    const source = readFileSync(show, 'utf8');
    expect(buildRss(loadContent(join(dir, 'content'), {}, dir).content!)).toMatch(/<podcast:locked owner="[^"]+">no<\/podcast:locked>/);
    writeFileSync(show, source.replace(/^locked: false$/m, 'locked: true'));
    try {
      expect(buildRss(loadContent(join(dir, 'content'), {}, dir).content!)).toMatch(/<podcast:locked owner="[^"]+">yes<\/podcast:locked>/);
    } finally {
      writeFileSync(show, source);
    }
  });

  it('lists only guests when the show names no hosts', () => {
    const show = join(dir, 'content/podcast.yaml');
    writeFileSync(show, readFileSync(show, 'utf8').replace(/^hosts:\n(?: {2}.*\n)+/m, ''));
    const { content } = loadContent(join(dir, 'content'), {}, dir);
    const feed = parseFeed(buildRss(content!))!;
    expect(feed.podcastPeople ?? []).toEqual([]);
    expect(feed.items.find((i) => i.itunesEpisode === 1)!.podcastPeople?.map((p) => p.role.toLowerCase())).toEqual(['guest']);
  });
});
