import { z } from 'zod';

/**
 * The published search index, version 2: cut up so that a query loads only what it needs (issue 13, network
 * scale). Written by src/build/search, read by functions/search (server, function hosts) and by offline apps and
 * the website's offline fallback through the same code.
 *
 *   /search/lunr-index.json       a serialized Lunr index of the episodes' metadata (refs are episode ids; fields
 *                                 title, description, guests, topics, chapters), plus `shards` and `passages`
 *                                 below, which say where the transcript index and the passages are.
 *   /search/shards/<n>.json       shard n of the transcript index: a serialized Lunr index (refs are episode ids,
 *                                 one field `text`) holding the terms from shards.first[n] up to shards.first[n+1]
 *                                 (exclusive), in code-unit order. Each posting's metadata `p` lists the episode's
 *                                 best passages for that term: [passage, score, passage, score, ...], best first.
 *                                 The scores are there, not in the field vectors (empty: Lunr's own score is 0).
 *   /search/passages/<id>.json    an episode's transcript passages, which `p` numbers from 0.
 *
 * All scores are BM25 (k1 1.2, b 0.75) with statistics of the whole show (one document per passage plus one per
 * episode, as a single index of every passage would have them), so scores from different shards add up.
 */
export const PassageSchema = z.object({
  /** Seconds from the start of the episode to the first and past the last cue. */
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  /** The passage's cues in order: [start seconds, text]. */
  cues: z.array(z.tuple([z.number().nonnegative(), z.string()])).min(1),
});
export type Passage = z.infer<typeof PassageSchema>;

/**
 * /search/passages/<id>.json: an episode's cues and how they form passages, in a form that parses fast (one string
 * rather than an array per cue: the engine loads one of these per result shown).
 */
export const EpisodePassagesSchema = z.object({
  version: z.literal(2),
  episode: z.int().positive(),
  /** Every cue's text, in order, separated by "\n" (a cue's own line breaks are spaces here). */
  text: z.string(),
  /** Every cue's start, seconds. */
  starts: z.array(z.number().nonnegative()),
  /** Passage n is the cues from first[n] up to first[n + 1] (the last one: to the end). */
  first: z.array(z.int().nonnegative()),
  /** Where each passage ends, seconds (past its last cue). */
  ends: z.array(z.number().nonnegative()),
});
export type EpisodePassages = z.infer<typeof EpisodePassagesSchema>;

/** The passages of an episode as a reader wants them (what /search/passages/<id>.json encodes). */
export function decodePassages(file: EpisodePassages): Passage[] {
  const cues = file.text.split('\n');
  return file.first.map((from, n) => {
    const to = file.first[n + 1] ?? cues.length;
    return {
      start: file.starts[from]!,
      end: file.ends[n]!,
      cues: cues.slice(from, to).map((text, k) => [file.starts[from + k]!, text] as [number, string]),
    };
  });
}

/** The inverse of decodePassages. */
export function encodePassages(episode: number, passages: Passage[]): EpisodePassages {
  const texts: string[] = [];
  const starts: number[] = [];
  const first: number[] = [];
  const ends: number[] = [];
  for (const p of passages) {
    first.push(starts.length);
    ends.push(p.end);
    for (const [start, text] of p.cues) {
      starts.push(start);
      texts.push(text.replace(/[\r\n]+/g, ' '));
    }
  }
  return { version: 2, episode, text: texts.join('\n'), starts, first, ends };
}

export const SearchLayoutSchema = z.object({
  version: z.literal(2),
  /** The lunr-languages pack the index was built with ("en" = Lunr's English pipeline). */
  language: z.string(),
  /** Field boosts the index was built with (baked into every score). */
  boosts: z.record(z.string(), z.number().positive()),
  /** How many of an episode's best passages each transcript posting lists. */
  passagesPerTerm: z.int().positive(),
  shards: z.object({
    /** URL path of shard n: `{n}` replaced by n. */
    path: z.string(),
    /** The first term of each shard, ascending; shard n holds terms t with first[n] <= t < first[n+1]. */
    first: z.array(z.string()),
  }),
  passages: z.object({
    /** URL path of an episode's passages: `{id}` replaced by the episode id. */
    path: z.string(),
    /** Episodes that have passages (a transcript), ascending. */
    episodes: z.array(z.int().positive()),
  }),
});
export type SearchLayout = z.infer<typeof SearchLayoutSchema>;

/** /search/passages.json: where the passages are (the layout's `passages`, with the language and boosts). */
export const SearchPassagesSchema = SearchLayoutSchema.pick({ version: true, language: true, boosts: true, passages: true });
export type SearchPassages = z.infer<typeof SearchPassagesSchema>;
