import { z } from 'zod';

/**
 * /search/passages.json: the transcript passages the Lunr index (/search/lunr-index.json) refers to. A Lunr ref
 * that is a number is an index into `passages`; a ref "e<id>" is the episode-level document of episode <id>
 * (title, description, guests, topics, chapter titles). Written by src/build/search, read once per process by
 * functions/search, and public so offline apps can turn a Lunr hit into an episode and a timestamp.
 */
export const PassageSchema = z.object({
  /** Episode id. */
  episode: z.int().positive(),
  /** Seconds from the start of the episode to the first and past the last cue. */
  start: z.number().nonnegative(),
  end: z.number().nonnegative(),
  /** The passage's cues in order: [start seconds, text]. */
  cues: z.array(z.tuple([z.number().nonnegative(), z.string()])).min(1),
});
export type Passage = z.infer<typeof PassageSchema>;

export const SearchPassagesSchema = z.object({
  version: z.literal(1),
  /** The lunr-languages pack the index was built with ("en" = Lunr's English pipeline). */
  language: z.string(),
  /** Field boosts the index was built with, for the record. */
  boosts: z.record(z.string(), z.number().positive()),
  passages: z.array(PassageSchema),
});
export type SearchPassages = z.infer<typeof SearchPassagesSchema>;
