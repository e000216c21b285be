/**
 * In-process access to the search engine for the unit and relevance tests: the same DataStore and engine the
 * server uses, fed either with a build's output folder or with artifacts built here from the content.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataStore } from '../../functions/data.ts';
import { getEngine, type SearchEngine } from '../../functions/search/engine.ts';
import { loadContentOrThrow, type LoadedContent } from '../../src/content/load.ts';
import { buildSearchArtifacts, searchFiles, type SearchBuildOptions } from '../../src/build/search/artifacts.ts';
import { buildServiceData } from '../../src/build/service-data.ts';
import { semanticArtifact } from '../../src/build/search/semantic.ts';
import { RECORDS_PATH } from '../../src/build/search/sharded-index.ts';
import { parseDuration } from '../../contract/duration.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** A DataStore over in-memory documents, keyed by URL path. */
export function memoryStore(files: Record<string, string>): DataStore {
  return new DataStore(async (path) => (path in files ? new Response(files[path]) : new Response(null, { status: 404 })));
}

/** A DataStore over a build output folder, as the server has it. */
export function distStore(distDir: string): DataStore {
  return new DataStore(async (path) => {
    try {
      return new Response(readFileSync(join(distDir, 'client', path)));
    } catch {
      return new Response(null, { status: 404 });
    }
  });
}

let sample: LoadedContent | undefined;
export function sampleContent(): LoadedContent {
  sample ??= loadContentOrThrow(join(ROOT, 'content'), {});
  return sample;
}

/** The search documents of some content, built in-process (no Astro), serialized as the build publishes them. */
export async function contentFiles(content: LoadedContent, options: SearchBuildOptions = {}): Promise<Record<string, string>> {
  const service = buildServiceData(content);
  return {
    ...searchFiles(await buildSearchArtifacts(content, options)),
    '/service.json': JSON.stringify(service),
    '/search/semantic.json': JSON.stringify(await semanticArtifact(content)),
    // Each episode's record, as the build writes it (src/build/bulk-documents.ts): its element of service.json.
    ...Object.fromEntries(service.episodes.map((e) => [RECORDS_PATH.replace('{id}', String(e.id)), JSON.stringify(e)])),
  };
}

export async function engineFor(content: LoadedContent, options: SearchBuildOptions = {}): Promise<SearchEngine> {
  return getEngine(memoryStore(await contentFiles(content, options)));
}

export interface RelevanceQuery {
  query: string;
  expect: number;
  mode: 'search' | 'ask';
  source?: string;
  /** The chapter (title) the answer is in: the result's start must fall inside it. */
  chapter?: string;
}

export interface Measurement {
  mrr: number;
  recallAt3: number;
  /** Of the queries with a chapter whose first result is the right episode: share whose start is in the chapter. */
  moment: number;
  n: number;
  misses: Array<{ query: string; expect: number; rank: number | null; top: number[] }>;
}

/** MRR and recall@3 of the expected episode over a set of queries, each run in its own mode (or a forced one). */
export async function measure(engine: SearchEngine, queries: RelevanceQuery[], mode?: 'search' | 'ask'): Promise<Measurement> {
  let rr = 0;
  let hits3 = 0;
  let moments = 0;
  let momentsRight = 0;
  const misses: Measurement['misses'] = [];
  for (const q of queries) {
    const ranking = (mode ?? q.mode) === 'ask' ? await engine.ask(q.query) : await engine.search(q.query);
    const ids = ranking.hits.map((h) => h.id);
    const at = ids.indexOf(q.expect);
    if (at >= 0) rr += 1 / (at + 1);
    if (at >= 0 && at < 3) hits3++;
    if (at !== 0) misses.push({ query: q.query, expect: q.expect, rank: at < 0 ? null : at + 1, top: ids.slice(0, 3) });
    if (q.chapter && at === 0) {
      const span = chapterSpan(engine, q.expect, q.chapter);
      const start = (await engine.result(ranking.hits[0]!)).start;
      moments++;
      // A sentence may begin a few seconds before the chapter mark that the editor placed.
      if (start !== undefined && start >= span[0] - 10 && start < span[1]) momentsRight++;
      else misses.push({ query: `${q.query} [moment: ${start} not in ${span.join('-')}]`, expect: q.expect, rank: 1, top: ids.slice(0, 3) });
    }
  }
  return {
    mrr: rr / queries.length,
    recallAt3: hits3 / queries.length,
    moment: moments ? momentsRight / moments : 1,
    n: queries.length,
    misses,
  };
}

/** [start, end) seconds of an episode's chapter, from the published chapter list. */
export function chapterSpan(engine: SearchEngine, id: number, title: string): [number, number] {
  const ep = engine.service!.episodes.find((e) => e.id === id);
  const chapters = ep?.chapters ?? [];
  const i = chapters.findIndex((c) => c.title === title);
  if (i < 0) throw new Error(`episode ${id} has no chapter "${title}"`);
  const end = chapters[i + 1] ? parseDuration(chapters[i + 1]!.start)! : (ep?.seconds ?? Infinity);
  return [parseDuration(chapters[i]!.start)!, end];
}

export interface SyntheticEpisode {
  id: number;
  title: string;
  desc?: string;
  topics?: string[];
  guests?: string[];
  /** [start seconds, text]; each cue lasts until the next one (the last one 5 s). */
  cues?: Array<[number, string]>;
}

/**
 * An engine over a handful of made-up episodes, built and serialized the way the build does it, for tests that
 * need exact control (ties, languages, edge cases) rather than the sample podcast.
 */
export async function syntheticEngine(episodes: SyntheticEpisode[], language = 'en', options: SearchBuildOptions = {}): Promise<SearchEngine> {
  const site = 'https://podcast.example';
  const loaded = episodes.map((e) => ({
    ...e,
    chapters: [],
    cues: e.cues ? e.cues.map(([start, text], i, all) => ({ start, end: all[i + 1]?.[0] ?? start + 5, text })) : null,
  }));
  const artifacts = await buildSearchArtifacts({ show: { language } as LoadedContent['show'], episodes: loaded as unknown as LoadedContent['episodes'] }, options);
  const service = {
    version: '0.0.0-test',
    generated_at: new Date(0).toISOString(),
    show: {
      title: 'Synthetic', description: 'Test show', author: 'Tests', language, siteUrl: site, artwork: `${site}/a.png`,
      topics: [], platforms: {}, tips: { network: 'base-sepolia' },
    },
    urls: {},
    episodes: episodes.map((e) => ({
      id: e.id, season: 1, title: e.title, desc: e.desc, url: `${site}/episodes/${e.id}/`,
      audio: `${site}/audio/${e.id}.mp3`, transcript: e.cues ? `${site}/transcripts/${e.id}.srt` : null,
    })),
  };
  const files = {
    ...searchFiles(artifacts),
    '/service.json': JSON.stringify(service),
  };
  return getEngine(memoryStore(files));
}
