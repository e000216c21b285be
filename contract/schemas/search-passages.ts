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

/** /search/passages/<id>.json */
export const EpisodePassagesSchema = z.object({
  version: z.literal(2),
  episode: z.int().positive(),
  passages: z.array(PassageSchema),
});
export type EpisodePassages = z.infer<typeof EpisodePassagesSchema>;

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
