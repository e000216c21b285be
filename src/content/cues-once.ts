/**
 * An episode's cues for a reader that needs them once. Made on demand (src/content/load.ts, loadCuesOnDemand) and
 * not read yet, they are decoded for that call and not kept. The search part of the bulk documents reads every
 * episode's for its analysis, which keeps what it needs of them; kept, they were ~40% of that thread's heap to the
 * end of the build (~190 of 470 MB at 1,000 episodes), marked again by every full collection while it wrote the
 * shards.
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
