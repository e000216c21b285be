/**
 * Everything search publishes, made together so that the Lunr index's passage refs and /search/passages.json
 * always agree: /search/lunr-index.json, /search/passages.json and the contract's /search-index.json.
 */
import type lunr from 'lunr';
import type { LoadedContent, LoadedEpisode } from '../../content/load.ts';
import { SearchIndexSchema } from '../../../contract/schemas/search.ts';
import { SearchPassagesSchema, type SearchPassages } from '../../../contract/schemas/search-passages.ts';
import { languageKey } from '../../../contract/search/language.ts';
import { buildPassages, PASSAGE_WINDOW, type PassageWindow } from './passages.ts';
import { buildLunrIndex, FIELD_BOOSTS, type SearchField } from './lunr-index.ts';

export interface SearchArtifacts {
  index: lunr.Index;
  passages: SearchPassages;
}

export interface SearchBuildOptions {
  window?: PassageWindow;
  boosts?: Record<SearchField, number>;
}

const cache = new WeakMap<LoadedContent, Promise<SearchArtifacts>>();

/** Builds the index and passages once per content (the two endpoints of one build share them). */
export function searchArtifacts(content: LoadedContent): Promise<SearchArtifacts> {
  let pending = cache.get(content);
  if (!pending) {
    pending = buildSearchArtifacts(content);
    cache.set(content, pending);
  }
  return pending;
}

export async function buildSearchArtifacts(
  content: Pick<LoadedContent, 'show' | 'episodes'>,
  options: SearchBuildOptions = {},
): Promise<SearchArtifacts> {
  const language = languageKey(content.show.language);
  const boosts = options.boosts ?? FIELD_BOOSTS;
  const passages = buildPassages(content.episodes, options.window ?? PASSAGE_WINDOW);
  const index = await buildLunrIndex(content.episodes, passages, language, boosts);
  return { index, passages: SearchPassagesSchema.parse({ version: 1, language, boosts, passages }) };
}

/** The contract's SearchIndex: episode id → title, description and transcript text, one string each. */
export function buildSearchIndexJson(episodes: LoadedEpisode[]): Record<string, string> {
  const entries = [...episodes]
    .sort((a, b) => a.id - b.id)
    .map((e) => {
      const transcript = (e.cues ?? []).map((c) => c.text).join(' ');
      return [String(e.id), [e.title, e.desc ?? '', transcript].filter(Boolean).join('\n\n')] as const;
    });
  return SearchIndexSchema.parse(Object.fromEntries(entries));
}
