import { z } from 'zod';
import { DateString, DurationString, HttpUrl } from './common.ts';

/**
 * What the file-name patterns below take, said in their messages: "épisode.mp3" or "my episode.mp3" ends in .mp3 and
 * is refused for its letters, which the message must name. (ASCII only: the names become URL paths.)
 */
const FILE_NAME_RULE = 'of the letters A-Z and a-z, digits, "_", "." and "-" only (no folders, spaces or accents)';

/** A bundled audio file's name: no folders, a common audio extension. */
export const AUDIO_FILE_PATTERN = /^[\w.-]+\.(?:mp3|m4a|aac|ogg|oga|opus|wav|flac)$/;

export const ChapterSchema = z.strictObject({
  start: DurationString,
  title: z.string().min(1, { message: 'must not be empty' }),
});
export type Chapter = z.infer<typeof ChapterSchema>;

/**
 * What an editor writes in the frontmatter of content/episodes/*.md.
 * Strict: an unknown key is almost always a typo ("srtfile"), so it fails the build.
 * Derived fields (seconds, hasSrt, desc) are computed and may not be typed here.
 */
export const EpisodeFrontmatterSchema = z.strictObject({
  id: z.int({ message: 'must be a positive integer' }).positive({ message: 'must be a positive integer' }),
  season: z.int({ message: 'must be a positive integer' }).positive({ message: 'must be a positive integer' }),
  title: z.string().min(1, { message: 'must not be empty' }),
  date: DateString,
  duration: DurationString.optional(),
  audioFile: z
    .string()
    .regex(AUDIO_FILE_PATTERN, { message: `must be a file name ending in .mp3 (or .m4a, .aac, .ogg, .opus, .wav, .flac) ${FILE_NAME_RULE}` })
    .optional(),
  /** The audio on another host, linked by absolute URL (an imported show's enclosure). Instead of audioFile. */
  audioUrl: HttpUrl.optional(),
  /** The enclosure's length in bytes, for audioUrl (a bundled audioFile's length is its file size). */
  audioLength: z.int({ message: 'must be a whole number of bytes' }).nonnegative({ message: 'must be a whole number of bytes' }).optional(),
  /** The enclosure's MIME type; audio/mpeg when not given. */
  audioType: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, { message: 'must be a MIME type such as audio/mpeg' }).optional(),
  /** The exact publication time (ISO 8601 with offset) when it matters, e.g. an imported feed's pubDate; its day must be date. */
  pubDate: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2025-01-14T08:00:00Z' }).optional(),
  srtFile: z
    .string()
    .regex(/^[\w.-]+\.srt$/, { message: `must be a file name ending in .srt ${FILE_NAME_RULE}` })
    .optional(),
  /** The transcript as the editor supplies it, SubRip or WebVTT (srtFile remains for .srt). */
  transcriptFile: z
    .string()
    .regex(/^[\w.-]+\.(srt|vtt)$/, { message: `must be a file name ending in .srt or .vtt ${FILE_NAME_RULE}` })
    .optional(),
  guid: z.string().min(1).optional(),
  /** The episode's own artwork (itunes:image on the item): an absolute URL or a path on the site. */
  image: z
    .union([HttpUrl, z.string().regex(/^\/[^\s]*$/)], { message: 'must be an absolute http(s) URL or a path on the site such as /episodes/1.png' })
    .optional(),
  spotifyUrl: HttpUrl.optional(),
  appleUrl: HttpUrl.optional(),
  amazonUrl: HttpUrl.optional(),
  youtubeUrl: HttpUrl.optional(),
  guests: z.array(z.string().min(1)).default([]),
  /** The episode's hosts (podcast:person role host), when they differ from the show's. */
  hosts: z.array(z.string().min(1)).default([]),
  topics: z.array(z.string().min(1)).default([]),
  chapters: z.array(ChapterSchema).default([]),
  episodeType: z.enum(['full', 'trailer', 'bonus']).default('full'),
  explicit: z.boolean().optional(),
});
export type EpisodeFrontmatter = z.infer<typeof EpisodeFrontmatterSchema>;

/** Episode, as the contract publishes it in /episodes.json. */
export const EpisodeSchema = z.object({
  id: z.int(),
  season: z.int(),
  title: z.string(),
  desc: z.string().optional(),
  duration: DurationString.optional(),
  seconds: z.int().nonnegative().optional(),
  date: DateString.optional(),
  audioFile: z.string().optional(),
  srtFile: z.string().optional(),
  guid: z.string().optional(),
  spotifyUrl: z.url().optional(),
  appleUrl: z.url().optional(),
  amazonUrl: z.url().optional(),
  youtubeUrl: z.url().optional(),
  hasSrt: z.boolean().optional(),
  guests: z.array(z.string()).optional(),
  topics: z.array(z.string()).optional(),
  chapters: z.array(z.object({ start: z.string(), title: z.string() })).optional(),
});
export type Episode = z.infer<typeof EpisodeSchema>;

export const EpisodeListSchema = z.array(EpisodeSchema).refine(
  (list) => list.every((e, i) => i === 0 || list[i - 1]!.id < e.id),
  { message: 'must be sorted by id ascending' },
);
