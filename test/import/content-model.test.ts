/** The content model's fields for imported shows: linked audio, the exact enclosure and pubDate, hosts, explicit, the show's GUID. */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseFeed } from 'podcast-partytime';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadContent } from '../../src/content/load.ts';
import { buildRss } from '../../src/build/rss.ts';

const ROOT = resolve(import.meta.dirname, '../..');
// The sample show without the keys these tests set themselves.
const SHOW = (() => {
  const { hosts: _hosts, guid: _guid, ...rest } = parse(readFileSync(join(ROOT, 'content/podcast.yaml'), 'utf8')) as Record<string, unknown>;
  return stringify(rest);
})();

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function fixture(episodes: Record<string, string>, show = SHOW): string {
  const dir = mkdtempSync(join(tmpdir(), 'import-model-'));
  dirs.push(dir);
  const content = join(dir, 'content');
  mkdirSync(join(content, 'episodes'), { recursive: true });
  writeFileSync(join(content, 'podcast.yaml'), show);
  for (const [name, fields] of Object.entries(episodes)) writeFileSync(join(content, 'episodes', name), `---\n${fields.trim()}\n---\nNotes.\n`);
  return dir;
}

const load = (dir: string) => loadContent(join(dir, 'content'), {}, dir);
const URL_ = 'https://cdn.example.org/ep%201.mp3?k=a&s=3';

describe('content model: imported shows', () => {
  it('links audio by URL and publishes the enclosure, pubDate, hosts and explicit flag exactly', () => {
    const dir = fixture(
      {
        '001-a.md': `id: 1\nseason: 1\ntitle: A\ndate: 2023-09-28\npubDate: "2023-09-28T16:20:00-05:00"\nduration: "1:02:03"\naudioUrl: "${URL_}"\naudioLength: 53489949\naudioType: audio/mp3\nguid: gid://x/1\nhosts: [Ann]\nguests: [Bob]\nexplicit: true`,
        '002-b.md': 'id: 2\nseason: 1\ntitle: B\ndate: 2023-10-01\naudioUrl: https://cdn.example.org/b.mp3',
      },
      `${SHOW}\nhosts: [Maya Okafor]\nguid: ac746d09-7c3b-5bcd-b28a-f12d6456ca8f\n`,
    );
    const { content, errors } = load(dir);
    expect(errors).toEqual([]);
    expect(content!.episodes[0]).toMatchObject({ audioUrl: URL_, audioBytes: 53489949, audioType: 'audio/mp3', hosts: ['Ann'], explicit: true });
    expect(content!.show.guid).toBe('ac746d09-7c3b-5bcd-b28a-f12d6456ca8f');

    const xml = buildRss(content!);
    const feed = parseFeed(xml, { allowMissingGuid: false })!;
    expect(feed.guid).toBe('ac746d09-7c3b-5bcd-b28a-f12d6456ca8f');
    const a = feed.items.find((i) => i.guid === 'gid://x/1')!;
    expect(a.enclosure).toEqual({ url: URL_, length: 53489949, type: 'audio/mp3' });
    expect(a.pubDate!.getTime()).toBe(Date.parse('2023-09-28T16:20:00-05:00'));
    expect(a.duration).toBe(3723);
    expect(a.explicit).toBe(true);
    expect(a.podcastPeople?.map((p) => [p.name, p.role.toLowerCase()])).toEqual([['Ann', 'host'], ['Bob', 'guest']]);
    const b = feed.items.find((i) => i.title === 'B')!;
    expect(b.enclosure).toEqual({ url: 'https://cdn.example.org/b.mp3', length: 0, type: 'audio/mpeg' });
    expect(b.pubDate!.toISOString()).toBe('2023-10-01T00:00:00.000Z');
    expect(b.explicit).toBe(false);
    expect(xml).toMatch(/<podcast:person role="host" group="cast">Maya Okafor<\/podcast:person>/);
  });

  it('reports audioFile with audioUrl, a pubDate on another day, and bad enclosure fields, by file and field', () => {
    const dir = fixture({
      '001-a.md': 'id: 1\nseason: 1\ntitle: A\ndate: 2023-09-28\naudioFile: a.mp3\naudioUrl: https://cdn.example.org/a.mp3',
      '002-b.md': 'id: 2\nseason: 1\ntitle: B\ndate: 2023-09-28\npubDate: "2023-09-29T01:00:00Z"',
      '003-c.md': 'id: 3\nseason: 1\ntitle: C\ndate: 2023-09-28\naudioUrl: ftp://x/c.mp3\naudioLength: -1\naudioType: mp3\npubDate: yesterday',
    });
    const errors = load(dir).errors;
    expect(errors).toContain('content/episodes/001-a.md: audioFile and audioUrl are both set; keep one (a bundled file or a link to the audio elsewhere)');
    expect(errors).toContain('content/episodes/002-b.md: pubDate "2023-09-29T01:00:00Z" is not on date 2023-09-28; change both together');
    expect(errors).toEqual(
      expect.arrayContaining([
        'content/episodes/003-c.md: audioUrl "ftp://x/c.mp3" must be an absolute http(s) URL',
        'content/episodes/003-c.md: audioLength -1 must be a whole number of bytes',
        'content/episodes/003-c.md: audioType "mp3" must be a MIME type such as audio/mpeg',
        'content/episodes/003-c.md: pubDate "yesterday" must be an ISO 8601 date-time such as 2025-01-14T08:00:00Z',
      ]),
    );
  });
});
