/**
 * The feed with 29 items whose transcripts and chapters are linked by URL (no-agenda.xml), with those URLs pointed at
 * a local HTTP server that this test starts: the command imports from the feed's URL, converts SubRip, WebVTT and
 * JSON transcripts to SubRip and JSON chapters to frontmatter, lists by item what it could not fetch, and the
 * imported show builds, serves, and its rss.xml round-trips the source feed.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFeed } from 'podcast-partytime';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSrt } from '../../src/content/srt.ts';
import { loadContent } from '../../src/content/load.ts';
import { buildSite, removeBuild } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { FEEDS, runImportCli, serveFiles, type FileServer } from './helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'import-linked-'));
const contentDir = join(work, 'content');
const original = readFileSync(join(FEEDS, 'no-agenda.xml'), 'utf8');
const numbers = [...original.matchAll(/NA-(\d+)-Captions\.srt/g)].map((m) => Number(m[1]));

const srt = (n: number) =>
  Array.from({ length: 12 }, (_, i) => `${i + 1}\n00:${String(i * 5).padStart(2, '0')}:00,000 --> 00:${String(i * 5 + 4).padStart(2, '0')}:59,000\nAdam: Episode ${n}, part ${i + 1}.\n`).join('\n');
const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:05.000\n<v John C Dvorak>In the morning!\n\n00:00:05.000 --> 00:30:00.000\n<v Adam Curry>Good morning, John.\n';
const json = JSON.stringify({
  version: '1.0.0',
  segments: [
    { speaker: 'Adam', startTime: 0, endTime: 0.5, body: 'This' },
    { speaker: 'Adam', startTime: 0.5, endTime: 1, body: 'is' },
    { speaker: 'Adam', startTime: 1, endTime: 1.6, body: 'Curry' },
    { speaker: 'John', startTime: 2, endTime: 1500, body: 'Dvorak' },
  ],
});
const chapters = (n: number) =>
  JSON.stringify({ version: '1.2.0', chapters: [{ startTime: 0, title: `Intro ${n}` }, { startTime: 300.4, title: 'Clips' }, { startTime: 9000, title: 'After the end' }] });

let files: FileServer;
let feedUrl: string;
let cli: Awaited<ReturnType<typeof runImportCli>>;
let distDir = '';
let server: RunningServer | undefined;

beforeAll(async () => {
  const served = new Map<string, { body: string; type: string }>();
  files = await serveFiles(served);
  for (const n of numbers) {
    if (n !== 1393) served.set(`/t/NA-${n}.srt`, { body: srt(n), type: 'application/srt' });
    if (n !== 1390 && n !== 1389) served.set(`/c/${n}.json`, { body: chapters(n), type: 'application/json+chapters' });
  }
  served.set('/t/1392.vtt', { body: vtt, type: 'text/vtt' });
  served.set('/t/1391.json', { body: json, type: 'application/json' });
  served.set('/c/1389.json', { body: '<html>gateway error</html>', type: 'text/html' });
  const feed = original
    .replace(/https:\/\/mp3s\.nashownotes\.com\/NA-(\d+)-Captions\.srt/g, `${files.url}/t/NA-$1.srt`)
    .replace(/http:\/\/34\.117\.70\.159\/http%3Afeed\.nashownotes\.comrss\.xml\/http:(\d+)\.noagendanotes\.com/g, `${files.url}/c/$1.json`)
    .replace(`url="${files.url}/t/NA-1392.srt" type="application/srt"`, `url="${files.url}/t/1392.vtt" type="text/vtt"`)
    .replace(`url="${files.url}/t/NA-1391.srt" type="application/srt"`, `url="${files.url}/t/1391.json" type="application/json"`);
  expect(feed).not.toMatch(/Captions\.srt|34\.117/);
  served.set('/feed.xml', { body: feed, type: 'application/rss+xml' });
  feedUrl = `${files.url}/feed.xml`;
  cli = await runImportCli([feedUrl, '--content', contentDir]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (distDir) removeBuild(distDir);
  await files?.close();
  rmSync(work, { recursive: true, force: true });
});

const frontmatter = (file: string) => parseYaml(/^---\n([\s\S]*?)\n---/.exec(readFileSync(join(contentDir, 'episodes', file), 'utf8'))![1]!) as Record<string, unknown>;
const byGuid = () => new Map(readdirSync(join(contentDir, 'episodes')).map((f) => [String(frontmatter(f).guid), { file: f, fm: frontmatter(f) }]));

describe('import from a URL with linked transcripts and chapters', () => {
  it('imports every item and lists by item what it could not fetch, as a warning', () => {
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/✓ Imported "No Agenda" into .*: 29 episodes \(29 new, 0 updated, 0 unchanged\), 28 transcripts, 27 with chapters/);
    const warnings = cli.stderr.trim().split('\n');
    expect(warnings[0]).toBe('Warning: could not fetch 3 files; the rest was imported:');
    expect(warnings.slice(1)).toEqual([
      `  - item 1 "1393: "Space Wake"": transcript ${files.url}/t/NA-1393.srt: HTTP 404`,
      expect.stringMatching(/^ {2}- item 4 "1390: "No Hugs For You!"": chapters .*\/c\/1390\.json: HTTP 404$/),
      expect.stringMatching(/^ {2}- item 5 "1389: "Wigglesworth"": chapters .*\/c\/1389\.json: is not JSON/),
    ]);
    // Only the transcripts, chapters and the feed were requested: link mode fetches no audio.
    expect(files.requests.every((p) => /^\/(t|c)\/|^\/feed\.xml$/.test(p))).toBe(true);
  });

  it('turns SubRip, WebVTT and JSON transcripts into SubRip files the content model reads', () => {
    const episodes = byGuid();
    const srtOf = (guid: string) => {
      const { fm } = episodes.get(guid)!;
      const { cues, problems } = parseSrt(readFileSync(join(contentDir, 'transcripts', String(fm.srtFile)), 'utf8'));
      expect(problems).toEqual([]);
      return cues;
    };
    expect(srtOf('http://1388.noagendanotes.com')[1]).toEqual({ start: 300, end: 599, text: 'Adam: Episode 1388, part 2.' });
    expect(srtOf('http://1392.noagendanotes.com').map((c) => c.text)).toEqual(['John C Dvorak: In the morning!', 'Adam Curry: Good morning, John.']);
    expect(srtOf('http://1391.noagendanotes.com').map((c) => c.text)).toEqual(['Adam: This is Curry', 'John: Dvorak']);
    expect(episodes.get('http://1393.noagendanotes.com')!.fm.srtFile).toBeUndefined();
  });

  it('turns JSON chapters into frontmatter, without those after the end', () => {
    const { fm } = byGuid().get('http://1388.noagendanotes.com')!;
    expect(fm.chapters).toEqual([
      { start: '00:00', title: 'Intro 1388' },
      { start: '05:00', title: 'Clips' },
    ]);
    expect(byGuid().get('http://1390.noagendanotes.com')!.fm.chapters).toBeUndefined();
    const { errors } = loadContent(contentDir, {}, work);
    expect(errors).toEqual([]);
  });

  it('re-runs without changes: nothing rewritten, fetched files not fetched again, failed ones tried again', async () => {
    const seen = files.requests.length;
    const again = await runImportCli([feedUrl, '--content', contentDir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/29 episodes \(0 new, 0 updated, 29 unchanged\), 28 transcripts, 27 with chapters/);
    expect(files.requests.slice(seen).sort()).toEqual(['/c/1389.json', '/c/1390.json', '/feed.xml', '/t/NA-1393.srt']);
  });

  it('builds and serves; the served rss.xml keeps every item of the source feed', async () => {
    distDir = await buildSite({ name: 'import-no-agenda', env: { CONTENT_DIR: contentDir } });
    server = await startServer({ distDir });
    const get = (path: string) => fetch(`${server!.url}${path}`);

    const rss = await (await get('/rss.xml')).text();
    const source = parseFeed(original)!;
    const built = parseFeed(rss)!;
    expect(built.items).toHaveLength(source.items.length);
    const out = new Map(built.items.map((i) => [i.guid, i]));
    for (const item of source.items) {
      const copy = out.get(item.guid)!;
      expect(copy, item.guid).toBeDefined();
      expect(copy.enclosure).toEqual(item.enclosure);
      expect(copy.pubDate?.getTime()).toBe(item.pubDate?.getTime());
      expect(copy.title).toBe(item.title);
    }
    expect(built.guid).toBe(source.guid);

    const episodes = (await (await get('/episodes.json')).json()) as Array<{ id: number; srtFile?: string; slug?: string }>;
    expect(episodes).toHaveLength(29);
    const withSrt = episodes.find((e) => e.srtFile)!;
    const transcript = await get(`/transcripts/${withSrt.srtFile}`);
    expect(transcript.status).toBe(200);
    expect(parseSrt(await transcript.text()).problems).toEqual([]);
    const page = await get(`/episodes/${byGuid().get('http://1388.noagendanotes.com')!.file.replace(/\.md$/, '')}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('https://mp3s.nashownotes.com/NA-1388-2021-10-07-Final.mp3');
    expect(html).toContain('Intro 1388');
  }, 600_000);
});
