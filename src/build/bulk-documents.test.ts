import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { configureParseCache, parseCacheStats } from '../content/parse-cache.ts';
import { loadContentOrThrow, loadCuesOnDemand } from '../content/load.ts';
import { CUES_CODEC } from '../content/cues-codec.ts';
import { bulkDocuments, bulkDocumentsWrittenByIntegration, episodeDocuments, setBulkDocumentsWrittenByIntegration, showDocuments } from './bulk-documents.ts';
import { buildSearchIndexJson } from './search/search-index-document.ts';
import { searchArtifacts, searchFiles } from './search/artifacts.ts';
import { semanticArtifact } from './search/semantic.ts';
import { buildChaptersJson } from './chapters.ts';
import { buildRss } from './rss.ts';
import { buildServiceData } from './service-data.ts';
import { renderTranscript, transcriptFiles } from './transcripts.ts';

const content = loadContentOrThrow(join(import.meta.dirname, '../../content'), {});

describe('bulk documents', () => {
  it('are the documents of the transcript, chapter, record, search index, shard, passage, semantic, offline index and feed routes, byte for byte', async () => {
    const docs = new Map<string, string>();
    for await (const [path, body] of bulkDocuments(content)) docs.set(path, String(body));

    const service = buildServiceData(content);
    const expected = new Map<string, string>();
    for (const e of content.episodes) {
      if (e.transcript) for (const f of transcriptFiles(e)) expected.set(`/transcripts/${f.file}`, renderTranscript(e.transcript, f.ext));
      if (e.chapters?.length) expected.set(`/chapters/${e.id}.json`, JSON.stringify(buildChaptersJson(e)));
      // An episode's record is its element of /service.json.
      expected.set(`/search/records/${e.id}.json`, JSON.stringify(service.episodes.find((s) => s.id === e.id)));
    }
    for (const [path, body] of Object.entries(searchFiles(await searchArtifacts(content)))) expected.set(path, body);
    expected.set('/search-index.json', JSON.stringify(buildSearchIndexJson(content.episodes)));
    expected.set('/rss.xml', buildRss(content));
    expected.set('/search/semantic.json', JSON.stringify(await semanticArtifact(content)));
    expect([...docs.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, body] of expected) expect(docs.get(path), path).toBe(body);
    expect([...docs.keys()].some((p) => p.startsWith('/transcripts/'))).toBe(true);
    expect([...docs.keys()].some((p) => p.startsWith('/search/passage-terms/'))).toBe(true);
    expect([...docs.keys()].filter((p) => p.startsWith('/search/records/'))).toHaveLength(content.episodes.length);
  });

  it("with a cache folder, an episode's passage files are made once and read back the same, byte for byte", async () => {
    const collect = async () => {
      const docs = new Map<string, string>();
      for await (const [path, body] of episodeDocuments(content)) docs.set(path, String(body));
      return docs;
    };
    const uncached = await collect();
    const dir = mkdtempSync(join(tmpdir(), 'episode-documents-'));
    configureParseCache(dir);
    try {
      const start = parseCacheStats();
      const first = await collect();
      const lookups = parseCacheStats().hits + parseCacheStats().misses - start.hits - start.misses;
      const entries = () => readdirSync(dir).filter((name) => name.endsWith('.bin')).length;
      const written = entries();
      const before = parseCacheStats();
      const second = await collect();
      const withTranscripts = content.episodes.filter((e) => e.transcript).length;
      // Every lookup of the first run is a hit, but for each episode's analysis: with its files read back, it is not needed.
      expect(parseCacheStats().hits - before.hits).toBe(lookups - withTranscripts);
      expect(parseCacheStats().misses - before.misses).toBe(0);
      expect(entries()).toBe(written);
      for (const docs of [first, second]) {
        expect([...docs.keys()]).toEqual([...uncached.keys()]);
        for (const [path, body] of uncached) expect(docs.get(path), path).toBe(body);
      }
    } finally {
      configureParseCache(undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the offline index made as the integration makes it, with its gzip from pieces the cache keeps, is the route's document", () => {
    const dir = mkdtempSync(join(tmpdir(), 'show-documents-'));
    configureParseCache(dir);
    try {
      const route = JSON.stringify(buildSearchIndexJson(content.episodes));
      const pieces = () => readdirSync(dir).filter((name) => name.endsWith('.bin')).length;
      const made = [...showDocuments(content, { gzipLevel: 5 })];
      // With the feed, which the integration writes with them (not Astro's prerenderer); no gzip made for it here.
      expect(made.map(([path]) => path)).toEqual(['/search-index.json', '/rss.xml']);
      expect(made[1]![1]).toBe(buildRss(content));
      expect(made[1]![2]).toBeUndefined();
      const [, text, gz] = made[0]!;
      expect(String(text)).toBe(route);
      expect(gunzipSync(gz!).toString()).toBe(route);
      // An entry and a piece an episode, kept, and read back the same by the next build.
      expect(pieces()).toBe(2 * content.episodes.length);
      const again = [...showDocuments(content, { gzipLevel: 5 })][0]!;
      expect(Buffer.from(again[2]!).equals(Buffer.from(gz!))).toBe(true);
      expect(pieces()).toBe(2 * content.episodes.length);
      // Each entry is kept by the transcript's digest, the title and the description: the next build reads no
      // transcript's cues (a build makes them on demand, src/content/load.ts).
      let reads = 0;
      const counted = content.episodes.map((e) => {
        if (!e.transcript) return e;
        const copy = { ...e };
        Object.defineProperty(copy, 'cues', { enumerable: true, get: () => (reads++, e.cues) });
        return copy;
      });
      expect(String([...showDocuments({ ...content, episodes: counted }, { gzipLevel: 5 })][0]![1])).toBe(route);
      expect(reads).toBe(0);
      // Another transcript (another digest) is read from its cues.
      const edited = content.episodes.map((e) =>
        e.id === 1 && e.transcript ? { ...e, transcript: { ...e.transcript, digest: 'edited' }, cues: [{ start: 0, end: 1, text: 'Edited words.' }] } : e,
      );
      const editedText = String([...showDocuments({ ...content, episodes: edited }, { gzipLevel: 5 })][0]![1]);
      expect(editedText).toBe(JSON.stringify(buildSearchIndexJson(edited)));
      expect(editedText).toContain('Edited words.');
    } finally {
      configureParseCache(undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the episodes part reads each episode's cues without keeping them, and makes the same documents", async () => {
    // As the build's threads load the content: each SubRip transcript's cues made when read, from the content
    // cache's entry (src/content/load.ts).
    const dir = mkdtempSync(join(tmpdir(), 'episode-documents-'));
    configureParseCache(dir);
    loadCuesOnDemand(true);
    const decode = vi.spyOn(CUES_CODEC, 'decode');
    try {
      const onDemand = loadContentOrThrow(join(import.meta.dirname, '../../content'), {});
      const docs = new Map<string, string>();
      for (const [path, body] of showDocuments(onDemand)) docs.set(path, String(body));
      for await (const [path, body] of episodeDocuments(onDemand)) docs.set(path, String(body));
      const made = decode.mock.calls.length;
      const srt = onDemand.episodes.filter((e) => e.transcript?.format === 'srt');
      expect(srt.length).toBeGreaterThan(1);
      expect(made).toBeGreaterThanOrEqual(srt.length);
      // None kept: reading the field now makes each episode's again (kept, it would make none).
      for (const e of srt) expect(e.cues?.length, `episode ${e.id}`).toBeGreaterThan(0);
      expect(decode.mock.calls.length - made).toBe(srt.length);
      const expected = new Map<string, string>();
      for (const [path, body] of showDocuments(content)) expected.set(path, String(body));
      for await (const [path, body] of episodeDocuments(content)) expected.set(path, String(body));
      expect([...docs.keys()]).toEqual([...expected.keys()]);
      for (const [path, body] of expected) expect(docs.get(path), path).toBe(body);
    } finally {
      loadCuesOnDemand(false);
      decode.mockRestore();
      configureParseCache(undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the routes step aside only when the integration says it writes them', () => {
    expect(bulkDocumentsWrittenByIntegration()).toBe(false);
    setBulkDocumentsWrittenByIntegration(true);
    expect(bulkDocumentsWrittenByIntegration()).toBe(true);
    setBulkDocumentsWrittenByIntegration(false);
  });
});
