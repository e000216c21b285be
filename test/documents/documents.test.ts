/**
 * The prebuilt documents of the sample podcast, fetched from the real server and checked against the contract's
 * schemas and against podcast feed parsers nobody here wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { parseFeed, TranscriptType } from 'podcast-partytime';
import { parseRssFeed } from 'feedsmith';
import { v5 as uuidv5 } from 'uuid';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { EpisodeListSchema, type Episode } from '../../contract/schemas/episode.ts';
import { SearchIndexSchema } from '../../contract/schemas/search.ts';
import { parseDuration } from '../../contract/duration.ts';
import { parseSrt } from '../../src/content/srt.ts';
import { PODCAST_GUID_NAMESPACE } from '../../src/content/load.ts';
import { parseVtt } from '../../src/content/vtt.ts';
import { splitSpeaker } from '../../src/components/transcript.ts';
import { mp3Info } from '../../src/content/mp3.ts';

let server: RunningServer;
let episodes: Episode[];
const get = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

beforeAll(async () => {
  // A generous rate limit: this suite walks every link the documents list.
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
  episodes = EpisodeListSchema.parse(await (await get('/episodes.json')).json());
});
afterAll(() => server?.stop());

/** Links on this site only: external platform links cannot be reached from the test machine. */
function ownLinks(text: string, base: string): string[] {
  const found = [...text.matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map((m) => m[1]!);
  return [...new Set(found.filter((u) => u.startsWith(base)))];
}

describe('/episodes.json', () => {
  it('is the contract Episode list, sorted by id ascending, with the sample podcast', () => {
    expect(episodes.length).toBeGreaterThanOrEqual(12);
    expect(new Set(episodes.map((e) => e.season)).size).toBeGreaterThanOrEqual(2);
    expect(episodes.map((e) => e.id)).toEqual([...episodes.map((e) => e.id)].sort((a, b) => a - b));
    expect(episodes.filter((e) => !e.hasSrt).length).toBeGreaterThanOrEqual(1);
    for (const e of episodes) {
      expect(e.guests?.length, `episode ${e.id} guests`).toBeGreaterThan(0);
      expect(e.topics?.length, `episode ${e.id} topics`).toBeGreaterThan(0);
      expect(e.chapters?.length, `episode ${e.id} chapters`).toBeGreaterThan(0);
      expect(e.seconds).toBe(parseDuration(e.duration!));
      expect(e.guid).toBeTruthy();
    }
  });

  it('publishes every transcript at a stable URL, each at least 1,500 words', async () => {
    for (const e of episodes.filter((x) => x.hasSrt)) {
      const res = await get(`/transcripts/${e.srtFile}`);
      expect(res.status, e.srtFile).toBe(200);
      const { cues, problems } = parseSrt(await res.text());
      expect(problems).toEqual([]);
      const words = cues.map((c) => c.text).join(' ').split(/\s+/).length;
      expect(words, `${e.srtFile} words`).toBeGreaterThanOrEqual(1500);
    }
  });

  it('publishes every transcript as SRT, WebVTT and Podcasting 2.0 JSON with the same cues', async () => {
    for (const e of episodes.filter((x) => x.hasSrt)) {
      const stem = e.srtFile!.replace(/\.srt$/, '');
      const srt = parseSrt(await (await get(`/transcripts/${stem}.srt`)).text()).cues;
      const vttRes = await get(`/transcripts/${stem}.vtt`);
      expect(vttRes.status, `${stem}.vtt`).toBe(200);
      expect(vttRes.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
      const vtt = parseVtt(await vttRes.text());
      expect(vtt.problems).toEqual([]);
      expect(vtt.cues.map(({ start, end, text }) => ({ start, end, text }))).toEqual(srt);
      const jsonRes = await get(`/transcripts/${stem}.json`);
      expect(jsonRes.status, `${stem}.json`).toBe(200);
      expect(jsonRes.headers.get('content-type')).toMatch(/^application\/json/);
      const json = (await jsonRes.json()) as { version: string; segments: Array<{ speaker?: string; startTime: number; endTime: number; body: string }> };
      expect(json.version).toBe('1.0.0');
      expect(json.segments).toHaveLength(srt.length);
      let speaker: string | undefined;
      json.segments.forEach((segment, i) => {
        const split = splitSpeaker(srt[i]!.text);
        speaker = split.speaker ?? speaker;
        expect(segment).toEqual({ ...(speaker ? { speaker } : {}), startTime: srt[i]!.start, endTime: srt[i]!.end, body: split.text });
      });
      expect(new Set(json.segments.map((x) => x.speaker)).size, `${stem} speakers`).toBeGreaterThanOrEqual(2);
    }
  });

  it('publishes full-length MP3s: each as long as its episode (within 2 s), small and mono, under 30 MB in all', async () => {
    let total = 0;
    for (const e of episodes) {
      const res = await get(`/audio/${e.audioFile}`);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      total += bytes.byteLength;
      // An MP3 starts with an ID3 tag or an MPEG frame sync.
      const id3 = bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33;
      const sync = bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0;
      expect(id3 || sync, e.audioFile).toBe(true);
      // Measured from the MPEG frame headers, not from a tag that could say anything.
      const info = mp3Info(bytes);
      expect(Math.abs(info.seconds - e.seconds!), `${e.audioFile}: ${info.seconds} s, duration ${e.seconds} s`).toBeLessThanOrEqual(2);
      expect(info.channels).toBe(1);
      expect(info.bitrate).toBeLessThanOrEqual(32);
    }
    expect(total).toBeLessThan(30 * 1024 * 1024);
  });
});

describe('/search-index.json', () => {
  it('maps every episode id to its title, description and transcript text', async () => {
    const index = SearchIndexSchema.parse(await (await get('/search-index.json')).json());
    expect(Object.keys(index).sort()).toEqual(episodes.map((e) => String(e.id)).sort());
    for (const e of episodes) {
      expect(index[String(e.id)]).toContain(e.title);
    }
    const withSrt = episodes.find((e) => e.hasSrt)!;
    const srt = parseSrt(await (await get(`/transcripts/${withSrt.srtFile}`)).text());
    expect(index[String(withSrt.id)]).toContain(srt.cues[5]!.text);
  });
});

describe('/search/records/<id>.json', () => {
  it("serves each episode's record where the index's layout says, equal to its element of /service.json", async () => {
    const { SearchLayoutSchema } = await import('../../contract/schemas/search-passages.ts');
    const { ServiceDataSchema, ServiceEpisodeSchema } = await import('../../contract/schemas/service-data.ts');
    const layout = SearchLayoutSchema.parse((await (await get('/search/lunr-index.json')).json()).layout);
    const service = ServiceDataSchema.parse(await (await get('/service.json')).json());
    expect(layout.records?.episodes).toEqual(episodes.map((e) => e.id));
    for (const id of layout.records!.episodes) {
      const res = await get(layout.records!.path.replace('{id}', String(id)));
      expect(res.status, String(id)).toBe(200);
      expect(res.headers.get('content-type')?.split(';')[0]).toBe('application/json');
      const record = ServiceEpisodeSchema.parse(await res.json());
      expect(record).toEqual(service.episodes.find((e) => e.id === id));
    }
  });
});

describe('/rss.xml', () => {
  let xml: string;
  beforeAll(async () => {
    const res = await get('/rss.xml');
    expect(res.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    xml = await res.text();
  });

  it('parses with podcast-partytime with the iTunes and Podcasting 2.0 tags', async () => {
    const feed = parseFeed(xml, { allowMissingGuid: false });
    expect(feed).not.toBeNull();
    const f = feed!;
    expect(f.title).toBe('Deep Field');
    expect(f.itunesImage).toMatch(/^http:\/\/localhost:4321\/artwork\.png$/);
    expect(f.itunesCategory).toEqual(
      expect.arrayContaining(['Science > Natural Sciences', 'Science > Life Sciences', 'Society & Culture > Documentary', 'Technology']),
    );
    expect(f.explicit).toBe(false);
    expect(f.author).toBe('Deep Field Studio');
    expect(f.owner).toEqual({ name: 'Maya Okafor', email: 'hello@deepfield.example' });
    expect(f.itunesType).toBe('episodic');
    // Pinned in podcast.yaml (to the UUIDv5 of the first feed URL), so it no longer follows SITE_URL.
    expect(f.guid).toBe(uuidv5('localhost:4321/rss.xml', PODCAST_GUID_NAMESPACE));
    expect(f.medium).toBe('podcast');
    expect(f.podcastPeople).toEqual([
      // partytime capitalises roles (Host, Guest) as the namespace's taxonomy writes them.
      expect.objectContaining({ name: 'Maya Okafor', role: 'Host', img: 'http://localhost:4321/artwork.png', href: 'https://deepfield.example/about' }),
    ]);
    expect(f.podcastFunding?.[0]?.url).toBe('https://ko-fi.com/deepfield-example');
    expect(f.items).toHaveLength(episodes.length);

    for (const item of f.items) {
      const e = episodes.find((x) => x.id === item.itunesEpisode)!;
      expect(e, `item ${item.title}`).toBeDefined();
      expect(item.title).toBe(e.title);
      expect(item.guid).toBe(e.guid);
      expect(item.itunesSeason).toBe(e.season);
      expect(item.itunesEpisodeType).toBe('full');
      expect(item.duration).toBe(e.seconds);
      expect(item.podcastSeason?.number).toBe(e.season);
      expect(item.podcastEpisode?.number).toBe(e.id);
      // An item's people replace the channel's: the host is listed with the guests.
      expect(item.podcastPeople?.map((p) => p.name)).toEqual(['Maya Okafor', ...e.guests!]);
      expect(item.podcastPeople?.map((p) => p.role.toLowerCase())).toEqual(['host', ...e.guests!.map(() => 'guest')]);
      // The enclosure length is the real byte size of the published MP3.
      const audio = await get(new URL(item.enclosure.url).pathname);
      expect(item.enclosure.type).toBe('audio/mpeg');
      expect(item.enclosure.length).toBe((await audio.arrayBuffer()).byteLength);
      if (e.hasSrt) {
        // SRT (application/x-subrip, the namespace's listed SRT type), WebVTT and JSON, each answering 200.
        expect(item.podcastTranscripts?.map((t) => t.type)).toEqual([TranscriptType.SRT, TranscriptType.VTT, TranscriptType.JSON]);
        const stem = e.srtFile!.replace(/\.srt$/, '');
        expect(item.podcastTranscripts?.map((t) => new URL(t.url).pathname)).toEqual(['srt', 'vtt', 'json'].map((x) => `/transcripts/${stem}.${x}`));
        expect(xml).toContain(`<podcast:transcript url="${item.podcastTranscripts![0]!.url}" type="application/x-subrip"`);
        for (const t of item.podcastTranscripts!) {
          const res = await get(new URL(t.url).pathname);
          expect(res.status, t.url).toBe(200);
          expect(res.headers.get('content-type')?.split(';')[0]).toBe(t.type === TranscriptType.SRT ? 'application/x-subrip' : t.type);
        }
      } else {
        expect(item.podcastTranscripts ?? []).toEqual([]);
      }
      expect(item.podcastChapters?.type).toBe('application/json+chapters');
      const chapters = await (await get(new URL(item.podcastChapters!.url).pathname)).json();
      expect(chapters.version).toBe('1.2.0');
      expect(chapters.chapters).toEqual(e.chapters!.map((c) => ({ startTime: parseDuration(c.start), title: c.title })));
    }
  });

  it('parses with feedsmith (iTunes and podcast namespaces)', () => {
    const feed = parseRssFeed(xml);
    expect(feed.title).toBe('Deep Field');
    expect(feed.itunes?.owner).toEqual({ name: 'Maya Okafor', email: 'hello@deepfield.example' });
    expect(feed.itunes?.explicit).toBe(false);
    expect(feed.itunes?.categories?.map((c) => c.text)).toEqual(['Science', 'Society & Culture', 'Technology']);
    expect(feed.podcast?.guid).toBe(uuidv5('localhost:4321/rss.xml', PODCAST_GUID_NAMESPACE));
    expect(feed.podcast?.medium).toBe('podcast');
    expect(feed.podcast?.persons).toEqual([
      expect.objectContaining({ display: 'Maya Okafor', role: 'host', img: 'http://localhost:4321/artwork.png', href: 'https://deepfield.example/about' }),
    ]);
    expect(feed.items).toHaveLength(episodes.length);
    for (const e of episodes) {
      const item = feed.items!.find((i) => i.title === e.title);
      expect(item, e.title).toBeDefined();
      expect(item!.enclosures?.[0]?.url).toBe(`http://localhost:4321/audio/${e.audioFile}`);
      expect(item!.guid?.value).toBe(e.guid);
      expect(item!.itunes?.duration).toBe(e.seconds);
      expect(item!.itunes?.episode).toBe(e.id);
      expect(item!.podcast?.transcripts?.map((t) => t.type) ?? []).toEqual(
        e.hasSrt ? ['application/x-subrip', 'text/vtt', 'application/json'] : [],
      );
      expect(item!.podcast?.persons?.map((p) => p.role)).toEqual(['host', ...e.guests!.map(() => 'guest')]);
    }
  });
});

describe('/llms.txt', () => {
  it('follows the llms.txt shape with the contract sections, and every own URL answers 2xx', async () => {
    const res = await get('/llms.txt');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text.startsWith('# Deep Field\n\n> ')).toBe(true);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      'Agent instructions', 'About', 'Why', 'Use cases', 'Constraints', 'Topics', 'Capabilities', 'Data and APIs', 'Subscribe', 'Latest episode',
    ]);
    const latest = [...episodes].sort((a, b) => b.id - a.id)[0]!;
    expect(text.split('## Latest episode')[1]).toContain(latest.title);
    const links = ownLinks(text, 'http://localhost:4321');
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) {
      const url = new URL(link);
      const r = await get(url.pathname + url.search);
      expect(r.status, link).toBeGreaterThanOrEqual(200);
      expect(r.status, link).toBeLessThan(300);
    }
  });
});

describe('licences that travel with what the site publishes', () => {
  it('/licenses.md holds the licence of every package the browser scripts bundle (lunr MIT, lunr-languages MPL)', async () => {
    const res = await get('/licenses.md');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    expect(text).toMatch(/^## lunr - [\d.]+ \(MIT\)$/m);
    expect(text).toContain('Copyright (C) 2013 by Oliver Nightingale');
    expect(text).toMatch(/^## lunr-languages - [\d.]+ \(MPL-1\.1\)$/m);
  });

  it('/search/semantic.json, made from WordNet, carries WordNet\'s copyright notice and disclaimer', async () => {
    const data = (await (await get('/search/semantic.json')).json()) as { notice?: string };
    expect(data.notice).toContain('WordNet 3.1 Copyright 2011 by Princeton University.  All rights reserved.');
    expect(data.notice).toContain('THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS"');
  });
});

describe('/AGENTS.md and /docs.md', () => {
  it.each(['/AGENTS.md', '/docs.md'])('%s is Markdown whose own links answer 2xx', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    const links = ownLinks(text, 'http://localhost:4321');
    expect(links.length).toBeGreaterThan(4);
    for (const link of links) {
      const url = new URL(link);
      const r = await get(url.pathname + url.search);
      expect(r.status, link).toBeLessThan(300);
    }
  });

  it('docs.md lists every error code the service uses', async () => {
    const { ERROR_CODES } = await import('../../functions/errors.ts');
    const text = await (await get('/docs.md')).text();
    for (const code of Object.keys(ERROR_CODES)) expect(text).toContain(`\`${code}\``);
  });
});

describe('documents the hosts trust at start', () => {
  // Hosts check only the envelope and a few entries of these at start (trustedManifest, trustedServiceData): the
  // whole of them must match their schemas, as written by the build.
  it('/_manifest.json and /service.json match their whole schemas', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { parseManifest } = await import('../../contract/schemas/asset-manifest.ts');
    const { ServiceDataSchema } = await import('../../contract/schemas/service-data.ts');
    const client = join(inject('distDir'), 'client');
    const manifest = parseManifest(JSON.parse(readFileSync(join(client, '_manifest.json'), 'utf8')));
    expect(manifest.files.size).toBeGreaterThan(50);
    expect(manifest.files.get('/episodes.json')?.fn).toBe(true);
    const service = ServiceDataSchema.parse(JSON.parse(readFileSync(join(client, 'service.json'), 'utf8')));
    expect(service.episodes.length).toBe(episodes.length);
  });
});
