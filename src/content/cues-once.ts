/**
 * An episode's cues for a reader that needs them once. Made on demand (src/content/load.ts, loadCuesOnDemand) and
 * not read yet, they are decoded for that call and not kept. The search part of the bulk documents reads every
 * episode's for its analysis, which keeps what it needs of them. Kept, they stayed on that thread's heap to the end
 * of the build, marked again by every full collection while it wrote the shards: its live heap was 470 MB at the end
 * of a 1,000-episode build, 359 MB read so (bench/RESULTS.md, forty-ninth session).
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
