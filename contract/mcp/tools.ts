/**
 * The one tool registry. tools/list, the MCP manifest (GET /mcp) and the server card are all generated from it,
 * so what an agent discovers cannot drift from what the server answers. Metadata and schemas only: the build
 * imports this file to write the server card, and the implementations live in tools.ts.
 */
import { z } from 'zod';
import { DURATION_PATTERN, MAX_DURATION_SECONDS, withinMaxDuration } from '../schemas/common.ts';
import { LIMITS, SearchResultSchema } from '../schemas/search.ts';
import { ServiceEpisodeSchema } from '../schemas/service-data.ts';
import { TRANSCRIPT_PAGE_CHARS } from './resources.ts';

export const LIMIT_HINT = `limit must be an integer from ${LIMITS.limit.min} to ${LIMITS.limit.max} (default ${LIMITS.limit.default})`;
export const OFFSET_HINT = `offset must be an integer from ${LIMITS.offset.min} to ${LIMITS.offset.max} (default ${LIMITS.offset.default})`;
const ID_HINT = 'id must be an episode number, a positive integer such as 1';
const TIME_HINT = (field: string) =>
  `${field} must be seconds from the start (e.g. 90, at most ${MAX_DURATION_SECONDS}) or a timestamp MM:SS or HH:MM:SS (e.g. "01:30", at most ${MAX_DURATION_SECONDS / 3600} hours)`;

const EpisodeId = z
  .int({ message: ID_HINT })
  .min(1, { message: ID_HINT })
  .describe('The episode number (its id), as in /episodes.json.');
const Limit = z
  .int({ message: LIMIT_HINT })
  .min(LIMITS.limit.min, { message: LIMIT_HINT })
  .max(LIMITS.limit.max, { message: LIMIT_HINT })
  .default(LIMITS.limit.default);
const TimePoint = (field: string) => {
  const message = TIME_HINT(field);
  // Past any episode's end (1,000 hours) a time is a typo, and far past it no number of seconds is exact.
  return z.union(
    [
      z.number({ message }).nonnegative({ message }).max(MAX_DURATION_SECONDS, { message }),
      z.string({ message }).regex(DURATION_PATTERN, { message }).refine(withinMaxDuration, { message }),
    ],
    { message },
  );
};

const EpisodeOutput = ServiceEpisodeSchema.describe(
  'An episode: the fields of /episodes.json plus url (its page), audio (the MP3), transcript (the SRT, or null) and chaptersUrl.',
);

export interface ToolSpec<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** Its result can open the player in MCP Apps hosts (tools/list carries _meta.ui.resourceUri). */
  opensPlayer?: boolean;
}

const tool = <I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>) => spec;

export const TOOLS = {
  search_episodes: tool({
    name: 'search_episodes',
    title: 'Search episodes',
    description:
      'Search every episode by topic, guest, phrase or question, across titles, descriptions and full transcripts. ' +
      'Returns the best-matching episodes, each with a snippet of the matching passage, ' +
      'its timestamp, and the episode, audio and transcript URLs. Keywords rank as /api/search does; a question ' +
      '(ending in "?" or starting with a question word) is understood as /ask does, related words included, and each ' +
      'result then also lists up to three moments of the episode that may answer it (`moments`, best first).',
    input: z.object({
      query: z
        .string({ message: 'query must be a string: the words to search for' })
        .min(LIMITS.queryMinLength, { message: 'query must not be empty: give the words to search for' })
        .describe('What to search for, e.g. "sourdough starter" or "how do bees choose a new home".'),
      limit: Limit.describe('How many episodes to return, best first.'),
    }),
    output: z.object({
      query: z.string(),
      count: z.int().nonnegative().describe('Results returned.'),
      total: z.int().nonnegative().describe('Episodes that match in all.'),
      results: z.array(SearchResultSchema),
    }),
    opensPlayer: true,
  }),
  get_episode: tool({
    name: 'get_episode',
    title: 'Get an episode',
    description:
      'Get one episode by its number: title, description, date, duration, season, guests, topics, chapters, ' +
      'platform links, and the audio and transcript URLs.',
    input: z.object({ id: EpisodeId }),
    output: EpisodeOutput,
    opensPlayer: true,
  }),
  get_latest_episode: tool({
    name: 'get_latest_episode',
    title: 'Get the latest episode',
    description: 'Get the newest episode (the highest episode number) with all its details, links and transcript URL.',
    input: z.object({}),
    output: EpisodeOutput,
    opensPlayer: true,
  }),
  list_episodes: tool({
    name: 'list_episodes',
    title: 'List episodes',
    description:
      'List episodes newest first, a page at a time, optionally only one season. Returns total so you can page ' +
      `with offset (limit ${LIMITS.limit.min}–${LIMITS.limit.max}, default ${LIMITS.limit.default}).`,
    input: z.object({
      season: z
        .int({ message: 'season must be a season number, a positive integer such as 1' })
        .min(1, { message: 'season must be a season number, a positive integer such as 1' })
        .optional()
        .describe('Only episodes of this season.'),
      limit: Limit.describe('How many episodes per page.'),
      offset: z
        .int({ message: OFFSET_HINT })
        .min(LIMITS.offset.min, { message: OFFSET_HINT })
        .max(LIMITS.offset.max, { message: OFFSET_HINT })
        .default(LIMITS.offset.default)
        .describe('How many episodes to skip (newest first).'),
    }),
    output: z.object({
      total: z.int().nonnegative().describe('Episodes in the list (in the season, if one was given).'),
      count: z.int().nonnegative().describe('Episodes on this page.'),
      offset: z.int().nonnegative(),
      limit: z.int().positive(),
      has_more: z.boolean(),
      season: z.int().optional(),
      episodes: z.array(EpisodeOutput),
    }),
  }),
  subscribe_via_rss: tool({
    name: 'subscribe_via_rss',
    title: 'Subscribe',
    description:
      'How a listener subscribes: the RSS feed URL for any podcast app, the show on Spotify, Apple Podcasts, ' +
      'Amazon Music and YouTube, and a one-line instruction to pass on.',
    input: z.object({}),
    output: z.object({
      title: z.string().describe('The show.'),
      rss: z.url().describe('The RSS feed: paste it into any podcast app.'),
      website: z.url(),
      platforms: z.object({
        spotify: z.url().optional(),
        apple: z.url().optional(),
        amazon: z.url().optional(),
        youtube: z.url().optional(),
      }),
      instruction: z.string().describe('One line for the listener.'),
    }),
  }),
  get_transcript: tool({
    name: 'get_transcript',
    title: 'Get a transcript',
    description:
      "Get the exact words of an episode's transcript, cue by cue with timestamps, optionally only between start " +
      'and end (seconds or HH:MM:SS), so you can quote the episode accurately and point to the moment. One answer ' +
      `holds at most ${TRANSCRIPT_PAGE_CHARS} characters of transcript; when there is more, has_more is true and ` +
      'next_start says where to continue (call again with start = next_start).',
    input: z.object({
      id: EpisodeId,
      start: TimePoint('start').optional().describe('Only cues from this moment on: seconds, or MM:SS / HH:MM:SS.'),
      end: TimePoint('end').optional().describe('Only cues before this moment: seconds, or MM:SS / HH:MM:SS.'),
    }),
    output: z.object({
      id: z.int(),
      title: z.string(),
      url: z.url().describe('The episode page; add ?t=SECONDS to open it at a moment.'),
      transcript: z.url().describe('The full SRT file.'),
      start: z.number().nonnegative().describe('Window start, seconds.'),
      end: z.number().nonnegative().nullable().describe('Window end, seconds; null when open-ended.'),
      count: z.int().nonnegative(),
      has_more: z.boolean().describe('True when the window holds more than this answer: call again with start = next_start.'),
      next_start: z.number().nonnegative().nullable().describe('Where the rest of the window begins, seconds; null when nothing is left.'),
      cues: z.array(
        z.object({
          start: z.number().nonnegative().describe('Seconds from the start of the episode.'),
          end: z.number().nonnegative(),
          timestamp: z.string().describe('start as HH:MM:SS'),
          text: z.string(),
        }),
      ),
    }),
  }),
} as const;

export type ToolName = keyof typeof TOOLS;
export type ToolInput<N extends ToolName> = z.output<(typeof TOOLS)[N]['input']>;
export type ToolOutput<N extends ToolName> = z.input<(typeof TOOLS)[N]['output']>;

/** In the order agents see them: the contract's five, then the transcript tool. */
export const TOOL_LIST: ToolSpec[] = Object.values(TOOLS);

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(TOOLS, name);
}

/** Every tool only reads published data: the hints let clients skip confirmation prompts. */
export const TOOL_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const jsonSchemas = { input: new WeakMap<z.ZodType, Record<string, unknown>>(), output: new WeakMap<z.ZodType, Record<string, unknown>>() };

/**
 * A zod schema as the JSON Schema tools/list publishes. `$schema` is left out: the draft 2020-12 default is what
 * MCP 2025-11-25 assumes anyway, and some clients' validators (draft-07 Ajv in the official SDK) reject the key.
 * zod's ±2^53 bounds on integers are dropped as noise.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  let cached = jsonSchemas[io].get(schema);
  if (!cached) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    cached = stripSafeIntBounds(rest) as Record<string, unknown>;
    jsonSchemas[io].set(schema, cached);
  }
  return cached;
}

function stripSafeIntBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeIntBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)) continue;
    out[key] = stripSafeIntBounds(value);
  }
  return out;
}
