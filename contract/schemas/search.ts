import { z } from 'zod';

/** One moment of an episode a result offers: where to start listening, as a link, and what is said there. */
export const SearchMomentSchema = z.object({
  start: z.number().nonnegative(),
  timestamp: z.string(),
  url: z.url(),
  snippet: z.string().optional(),
});
export type SearchMoment = z.infer<typeof SearchMomentSchema>;

export const SearchResultSchema = z.object({
  id: z.int(),
  title: z.string(),
  url: z.url(),
  score: z.number(),
  date: z.string().optional(),
  season: z.int().optional(),
  duration: z.string().optional(),
  audio: z.url().optional(),
  transcript: z.url().nullable().optional(),
  snippet: z.string().optional(),
  /** Beyond the contract: where the best-matching passage starts, in seconds and as HH:MM:SS. */
  start: z.number().nonnegative().optional(),
  timestamp: z.string().optional(),
  /**
   * Beyond the contract, /ask and MCP search_episodes only: up to three moments of the episode that may answer the
   * question, best first; the first is the result's own start, url and snippet.
   */
  moments: z
    .array(SearchMomentSchema)
    .optional()
    .describe('/ask only: up to three moments of the episode that may answer the question, best first; the first is the result\'s own start, url and snippet.'),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SearchResponseSchema = z.object({
  query: z.string(),
  count: z.int().nonnegative(),
  total: z.int().nonnegative(),
  offset: z.int().nonnegative(),
  limit: z.int().positive(),
  has_more: z.boolean(),
  took_ms: z.int().nonnegative().optional(),
  results: z.array(SearchResultSchema),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

/** Bounds from the contract's Limits section, shared by /api/search, /ask and the MCP tools. */
export const LIMITS = {
  limit: { min: 1, max: 50, default: 10 },
  offset: { min: 0, max: 10000, default: 0 },
  queryMinLength: 1,
} as const;

export const AskRequestSchema = z.object({
  query: z.string().min(LIMITS.queryMinLength),
  limit: z.int().min(LIMITS.limit.min).max(LIMITS.limit.max).default(LIMITS.limit.default),
});
export type AskRequest = z.infer<typeof AskRequestSchema>;

export const AskResponseSchema = z.object({
  _meta: z.object({
    response_type: z.literal('list'),
    version: z.string(),
    site: z.string().optional(),
    contentType: z.string().optional(),
    query: z.string().optional(),
    generated_at: z.iso.datetime().optional(),
  }),
  query: z.string(),
  count: z.int().nonnegative(),
  results: z.array(SearchResultSchema),
  took_ms: z.int().nonnegative().optional(),
});
export type AskResponse = z.infer<typeof AskResponseSchema>;

/** /search-index.json: episode id (string) → indexed text. */
export const SearchIndexSchema = z.record(z.string().regex(/^\d+$/), z.string());
