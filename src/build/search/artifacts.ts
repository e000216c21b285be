/**
 * Everything search publishes, made together so that the index's passage numbers and the passage files always
 * agree: /search/lunr-index.json (metadata index + layout), /search/shards/<n>.json (the transcript index, cut by
 * term), /search/passages/<id>-<chunk>.json and /search/passages.json (where the passages are; the contract's
 * /search-index.json is search-index-document.ts's). The layout is described in contract/schemas/search-passages.ts.
 */
import type { LoadedContent } from '../../content/load.ts';
import { SearchPassagesSchema, type SearchPassages } from '../../../contract/schemas/search-passages.ts';
import { languageKey } from '../../../contract/search/language.ts';
import { analyseShow } from './analysis.ts';
import { PASSAGE_WINDOW, showPassages, type PassageWindow } from './passages.ts';
import { FIELD_BOOSTS, type SearchField } from './lunr-index.ts';
import { indexAnalysed, PASSAGE_TERMS_PATH, PASSAGES_PATH, type ShardedIndex, type ShardOptions } from './sharded-index.ts';
import { cuesCodeIdentity } from '../code-identity.ts';
import { cachedByContent, contentKey, parseCacheDir } from '../../content/parse-cache.ts';

export interface SearchArtifacts extends ShardedIndex {
  /** /search/passages.json */
  passagesIndex: SearchPassages;
}

export interface SearchBuildOptions extends ShardOptions {
  window?: PassageWindow;
  boosts?: Record<SearchField, number>;
}

/**
 * Shared by every copy of this module in the process (the prerender bundle's pages and the bulk-documents
 * integration both publish from it), keyed by the content object, which src/content/site.ts shares likewise.
 */
const CACHE = Symbol.for('podcast-listener-service.search-artifacts');
type Cache = WeakMap<LoadedContent, Map<boolean, Promise<SearchArtifacts>>>;
const cache: Cache = ((globalThis as { [CACHE]?: Cache })[CACHE] ??= new WeakMap());

/**
 * Builds the index and passages once per content (the endpoints of one build share them). `passageFiles` false:
 * without the passage files (`passages`, `passageTerms` empty), which the build writes per episode
 * (episodePassageFiles).
 */
export function searchArtifacts(content: LoadedContent, passageFiles = true): Promise<SearchArtifacts> {
  let byKind = cache.get(content);
  if (!byKind) cache.set(content, (byKind = new Map()));
  let pending = byKind.get(passageFiles);
  if (!pending) {
    pending = buildSearchArtifacts(content, { passageFiles });
    byKind.set(passageFiles, pending);
  }
  return pending;
}

export async function buildSearchArtifacts(
  content: Pick<LoadedContent, 'show' | 'episodes'>,
  options: SearchBuildOptions = {},
): Promise<SearchArtifacts> {
  const language = languageKey(content.show.language);
  const boosts = options.boosts ?? FIELD_BOOSTS;
  const window = options.window ?? PASSAGE_WINDOW;
  // The passages themselves only for the passage files: the build writes those per episode, and its index reads an
  // unchanged episode's analysis without making its passages (analyseShow).
  const analysed = await analyseShow(content.episodes, language, window);
  const passages = options.passageFiles === false ? undefined : showPassages(content.episodes, window);
  const index = await indexAnalysed(content.episodes, analysed, language, boosts, { ...segmentCache(content, language, { ...options, window, boosts }), ...options }, passages);
  const { version, passages: where } = index.top.layout;
  return { ...index, passagesIndex: SearchPassagesSchema.parse({ version, language, boosts, passages: where }) };
}

/**
 * With the build's cache: a segment of the transcript index named by its episodes' transcripts (their digests, which
 * the content loader has) and the code that makes its shards from them, and its shards' first terms kept under that
 * name, so that a rebuild makes none of an unchanged segment's postings (its shards are linked from the last build:
 * src/build/bulk-documents.ts). Nothing without the cache: the index names segments by their analysed passages.
 */
function segmentCache(
  content: Pick<LoadedContent, 'episodes'>,
  language: string,
  options: SearchBuildOptions,
): Pick<ShardOptions, 'segmentTag' | 'segmentFirst'> {
  if (parseCacheDir() === undefined) return {};
  const code = cuesCodeIdentity(
    [new URL('./', import.meta.url), new URL('../../../contract/search/', import.meta.url), new URL('../../../contract/schemas/', import.meta.url)],
    ['lunr', 'lunr-languages'],
  );
  if (!code) return {};
  const made = JSON.stringify({ language, window: options.window, boosts: options.boosts, perTerm: options.passagesPerTerm, shardBytes: options.shardBytes });
  const identity = `shard-segment\0${code}\0${made}`;
  const transcripts = new Map(content.episodes.map((e) => [e.id, e.transcript]));
  return {
    // 16 hex digits of the key: the shards' paths carry it.
    segmentTag: (ids) =>
      contentKey(
        identity,
        ids
          .map((id) => {
            const t = transcripts.get(id);
            if (!t) throw new Error(`search index: episode ${id} has passages but no transcript`);
            return `${id}\0${t.format}\0${t.digest}`;
          })
          .join('\0'),
      ).slice(0, 16),
    segmentFirst: (tag, make) => cachedByContent(identity, tag, make, { counted: false }),
  };
}

/** Every search document by URL path, serialized as the build publishes them (tests and tools use this). */
export function searchFiles(artifacts: SearchArtifacts): Record<string, string> {
  const files: Record<string, string> = {
    '/search/lunr-index.json': JSON.stringify(artifacts.top),
    '/search/passages.json': JSON.stringify(artifacts.passagesIndex),
  };
  for (const segment of artifacts.shards.segments) for (const [path, json] of segment.files()) files[path] = json();
  for (const [id, chunks] of artifacts.passages) {
    chunks.forEach((chunk, c) => (files[PASSAGES_PATH.replace('{id}', String(id)).replace('{chunk}', String(c))] = JSON.stringify(chunk)));
  }
  for (const [id, chunks] of artifacts.passageTerms) {
    chunks.forEach((chunk, c) => (files[PASSAGE_TERMS_PATH.replace('{id}', String(id)).replace('{chunk}', String(c))] = JSON.stringify(chunk)));
  }
  return files;
}
