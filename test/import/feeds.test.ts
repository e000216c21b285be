/**
 * The five real feeds in ../shared/fixtures/feeds, imported with no network (as on these machines): each becomes a
 * show that passes the content check, keeps every item, and whose rss.xml round-trips every item's guid, enclosure,
 * pubDate and duration. What the feeds link to and could not be fetched is listed by item.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFeed } from 'podcast-partytime';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { buildRss } from '../../src/build/rss.ts';
import { importFeed } from '../../src/import/import.ts';
import { FEED_FILES, FEEDS, offlineFetch } from './helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'import-feeds-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Per guid: what a podcast app keeps of an item. allowMissingGuid: one dk-podcast item has no guid; partytime would
 * drop it from the source feed, while the import gives it the enclosure URL as its guid (as podcast apps do).
 */
function items(xml: string) {
  const feed = parseFeed(xml, { allowMissingGuid: true });
  expect(feed).not.toBeNull();
  return new Map(
    feed!.items.map((i) => [
      i.guid || i.enclosure.url,
      { url: i.enclosure.url, length: i.enclosure.length, type: i.enclosure.type, pubDate: i.pubDate?.getTime(), duration: i.duration || undefined },
    ]),
  );
}

describe.each(FEED_FILES)('import %s', (file) => {
  const source = readFileSync(join(FEEDS, file), 'utf8');
  const dir = join(work, file.replace('.xml', ''));
  let report: Awaited<ReturnType<typeof importFeed>>;

  it('writes a show that passes the content check, one episode per item', async () => {
    report = await importFeed({ source: join(FEEDS, file), contentDir: dir, fetch: offlineFetch });
    const { content, errors } = loadContent(dir, {}, dir);
    expect(errors).toEqual([]);
    const itemCount = (source.match(/<item[\s>]/g) ?? []).length;
    expect(content!.episodes).toHaveLength(itemCount);
    expect(report.episodes).toBe(itemCount);
    expect(readdirSync(join(dir, 'episodes'))).toHaveLength(itemCount);
    expect(report.created).toContain('podcast.yaml');
    // Nothing is left of the temporary folder.
    expect(readdirSync(work).filter((f) => f.includes('.import-'))).toEqual([]);
  });

  it('round-trips every item: guid, enclosure URL, length and type, pubDate, duration', () => {
    const { content } = loadContent(dir, {}, dir);
    const before = items(source);
    const after = items(buildRss(content!));
    expect(after.size).toBe(before.size);
    for (const [guid, item] of before) {
      const out = after.get(guid);
      expect(out, `guid ${guid}`).toBeDefined();
      expect({ ...out, duration: item.duration === undefined ? undefined : out!.duration }, `guid ${guid}`).toEqual(item);
    }
  });

  it('lists what it could not fetch, by item, as warnings', () => {
    const links = (source.match(/<podcast:(transcript|chapters)\s/g) ?? []).length;
    expect(report.unfetched).toHaveLength(links);
    for (const u of report.unfetched) {
      expect(u.item).toMatch(/^item \d+ "/);
      expect(u.reason).toBe('no network (ENOTFOUND)');
    }
  });
});

describe('what the importer takes from the feeds', () => {
  const load = (name: string) => loadContent(join(work, name), {}, join(work, name)).content!;

  it('no-agenda: HTML notes as Markdown, hosts from podcast:person, the show guid, explicit', () => {
    const { show, episodes } = load('no-agenda');
    expect(show).toMatchObject({ title: 'No Agenda', explicit: true, language: 'en', owner: { name: 'Adam Curry', email: 'adam@curry.com' } });
    expect(show.guid).toBe('856cd618-7f34-57ea-9b84-3600f1f65e7f');
    // podcast:locked yes stays the owner's choice.
    expect(show.locked).toBe(true);
    expect(buildRss(load('no-agenda'))).toContain('<podcast:locked owner="adam@curry.com">yes</podcast:locked>');
    // The feed's legacy "News & Politics" is Apple's News / Politics today.
    expect(show.categories).toEqual([{ category: 'News', subcategories: ['Politics'] }, { category: 'Comedy', subcategories: [] }]);
    const e = episodes.find((x) => x.guid === 'http://1393.noagendanotes.com')!;
    expect(e.title).toBe('1393: "Space Wake"');
    expect(e.hosts).toEqual(['Adam Curry', 'John C Dvorak']);
    expect(e.explicit).toBe(false);
    expect(e.html).toContain('<h2>No Agenda Episode 1393 - "Space Wake"</h2>');
    expect(e.html).toContain('<a href="http://dvorak.org/na">here</a>');
    expect(e.html).not.toMatch(/<div/);
  });

  it('1865: seasons, episode types, serial, numbers by date when itunes:episode repeats per season', () => {
    const { show, episodes } = load('1865');
    expect(show.type).toBe('serial');
    expect(new Set(episodes.map((e) => e.season))).toEqual(new Set([1, 2]));
    expect(episodes.filter((e) => e.episodeType === 'trailer').length).toBeGreaterThan(0);
    expect(episodes.map((e) => e.id)).toEqual(episodes.map((_, i) => i + 1));
    const dates = episodes.map((e) => Date.parse(e.pubDate!));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(show.categories[0]).toEqual({ category: 'Fiction', subcategories: ['Drama'] });
    // No podcast:guid in the feed: the one its own address (atom:link rel="self") gives is pinned, so the show keeps
    // it at its new address (the namespace: "its podcast:guid should be discovered by the new host and imported").
    expect(show.guid).toBe('688f7df5-dfda-5e65-b4d3-fb3595ad3783');
    expect(loadContent(join(work, '1865'), { SITE_URL: 'https://elsewhere.example/pod' }, join(work, '1865')).content!.show.guid).toBe(show.guid);
    // Each item's own artwork (itunes:image) is kept.
    expect(episodes.filter((e) => e.image?.startsWith('https://')).length).toBe(61);
  });

  it('dk-podcast: a German show keeps its language, umlauts and durations', () => {
    const { show, episodes } = load('dk-podcast');
    expect(show.language).toBe('de');
    expect(show.description).toContain('Deutsch für Profis');
    expect(episodes[0]!.slug).toMatch(/^\d{3}-\d{2}-\d{2}-2022-langsam-gesprochene-nachrichten$/);
    expect(episodes.every((e) => /^\d{2}:\d{2}$/.test(e.duration!))).toBe(true);
  });

  it('changing-the-tide: plain-text notes keep their lines; seconds durations become HH:MM:SS', () => {
    const { episodes } = load('changing-the-tide');
    const e = episodes.find((x) => x.title.startsWith('0.00000015'))!;
    expect(e.duration).toBe('01:13:05');
    expect(e.audioType).toBe('audio/mp3');
    expect(readFileSync(join(work, 'changing-the-tide/episodes', `${e.slug}.md`), 'utf8')).toMatch(/Links: ​\\\nAndy's website: http:\/\/andyschroder\.com\/\\\n/);
  });

  it('homegrown-hits: show hosts, and each chapters link reported as not fetched', () => {
    const { show } = load('homegrown-hits');
    expect(show.hosts.map((h) => h.name)).toEqual(['DuhLaurien', 'MaryKateUltra', 'Daisy B. Cooper']);
  });
});
