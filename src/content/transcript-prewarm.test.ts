import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent, loadCuesOnDemand, type LoadResult } from './load.ts';
import { configureParseCache, type ParseCacheUsage } from './parse-cache.ts';
import { prewarmTranscripts, transcriptClaims, useTranscriptClaims } from './transcript-prewarm.ts';

const SAMPLE = join(import.meta.dirname, '../../content');
const TRANSCRIPTS = join(SAMPLE, 'transcripts');
const transcripts = readdirSync(TRANSCRIPTS).filter((n) => /\.(srt|vtt)$/.test(n));
// Each SubRip transcript is two cache entries (its blocks and its cues), a WebVTT transcript one.
const entries = transcripts.reduce((n, name) => n + (name.endsWith('.srt') ? 2 : 1), 0);
// The folder also keeps one entry per episode file (its frontmatter and notes, load.ts), which the counts leave out.
const files = entries + readdirSync(join(SAMPLE, 'episodes')).filter((n) => n.endsWith('.md')).length;
/** The cache folder's entries but the episode files' facts (file-facts.ts), kept or not as the files' age decides. */
const cacheEntries = (dir: string) => readdirSync(dir).filter((name) => !name.startsWith('episode-facts-'));
const { content: plainContent, errors: plainErrors } = loadContent(SAMPLE);
// What the workers post back: the content and its errors (notes are not compared).
const plain = { content: plainContent, errors: plainErrors };

const dirs: string[] = [];
afterEach(() => {
  configureParseCache(undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'prewarm-'));
  dirs.push(dir);
  return dir;
}

/** A load beside the helper, on a thread under Node's loader (transcript-prewarm.test-worker.ts). */
function loadWithHelper(cacheDir: string, waitForHelper: boolean, kept = false): Promise<LoadResult & { misses: number; hits: number; helper?: ParseCacheUsage }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./transcript-prewarm.test-worker.ts', import.meta.url), {
      workerData: { sample: SAMPLE, transcripts: TRANSCRIPTS, cacheDir, waitForHelper, kept },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('transcript prewarm', () => {
  it('is not started without a cache folder, for a small show or without transcripts', () => {
    expect(prewarmTranscripts(TRANSCRIPTS, 1)).toBeUndefined();
    configureParseCache(folder());
    expect(prewarmTranscripts(TRANSCRIPTS)).toBeUndefined();
    expect(prewarmTranscripts(join(SAMPLE, 'no-such-folder'), 1)).toBeUndefined();
  });

  it('is not started when the load will read no transcript: a rebuild finds them as the last build did (srt-facts.ts)', async () => {
    configureParseCache(folder());
    loadCuesOnDemand(true);
    try {
      // Nothing known yet: the helper starts (and is stopped at once).
      const first = prewarmTranscripts(TRANSCRIPTS, 1);
      expect(first).toBeDefined();
      await first!.finish();
      // A load learns every transcript's facts; the next build's helper would have nothing to parse.
      expect(loadContent(SAMPLE).errors).toEqual([]);
      expect(prewarmTranscripts(TRANSCRIPTS, 1)).toBeUndefined();
    } finally {
      loadCuesOnDemand(false);
      useTranscriptClaims(undefined);
    }
  });

  it('parses every transcript into the cache on its own thread, and the load reads them back: the same content', async () => {
    expect(transcripts.length).toBeGreaterThan(1);
    const cacheDir = folder();
    const loaded = await loadWithHelper(cacheDir, true);
    expect({ content: loaded.content, errors: loaded.errors }).toEqual(plain);
    expect(cacheEntries(cacheDir)).toHaveLength(files);
    // Every entry was made by the helper (its work counts as the load's) and every episode's cues read from it.
    expect(loaded.misses).toBe(entries);
    expect(loaded.hits).toBe(transcripts.length);
  });

  it('shares the work with a load running beside it: each transcript parsed once, the same content', async () => {
    const cacheDir = folder();
    const loaded = await loadWithHelper(cacheDir, false);
    expect({ content: loaded.content, errors: loaded.errors }).toEqual(plain);
    expect(loaded.misses).toBe(entries);
    expect(cacheEntries(cacheDir)).toHaveLength(files);
  });

  it('leaves the transcripts already kept alone (a rebuild): nothing parsed, each read once by the load', async () => {
    const cacheDir = folder();
    const loaded = await loadWithHelper(cacheDir, true, true);
    expect({ content: loaded.content, errors: loaded.errors }).toEqual(plain);
    expect(loaded.misses).toBe(0);
    expect(loaded.hits).toBe(transcripts.length);
    // The helper went through every transcript (it waited for it) and read none of the kept entries back.
    expect(loaded.helper).toMatchObject({ hits: 0, misses: 0 });
  });

  it('are claimed once per build: threads loading side by side with the same claims parse each transcript once', async () => {
    const cacheDir = folder();
    configureParseCache(cacheDir);
    const claims = transcriptClaims(TRANSCRIPTS)!;
    // The same claims for the same folders (the content check's helper takes the bulk documents' threads' ones).
    expect(transcriptClaims(TRANSCRIPTS)).toBe(claims);
    expect(claims.files).toHaveLength(transcripts.length);
    const start = new Int32Array(new SharedArrayBuffer(4));
    const load = () =>
      new Promise<LoadResult & { misses: number; hits: number }>((resolve, reject) => {
        const worker = new Worker(new URL('./transcript-claims.test-worker.ts', import.meta.url), { workerData: { sample: SAMPLE, cacheDir, claims, start } });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    const [a, b] = await Promise.all([load(), load()]);
    for (const loaded of [a, b]) expect({ content: loaded.content, errors: loaded.errors }).toEqual(plain);
    // Each entry made by one of them; the other read that transcript's cues back.
    expect(a.misses + b.misses).toBe(entries);
    expect(a.hits + b.hits).toBe(transcripts.length);
    expect(cacheEntries(cacheDir)).toHaveLength(files);
    // Another cache folder: claims of its own (a flag means "kept in this folder").
    configureParseCache(folder());
    expect(transcriptClaims(TRANSCRIPTS)).not.toBe(claims);
  });
});
