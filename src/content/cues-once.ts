/**
 * An episode's cues for a reader that needs them once. Made on demand (src/content/load.ts, loadCuesOnDemand) and
 * not read yet, they are decoded for that call and not kept. Both parts of the bulk documents read every episode's:
 * the search part for its analysis, the episodes part for /search-index.json's text and the passage files. Kept,
 * they stayed on each thread's heap to the end of the build, marked again by every full collection: the search
 * thread's live heap was 470 MB at the end of a 1,000-episode build, 359 MB read so; the episodes thread's 225 MB,
 * 69 MB read so (bench/RESULTS.md, forty-ninth and fiftieth sessions).
 */
import type { Cue } from './srt.ts';

const readers = new WeakMap<object, () => Cue[]>();

/** For load.ts: how to read `episode`'s cues without keeping them. */
export function readOnce(episode: object, read: () => Cue[]): void {
  readers.set(episode, read);
}

export function cuesOnce(episode: { cues: Cue[] | null }): Cue[] | null {
  return readers.get(episode)?.() ?? episode.cues;
}
