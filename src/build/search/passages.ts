/**
 * Transcript passages: windows of consecutive cues. The passage, not the whole episode, is what the index
 * ranks, so every hit knows where in the episode it is (the result's `start` and `?t=`), and a long episode
 * does not win a query just by being long (test/search/relevance.test.ts compares both choices).
 */
import type { Cue } from '../../content/srt.ts';
import type { Passage } from '../../../contract/schemas/search-passages.ts';
import { ENDS_SENTENCE } from '../../../contract/search/sentences.ts';

/** A passage and the episode it belongs to (published per episode, without the id: /search/passages/<id>.json). */
export type BuiltPassage = Passage & { episode: number };

export interface PassageWindow {
  /** A passage closes at the first sentence end after this many seconds... */
  minSeconds: number;
  /** ...and at the latest after this many, mid-sentence if need be. */
  maxSeconds: number;
}

/**
 * 30–60 s is about 80–160 spoken words: long enough for a topic to show up more than once (BM25 needs some
 * term frequency to work with), short enough that the timestamp lands on the moment it is discussed.
 */
export const PASSAGE_WINDOW: PassageWindow = { minSeconds: 30, maxSeconds: 60 };

export function buildPassages(
  episodes: Array<{ id: number; cues: Cue[] | null }>,
  window: PassageWindow = PASSAGE_WINDOW,
): BuiltPassage[] {
  const passages: BuiltPassage[] = [];
  for (const episode of [...episodes].sort((a, b) => a.id - b.id)) {
    const cues = (episode.cues ?? []).filter((c) => c.text.trim() !== '');
    const own: BuiltPassage[] = [];
    let current: Cue[] = [];
    const close = () => {
      if (!current.length) return;
      own.push(toPassage(episode.id, current));
      current = [];
    };
    for (const cue of cues) {
      current.push(cue);
      const length = cue.end - current[0]!.start;
      if (length >= window.maxSeconds || (length >= window.minSeconds && ENDS_SENTENCE.test(cue.text.trim()))) close();
    }
    // A short tail (the sign-off) joins the passage before it rather than standing alone.
    if (current.length && own.length && current.at(-1)!.end - current[0]!.start < window.minSeconds / 2) {
      const last = own.pop()!;
      current = [...last.cues.map(([start, text], k) => ({ start, end: k + 1 < last.cues.length ? last.cues[k + 1]![0] : last.end, text })), ...current];
    }
    close();
    passages.push(...own);
  }
  return passages;
}

/**
 * buildPassages of a show's episodes, made once per episodes array and window: the index and the semantic artifact
 * both start from the show's passages, on one thread of the build (~0.7 s each at 1,000 episodes), and hand the
 * same array to analysePassages, which then knows it without hashing every text again.
 */
export function showPassages(episodes: ReadonlyArray<{ id: number; cues: Cue[] | null }>, window: PassageWindow = PASSAGE_WINDOW): BuiltPassage[] {
  let byWindow = made.get(episodes);
  if (!byWindow) made.set(episodes, (byWindow = new Map()));
  let passages = byWindow.get(window);
  if (!passages) byWindow.set(window, (passages = buildPassages([...episodes], window)));
  return passages;
}

const made = new WeakMap<object, Map<PassageWindow, BuiltPassage[]>>();

function toPassage(episode: number, cues: Cue[]): BuiltPassage {
  return {
    episode,
    start: cues[0]!.start,
    end: cues.at(-1)!.end,
    cues: cues.map((c) => [c.start, c.text] as [number, string]),
  };
}
