/**
 * Re-running the import: nothing duplicated, what the feed changed is updated, what an editor changed is kept
 * (and listed) unless --force, a deleted episode stays deleted, and --audio download fetches audio once.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';
import { importFeed } from '../../src/import/import.ts';
import { offlineFetch, serveFiles, snapshot } from './helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'import-rerun-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Item {
  guid: string;
  title: string;
  day: number;
  notes?: string;
  url?: string;
}
function feedXml(title: string, items: Item[], description = 'A show.'): string {
  const body = items
    .map(
      (i) => `<item><title>${i.title}</title><guid isPermaLink="false">${i.guid}</guid><pubDate>${new Date(Date.UTC(2024, 0, i.day, 9)).toUTCString()}</pubDate>
<itunes:duration>1800</itunes:duration><description><![CDATA[<p>${i.notes ?? `Notes for ${i.title}.`}</p>]]></description>
<enclosure url="${i.url ?? `https://cdn.example.org/${i.guid}.mp3`}" length="1234" type="audio/mpeg"/></item>`,
    )
    .join('\n');
  return `<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
<title>${title}</title><link>https://show.example.org/</link><description>${description}</description><language>en</language>
<itunes:owner><itunes:name>Ed</itunes:name><itunes:email>ed@example.org</itunes:email></itunes:owner><itunes:category text="Arts"/>
${body}</channel></rss>`;
}

function write(name: string, xml: string): string {
  const path = join(work, name);
  writeFileSync(path, xml);
  return path;
}
const episodeFiles = (dir: string) => readdirSync(join(dir, 'episodes')).sort();
const read = (dir: string, rel: string) => readFileSync(join(dir, rel), 'utf8');
const fm = (dir: string, rel: string) => parseYaml(/^---\n([\s\S]*?)\n---/.exec(read(dir, rel))![1]!) as Record<string, unknown>;
const edit = (dir: string, rel: string, from: string | RegExp, to: string) => {
  const text = read(dir, rel);
  expect(text).toMatch(from);
  writeFileSync(join(dir, rel), text.replace(from, to));
};
const withoutState = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([k]) => k !== '.import.json'));

describe('re-running the import', () => {
  const dir = join(work, 'show');
  const v1 = [
    { guid: 'c', title: 'Third', day: 3 },
    { guid: 'b', title: 'Second', day: 2 },
    { guid: 'a', title: 'First', day: 1 },
  ];
  const run = (feed: string, force = false) => importFeed({ source: feed, contentDir: dir, fetch: offlineFetch, force });

  it('changes nothing when the feed did not change', async () => {
    const feed = write('v1.xml', feedXml('Show', v1));
    const first = await run(feed);
    expect(first.created).toEqual(['episodes/001-first.md', 'episodes/002-second.md', 'episodes/003-third.md', 'podcast.yaml']);
    const before = snapshot(dir);
    const again = await run(feed);
    expect(again).toMatchObject({ created: [], updated: [], unchanged: 3, kept: [] });
    expect(withoutState(snapshot(dir))).toEqual(withoutState(before));
  });

  it("updates what the feed changed, keeps what editors changed, adds new items once", async () => {
    edit(dir, 'episodes/002-second.md', 'title: Second', 'title: Second (edited)');
    edit(dir, 'episodes/003-third.md', 'Notes for Third.', 'Notes for Third, rewritten by an editor.');
    edit(dir, 'episodes/001-first.md', 'season: 1\n', 'season: 1\ntopics: [history]\n');
    edit(dir, 'podcast.yaml', 'description: A show.', 'description: A show, described by us.');
    edit(dir, 'podcast.yaml', 'siteUrl: http://localhost:4321', 'siteUrl: https://listen.example.org\ntopics: [arts]');

    const v2 = [{ guid: 'd', title: 'Fourth', day: 4 }, { ...v1[0]! }, { ...v1[1]!, title: 'Second, retitled' }, { ...v1[2]!, title: 'First, retitled' }];
    const report = await run(write('v2.xml', feedXml('Show Renamed', v2, 'A show, described by the feed.')));
    expect(report.created).toEqual(['episodes/004-fourth.md']);
    // 002's show notes changed in the feed (they name the title) and were not edited: updated; its edited title is kept.
    expect(report.updated.sort()).toEqual(['episodes/001-first.md', 'episodes/002-second.md', 'podcast.yaml']);
    expect(report.kept.sort()).toEqual(['episodes/002-second.md: title', 'podcast.yaml: description']);
    expect(episodeFiles(dir)).toEqual(['001-first.md', '002-second.md', '003-third.md', '004-fourth.md']);

    expect(fm(dir, 'episodes/001-first.md')).toMatchObject({ id: 1, title: 'First, retitled', topics: ['history'] });
    expect(fm(dir, 'episodes/002-second.md')).toMatchObject({ id: 2, title: 'Second (edited)' });
    expect(read(dir, 'episodes/003-third.md')).toContain('Notes for Third, rewritten by an editor.');
    expect(fm(dir, 'episodes/004-fourth.md')).toMatchObject({ id: 4, guid: 'd', title: 'Fourth' });
    const show = parseYaml(read(dir, 'podcast.yaml'));
    expect(show).toMatchObject({ title: 'Show Renamed', description: 'A show, described by us.', siteUrl: 'https://listen.example.org', topics: ['arts'] });
    expect(read(dir, 'podcast.yaml')).toMatch(/^# The show, imported from v1\.xml/);
    expect(loadContent(dir, {}, dir).errors).toEqual([]);

    const forced = await run(join(work, 'v2.xml'), true);
    expect(forced.kept).toEqual([]);
    expect(fm(dir, 'episodes/002-second.md')).toMatchObject({ id: 2, title: 'Second, retitled' });
    expect(read(dir, 'episodes/003-third.md')).toContain('Notes for Third.');
    expect(fm(dir, 'episodes/001-first.md')).toMatchObject({ topics: ['history'] });
    expect(parseYaml(read(dir, 'podcast.yaml'))).toMatchObject({ description: 'A show, described by the feed.', siteUrl: 'https://listen.example.org', topics: ['arts'] });
    expect(episodeFiles(dir)).toHaveLength(4);
    expect(readdirSync(work).filter((f) => f.includes('.import-'))).toEqual([]);
  });

  it('does not bring back an episode an editor deleted, unless --force', async () => {
    unlinkSync(join(dir, 'episodes/004-fourth.md'));
    const report = await run(join(work, 'v2.xml'));
    expect(report.notes).toContain('item 1 "Fourth": episodes/004-fourth.md was deleted since the last import; not brought back (--force does)');
    expect(existsSync(join(dir, 'episodes/004-fourth.md'))).toBe(false);
    await run(join(work, 'v2.xml'), true);
    expect(fm(dir, 'episodes/004-fourth.md')).toMatchObject({ id: 4, guid: 'd' });
  });
});

describe('--audio download', () => {
  it('downloads each enclosure once, links by URL what it cannot fetch or is too large', async () => {
    // Two MPEG audio frames (128 kbit/s, 44.1 kHz; 834 bytes): the check refuses a file that is not MP3.
    const frame = Buffer.alloc(417);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    const mp3 = Buffer.concat([frame, frame]);
    const files = await serveFiles(
      new Map([
        ['/a.mp3', { body: mp3, type: 'audio/mpeg' }],
        ['/big.mp3', { body: Buffer.alloc(5000), type: 'audio/mpeg' }],
      ]),
    );
    try {
      const dir = join(work, 'download');
      const feed = write(
        'audio.xml',
        feedXml('Audio', [
          { guid: 'big', title: 'Big', day: 3, url: `${files.url}/big.mp3` },
          { guid: 'gone', title: 'Gone', day: 2, url: `${files.url}/gone.mp3` },
          { guid: 'a', title: 'Here', day: 1, url: `${files.url}/a.mp3` },
        ]),
      );
      const run = () => importFeed({ source: feed, contentDir: dir, audio: 'download', fetch: offlineFetch, limits: { audio: 1000 } });
      const report = await run();
      expect(report.unfetched).toEqual([
        { item: 'item 1 "Big"', what: 'audio', url: `${files.url}/big.mp3`, reason: 'larger than 1000 bytes (5 KB); linked by URL instead' },
        { item: 'item 2 "Gone"', what: 'audio', url: `${files.url}/gone.mp3`, reason: 'HTTP 404; linked by URL instead' },
      ]);
      expect(readFileSync(join(dir, 'audio/001-here.mp3'))).toEqual(mp3);
      expect(fm(dir, 'episodes/001-here.md')).toMatchObject({ audioFile: '001-here.mp3', audioType: 'audio/mpeg' });
      expect(fm(dir, 'episodes/001-here.md').audioUrl).toBeUndefined();
      expect(fm(dir, 'episodes/002-gone.md')).toMatchObject({ audioUrl: `${files.url}/gone.mp3`, audioLength: 1234 });
      const { content, errors } = loadContent(dir, {}, dir);
      expect(errors).toEqual([]);
      expect(content!.episodes[0]).toMatchObject({ audioFile: '001-here.mp3', audioBytes: mp3.byteLength });

      const requests = files.requests.filter((p) => p === '/a.mp3').length;
      await run();
      expect(files.requests.filter((p) => p === '/a.mp3').length).toBe(requests);
      expect(existsSync(join(dir, 'audio/002-gone.mp3'))).toBe(false);
    } finally {
      await files.close();
    }
  });
});
