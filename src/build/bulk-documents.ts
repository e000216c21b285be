/**
 * The documents that are pure serialization of the build's data and come by the thousand on a large show (at 1,000
 * episodes: 3,000 transcript files, ~1,650 search shards, ~7,000 passage files, 1,000 chapter files, two thirds of
 * the output's files), the search documents made from the same analysis (the index's top, where the passages are, the
 * semantic artifact), the contract's /search-index.json (58 MB at 1,000 episodes) and the feed. src/pages defines each (and
 * serves it in `astro dev`); in `astro build` the bulk-documents integration (src/integration/bulk-documents.ts)
 * writes them straight from the same data on a worker thread while Astro prerenders the pages, and their routes list
 * no paths: Astro's prerenderer costs a Request, a Response stream, a mkdir and a write per file, ~20 s of a
 * 1,000-episode build for these alone, and the search analysis behind them is ~40% of the build's work. Same bytes,
 * same URLs.
 */
import { buildChaptersJson } from './chapters.ts';
import { searchArtifacts } from './search/artifacts.ts';
import { semanticArtifact } from './search/semantic.ts';
import { semanticOnThread } from './search/semantic-thread.ts';
import { episodePassageFiles, PASSAGE_TERMS_PATH, PASSAGES_PATH, RECORDS_PATH, SHARD_PATH } from './search/sharded-index.ts';
import { serviceEpisode } from './service-data.ts';
import { RSS_PATH, siteUrls } from './urls.ts';
import { buildRss } from './rss.ts';
import { PASSAGES_PER_CHUNK } from '../../contract/schemas/search-passages.ts';
import { renderTranscript, transcriptFiles } from './transcripts.ts';
import { episodeAnalyser } from './search/analysis.ts';
import { codeIdentity, cuesCodeIdentity } from './code-identity.ts';
import { BYTES_CODEC, cachedBytesByKey, contentKey, framed, parseCacheDir, unframed, type Codec } from '../content/parse-cache.ts';
import { buildSearchIndexJson, entryText, searchIndexDocument } from './search/search-index-document.ts';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { languageKey, loadLanguage } from '../../contract/search/language.ts';
import { buildPassages } from './search/passages.ts';
import { cuesOnce } from '../content/cues-once.ts';
import type { LoadedContent } from '../content/load.ts';

const FLAG = Symbol.for('podcast-listener-service.bulk-documents');

/** Set by the integration in `astro build`: the routes of bulk documents then list no paths. */
export function setBulkDocumentsWrittenByIntegration(on: boolean): void {
  (globalThis as { [FLAG]?: boolean })[FLAG] = on;
}

export function bulkDocumentsWrittenByIntegration(): boolean {
  return (globalThis as { [FLAG]?: boolean })[FLAG] === true;
}

/** The search documents under /search/<name>.json besides the shards and passages (src/pages/search/[document].json.ts). */
export const SEARCH_DOCUMENTS = {
  /**
   * The top of the search index (public: offline apps load it with lunr.Index.load): a Lunr index of the episodes'
   * metadata, and in `layout` where the transcript shards and the passages are (contract/schemas/search-passages.ts).
   */
  'lunr-index': async (content: LoadedContent, passageFiles?: boolean): Promise<unknown> => (await searchArtifacts(content, passageFiles)).top,
  /** Where the transcript passages are: in chunks per episode, /search/passages/<id>-<chunk>.json. */
  passages: async (content: LoadedContent, passageFiles?: boolean): Promise<unknown> => (await searchArtifacts(content, passageFiles)).passagesIndex,
  /** Related terms for /ask's question understanding (WordNet and the show's co-occurrence statistics, build time). */
  semantic: (content: LoadedContent): Promise<unknown> => semanticArtifact(content),
};
export type SearchDocument = keyof typeof SEARCH_DOCUMENTS;

/**
 * A bulk document: its URL path, its body, and where the producer made it, the body's gzip at the level its family
 * takes (src/integration/precompress.ts levelsFor), which the integration then writes rather than compressing.
 */
export type BulkDocument = [path: string, body: string | Uint8Array, gz?: Uint8Array];

/** The contract's offline index, written with the bulk documents (src/pages/[document].json.ts serves it in `astro dev`). */
export const SEARCH_INDEX_PATH = '/search-index.json';

/** Every bulk document, produced one at a time (a transcript's three formats in a row). */
export async function* bulkDocuments(content: LoadedContent): AsyncGenerator<BulkDocument> {
  yield* showDocuments(content);
  yield* episodeDocuments(content);
  yield* searchDocuments(content);
}

/**
 * The show-wide documents made from every episode: the contract's /search-index.json and the podcast feed. With
 * `gzipLevel`, the index's gzip too, made from a piece per episode (search-index-document.ts), each kept from one
 * build to the next in the content cache when one is configured. The feed changes with every episode added, and
 * made among Astro's pages it was the longest of them on the build's main thread (0.7-1.8 s at 1,240 episodes: 5 MB
 * written by `feed`, read back and written again to add the podcast namespace, then compressed), where a
 * one-episode rebuild waits for nothing else; the thread that makes these is done seconds before that thread.
 */
export function* showDocuments(content: LoadedContent, options: { gzipLevel?: number } = {}): Generator<BulkDocument> {
  const { gzipLevel } = options;
  yield gzipLevel === undefined ? [SEARCH_INDEX_PATH, JSON.stringify(buildSearchIndexJson(content.episodes))] : searchIndexWithGzip(content, gzipLevel);
  yield [RSS_PATH, buildRss(content)];
}

/** /search-index.json with its gzip at `gzipLevel`, from pieces kept per episode in the content cache (showDocuments). */
function searchIndexWithGzip(content: LoadedContent, gzipLevel: number): BulkDocument {
  const code = parseCacheDir() === undefined ? undefined : searchIndexTextIdentity();
  const { text, gz } = searchIndexDocument(
    content.episodes,
    gzipLevel,
    (identity, input, make) =>
      // Not counted as per-episode work (parseCacheSummary): ~2 ms of gzip an episode.
      cachedBytesByKey(contentKey(identity, input), make, BYTES_CODEC, { counted: false }),
    // An episode's entry kept by what makes it (its title, description and transcript's digest), and named so: a
    // rebuild makes no cue, no JSON and no hash of an unchanged episode's text (~87 MB at 1,000 episodes), and keeps
    // its piece by the names.
    (e) => {
      if (!code) return { bytes: Buffer.from(entryText(e)) };
      const name = contentKey(code, JSON.stringify([e.id, e.title, e.desc ?? null, e.transcript ? `${e.transcript.format}\0${e.transcript.digest}` : null]));
      return { name, bytes: cachedBytesByKey(name, () => Buffer.from(entryText(e)), BYTES_CODEC, { counted: false }) };
    },
  );
  return [SEARCH_INDEX_PATH, text, gz];
}

/** What makes an episode's transcript text in /search-index.json from the transcript: the joining and the cue makers. */
function searchIndexTextIdentity(): string | undefined {
  const code = cuesCodeIdentity([new URL('./search/search-index-document.ts', import.meta.url)]);
  return code && `search-index-text\0${code}`;
}

/** Where an episode's published transcripts and chapters are (/transcripts/<stem>.srt, /chapters/<id>.json). */
const TRANSCRIPTS_FOLDER = '/transcripts';
const CHAPTERS_FOLDER = '/chapters';

/**
 * The folders whose every file is a keyed per-episode or per-segment document (episodeDocuments, searchDocuments's
 * shards): a build may take the last output's whole (src/integration/kept-documents.ts). URL paths, no trailing slash.
 */
export const KEYED_FOLDERS: readonly string[] = [TRANSCRIPTS_FOLDER, CHAPTERS_FOLDER, ...[SHARD_PATH, PASSAGES_PATH, PASSAGE_TERMS_PATH, RECORDS_PATH].map((p) => p.slice(0, p.lastIndexOf('/')))];

/** The URL paths of a key's files, or them for the number of files kept under the key (episodeDocuments's `place`). */
export type PlacePaths = readonly string[] | ((count: number) => readonly string[]);

/**
 * The per-episode half: each episode's transcripts, chapters, record, passage chunks and their analyses for /ask (the
 * analysis shared with the index through the content cache when the other half runs on another thread, see
 * shareAnalysis). `place(key, paths)`: true when the caller has the files at `paths` (or at the paths for the number
 * of files it has) kept under `key` (a cache of earlier builds' files: src/integration/linked-files.ts); the key
 * names what the files are made from and the code that makes them (for the passage files, only when the parse cache
 * is configured: it is that cache's key too).
 * `claim()`: the index (into content.episodes) of the next episode to do, shared with other threads doing the same
 * (each index is claimed once; one past the last or more: done); every episode in order without it.
 */
export async function* episodeDocuments(
  content: LoadedContent,
  options: { place?: (key: string, paths: PlacePaths) => boolean; claim?: () => number } = {},
): AsyncGenerator<BulkDocument> {
  const language = languageKey(content.show.language);
  const analyzer = new Analyzer(await loadLanguage(language), { unboundedCaches: true });
  const analyse = await episodeAnalyser(language);
  const identity = parseCacheDir() === undefined ? undefined : passageFilesIdentity(language);
  const transcriptsIdentity = options.place && transcriptFilesIdentity();
  const place = (key: string | undefined, paths: PlacePaths) =>
    options.place !== undefined && key !== undefined && (typeof paths === 'function' || paths.length > 0) && options.place(key, paths);
  const urls = siteUrls(content.show);
  let next = 0;
  const claim = options.claim ?? (() => next++);
  for (let i = claim(); i < content.episodes.length; i = claim()) {
    const e = content.episodes[i]!;
    if (e.transcript) {
      const files = transcriptFiles(e);
      // The loader's digest names the text: the file is not read and hashed a second time here.
      const key = transcriptsIdentity && contentKey(`${transcriptsIdentity}\0${e.transcript.format}`, e.transcript.digest);
      if (!place(key, files.map((f) => `${TRANSCRIPTS_FOLDER}/${f.file}`))) {
        for (const f of files) yield [`${TRANSCRIPTS_FOLDER}/${f.file}`, renderTranscript(e.transcript, f.ext)];
      }
    }
    // Kept by their own bytes: most are the same from one build to the next, and a file linked with its variants is
    // not created, written and hashed again (at 1,000 episodes ~2,000 new files a rebuild, on this thread).
    const small: BulkDocument[] = [];
    if (e.chapters?.length) small.push([`${CHAPTERS_FOLDER}/${e.id}.json`, JSON.stringify(buildChaptersJson(e))]);
    small.push([RECORDS_PATH.replace('{id}', String(e.id)), JSON.stringify(serviceEpisode(urls, e))]);
    const smallKey = options.place && contentKey('episode-json', small.map(([path, text]) => `${path}\0${text}`).join('\0'));
    if (!place(smallKey, small.map(([path]) => path))) yield* small;
    const paths = (pattern: string, chunks: number) => Array.from({ length: chunks }, (_, c) => pattern.replace('{id}', String(e.id)).replace('{chunk}', String(c)));
    // The files are made from the episode's transcript (its digest names it): an unchanged episode's are found by it,
    // without making its passages, their JSON and its hash (~0.5 s alone at 1,104 episodes). Two files a chunk.
    const digest = e.transcript?.digest;
    const byTranscript = identity && digest ? contentKey(identity, `${e.id}\0${e.transcript!.format}\0${digest}`) : undefined;
    if (place(byTranscript, (files) => (files % 2 ? [] : [...paths(PASSAGES_PATH, files / 2), ...paths(PASSAGE_TERMS_PATH, files / 2)]))) continue;
    // Read once and not kept (cuesOnce): kept, every episode's stayed on this thread's heap to the end of the build.
    const passages = buildPassages([{ id: e.id, cues: cuesOnce(e) }]);
    if (!passages.length) continue;
    const key = byTranscript ?? (identity && contentKey(identity, JSON.stringify(passages)));
    const chunks = Math.ceil(passages.length / PASSAGES_PER_CHUNK);
    const chunkPaths = paths(PASSAGES_PATH, chunks);
    const termPaths = paths(PASSAGE_TERMS_PATH, chunks);
    if (place(key, [...chunkPaths, ...termPaths])) continue;
    const make = (): PassageFileTexts => {
      const { terms, words } = analyse(e.id, passages);
      const files = episodePassageFiles(e.id, passages, terms, words, analyzer);
      return { chunks: files.chunks.map((c) => JSON.stringify(c)), terms: files.terms.map((t) => JSON.stringify(t)) };
    };
    // A rebuild takes an unchanged episode's files from a cache (~15 s of CPU at 1,000 episodes): the caller's linked
    // files when it keeps them (place), else the parse cache; not both, which kept every passage file twice.
    const files = key && !options.place ? cachedBytesByKey(key, make, PASSAGE_FILES_CODEC) : make();
    // episodePassageFiles cuts the chunks by PASSAGES_PER_CHUNK too: one path a chunk.
    if (files.chunks.length !== chunks || files.terms.length !== chunks) throw new Error(`episode ${e.id}: ${files.chunks.length} passage chunks, ${chunks} expected`);
    for (let c = 0; c < chunks; c++) yield [chunkPaths[c]!, files.chunks[c]!];
    for (let c = 0; c < chunks; c++) yield [termPaths[c]!, files.terms[c]!];
  }
}

/**
 * What decides an episode's published transcripts besides its transcript's format and bytes: the modules that
 * render the three formats and the SRT parser they read cues with.
 */
function transcriptFilesIdentity(): string | undefined {
  const code = codeIdentity(
    ['./transcripts.ts', '../content/srt.ts', '../content/vtt.ts', '../components/transcript.ts'].map((m) => new URL(m, import.meta.url)),
    ['srt-parser-2'],
  );
  return code && `transcript-files\0${code}`;
}

/** An episode's passage files as published: each chunk's and each chunk analysis's JSON text. */
interface PassageFileTexts {
  chunks: string[];
  terms: string[];
}

/**
 * What decides an episode's passage files besides its transcript (or its passages): the code that makes its cues and
 * of the search build and the contract's search modules (the passages, the analysis, the files' encoding, /ask's
 * passage terms), Lunr's, its languages' and the SubRip parser's versions.
 */
function passageFilesIdentity(language: string): string | undefined {
  // With what makes the cues from the transcript's text: the files are kept by that text's digest.
  const code = cuesCodeIdentity(
    [new URL('./search/', import.meta.url), new URL('../../contract/search/', import.meta.url), new URL('../../contract/schemas/', import.meta.url)],
    ['lunr', 'lunr-languages'],
  );
  return code && `passage-files\0${code}\0${language}`;
}

/** The texts as UTF-8 one after the other (parse-cache.ts `framed`, a head of their byte lengths): no escaping either way. */
const PASSAGE_FILES_CODEC: Codec<PassageFileTexts> = {
  encode({ chunks, terms }) {
    const bodies = [...chunks, ...terms].map((t) => Buffer.from(t));
    const lengths = bodies.map((b) => b.byteLength);
    return framed({ chunks: lengths.slice(0, chunks.length), terms: lengths.slice(chunks.length) }, bodies);
  },
  decode(stored) {
    const { head, body } = unframed<{ chunks: number[]; terms: number[] }>(stored);
    const text = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    let at = 0;
    const read = (lengths: number[]) => lengths.map((n) => text.toString('utf8', at, (at += n)));
    const files = { chunks: read(head.chunks), terms: read(head.terms) };
    if (at !== text.byteLength) throw new Error('damaged passage files entry');
    return files;
  },
};

/**
 * The search half: the index's top and shards, where the passages are, the semantic artifact. `semanticThread`: the
 * semantic artifact is made on a thread of its own (semantic-thread.ts) while this one writes the shards. Started
 * once the index is built, not before: in a one-episode rebuild at 1,000 episodes the index is this thread's work on
 * the build's critical path while Astro's main thread and the per-episode thread want both cores, and a fourth busy
 * thread only slowed it; the shards' writing leaves a core partly idle. Alternated rebuilds: 38.9-45.9 s (median
 * 41.5 of 9) against 42.5-50.8 s (median 46.6 of 9) with the thread started first.
 */
export async function* searchDocuments(
  content: LoadedContent,
  options: { semanticThread?: boolean; place?: (key: string, paths: PlacePaths) => boolean } = {},
): AsyncGenerator<BulkDocument> {
  const artifacts = await searchArtifacts(content, false);
  const semantic = options.semanticThread ? await semanticOnThread(content) : undefined;
  try {
    // Without the passage files, which episodeDocuments writes (the same artifacts serve both calls).
    for (const [name, make] of Object.entries(SEARCH_DOCUMENTS)) {
      if (name === 'semantic' && semantic) continue;
      yield [`/search/${name}.json`, JSON.stringify(await make(content, false))];
    }
    // A segment's tag names what its shards are made of (artifacts.ts): an unchanged segment's are linked from the
    // last build, and its postings never made.
    for (const segment of artifacts.shards.segments) {
      const files = segment.files();
      if (options.place?.(contentKey('shard-segment-files', segment.tag), files.map(([path]) => path))) continue;
      for (const [path, json] of files) yield [path, json()];
      segment.release();
    }
    // Last: the thread has had the shards' time to make it.
    if (semantic) yield ['/search/semantic.json', JSON.stringify(await semantic.result)];
  } finally {
    await semantic?.stop();
  }
}
