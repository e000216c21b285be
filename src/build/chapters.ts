import type { LoadedEpisode } from '../content/load.ts';
import { parseDuration } from '../../contract/duration.ts';

/** Podcasting 2.0 JSON chapters (application/json+chapters), format version 1.2.0, startTime in seconds. */
export function buildChaptersJson(episode: Pick<LoadedEpisode, 'title' | 'chapters'>) {
  return {
    version: '1.2.0',
    title: episode.title,
    chapters: (episode.chapters ?? []).map((c) => ({ startTime: parseDuration(c.start)!, title: c.title })),
  };
}
