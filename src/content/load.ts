/**
 * The content model: reads what editors write (content/podcast.yaml, content/episodes/*.md,
 * content/transcripts/*.srt|*.vtt, content/audio/*.mp3), validates it against the schemas and derives the fields
 * editors never type. Runs at build time and in `npm run check`; the request path never calls it.
 * Every problem is collected (not only the first) as "file: field problem" so an editor can fix them all at once.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { estimateMp3, id3Size, MP3_HEAD_BYTES } from './mp3.ts';
import { NotUtf8Error, readUtf8 } from './text-file.ts';
import { RESERVED_SLUGS, slugify } from '../components/listing.ts';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { v5 as uuidv5 } from 'uuid';
import { parseDocument, isMap } from 'yaml';
import type { z } from 'zod';
import { languageNote } from '../../contract/search/language.ts';
import { EpisodeFrontmatterSchema, type Episode } from '../../contract/schemas/episode.ts';
import { PodcastConfigSchema, type PodcastConfig } from '../../contract/schemas/podcast.ts';
import { formatDuration, parseDuration } from '../../contract/duration.ts';
import { MARKDOWN_OPTIONS, NOTES_HTML_POLICY, markdownToHtml, markdownToText } from './markdown.ts';
import { parseSrtBlocks, srtCues, type Cue } from './srt.ts';
import { parseVtt } from './vtt.ts';
import { cachedByContent, cachedParse, cachedParseBytes, ensureParsed, PARSE_CACHE_VERSION, parsedEntry } from './parse-cache.ts';
import { keepSrtFacts, knownSrt, learntSrt } from './srt-facts.ts';
import { FileFacts } from './file-facts.ts';
import { CUES_CODEC, peekCues } from './cues-codec.ts';
import { claimedTranscript } from './transcript-prewarm.ts';
import { readOnce } from './cues-once.ts';
import { checkCategories } from './itunes-categories.ts';
import { closestWord } from './did-you-mean.ts';

/** The Podcasting 2.0 namespace's UUID for podcast:guid (UUIDv5 of the feed URL). */
export const PODCAST_GUID_NAMESPACE = 'ead4c236-bf58-58c6-a2c6-a6b28d128cb6';

/** A feed's podcast:guid when it names none: the UUIDv5 of its URL without the scheme and trailing slashes. */
export function podcastGuid(feedUrl: string): string {
  return uuidv5(feedUrl.replace(/^[a-z]+:\/\//i, '').replace(/\/+$/, ''), PODCAST_GUID_NAMESPACE);
}

export interface Show extends PodcastConfig {
  /** podcast:guid: pinned in podcast.yaml, else UUIDv5 of the feed URL without scheme or trailing slash. */
  guid: string;
  feedUrl: string;
}

export interface LoadedEpisode extends Episode {
  /** Path of the source file relative to the project, for messages. */
  file: string;
  slug: string;
  html: string;
  cues: Cue[] | null;
  /**
   * The transcript file the editor supplied (published as SRT, WebVTT and JSON under srtFile's stem). `digest` names
   * its text (sha1): the same text gives the same cues (a change to the parser is a change to every page's code,
   * which Astro keys apart), so a page's cache key holds it instead of the cues (src/build/page-key.ts).
   */
  transcript: { path: string; format: 'srt' | 'vtt'; digest: string } | null;
  /** The feed's enclosure length: the byte size of a bundled audio file, else audioLength from the frontmatter. */
  audioBytes: number | null;
  /** The audio on another host (frontmatter audioUrl), linked instead of a bundled audioFile. */
  audioUrl?: string;
  /** The enclosure's MIME type. */
  audioType: string;
  /** Exact publication time (ISO 8601), when the frontmatter gives one; otherwise date at 00:00 UTC. */
  pubDate?: string;
  hosts: string[];
  /** Per-episode itunes:explicit; the show's flag when not given. */
  explicit?: boolean;
  episodeType: 'full' | 'trailer' | 'bonus';
  /** The episode's own artwork (URL or site path), when it has one. */
  image?: string;
}

export interface LoadedContent {
  show: Show;
  /** Sorted by id ascending. */
  episodes: LoadedEpisode[];
  /** Absolute paths of the folders the build publishes from. */
  dirs: { root: string; audio: string; transcripts: string };
}

export interface LoadResult {
  content: LoadedContent | null;
  errors: string[];
  /**
   * What an editor most likely meant otherwise but does not stop a build: a file in transcripts/ or audio/ that
   * no episode names, so it is not published. Only looked for when there are no errors.
   */
  notes: string[];
}

export class ContentError extends Error {
  readonly code = 'content_invalid';
  /**
   * Not `errors`: Astro's dev server takes an error with an `errors` array for an AggregateError and writes a hint
   * onto each item, which throws on a string and brought `astro dev` down at the first page of invalid content.
   */
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The content has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((e) => `  - ${e}`).join('\n')}`);
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

/** A show's episode files: the names of the *.md files in its episodes/ folder, sorted (none without the folder). */
export function episodeFiles(contentDir: string): string[] {
  const episodesDir = join(contentDir, 'episodes');
  return existsSync(episodesDir) ? readdirSync(episodesDir).filter((f) => f.endsWith('.md')).sort() : [];
}

export function loadContent(contentDir = 'content', env: Env = process.env, projectRoot = process.cwd()): LoadResult {
  const errors: string[] = [];
  const rel = (p: string) => relative(projectRoot, p) || p;
  const dirs = {
    root: contentDir,
    audio: join(contentDir, 'audio'),
    transcripts: join(contentDir, 'transcripts'),
  };

  const show = loadShow(contentDir, env, errors, rel);

  const files = episodeFiles(contentDir);
  if (!files.length) errors.push(`${rel(join(contentDir, 'episodes'))}: no episodes (*.md) found`);

  const episodes: LoadedEpisode[] = [];
  const notes: string[] = [];
  const idOwner = new Map<number, string>();
  const audioOwner = new Map<string, string>();
  const transcriptOwner = new Map<string, string>();
  const guidOwner = new Map<string, string>();
  const slugOwner = new Map<string, string>();
  for (const name of files) {
    const path = join(contentDir, 'episodes', name);
    const episode = loadEpisode(path, rel(path), dirs, show, errors, rel, notes);
    if (!episode) continue;
    // A duplicate id drops the episode, but its files are still checked below, so that one run lists every problem.
    const owner = idOwner.get(episode.id);
    if (owner) errors.push(`${episode.file}: id ${episode.id} is already used by ${owner}; ids must be unique`);
    else idOwner.set(episode.id, episode.file);
    // One file for two episodes is a copy-paste slip: the feed would give both the same audio.
    if (episode.audioFile) {
      const other = audioOwner.get(episode.audioFile);
      if (other) errors.push(`${episode.file}: audioFile "${episode.audioFile}" is already used by ${other}; each episode needs its own MP3`);
      else audioOwner.set(episode.audioFile, episode.file);
    }
    if (episode.srtFile && episode.hasSrt) {
      const other = transcriptOwner.get(episode.srtFile);
      if (other) {
        errors.push(`${episode.file}: the transcript would be published as /transcripts/${episode.srtFile}, which ${other} already uses; each episode needs its own transcript`);
      } else transcriptOwner.set(episode.srtFile, episode.file);
    }
    // Podcast apps take two items with one guid for one episode: one of them would never be listed.
    const guid = episode.guid ?? '';
    const sameGuid = owner ? undefined : guidOwner.get(guid);
    if (sameGuid) errors.push(`${episode.file}: guid "${guid}" is already used by ${sameGuid}; each episode needs its own (or none: one is derived from its id)`);
    else guidOwner.set(guid, episode.file);
    // Addresses differing only in case: two pages on the site, one file on a case-insensitive checkout (macOS, Windows).
    const sameSlug = slugOwner.get(episode.slug.toLowerCase());
    if (sameSlug) errors.push(`${episode.file}: its address /episodes/${episode.slug}/ differs only in case from ${sameSlug}'s; rename one of them`);
    else slugOwner.set(episode.slug.toLowerCase(), episode.file);
    if (!owner) episodes.push(episode);
  }
  // Skipped by the *.md rule, an episode saved as .MD or .markdown would vanish from the site without a word.
  const episodesDir = join(contentDir, 'episodes');
  for (const name of existsSync(episodesDir) ? readdirSync(episodesDir) : []) {
    if (/\.(md|markdown|mdown|mkd)$/i.test(name) && !name.endsWith('.md')) {
      errors.push(`${rel(join(episodesDir, name))}: episode files end in ".md" (lower case); rename it ${name.replace(/\.[^.]+$/, '.md')}`);
    }
  }
  episodes.sort((a, b) => a.id - b.id);
  errors.push(...facetClashes(episodes));
  keepSrtFacts();
  episodeFacts?.keep();
  if (errors.length || !show) return { content: null, errors, notes: [] };
  const language = languageNote(show.language);
  if (language) notes.unshift(`${rel(join(contentDir, 'podcast.yaml'))}: ${language}`);
  return { content: { show, episodes, dirs }, errors, notes: [...notes, ...futureEpisodes(episodes), ...unusedFiles(dirs, episodes, rel)] };
}

/**
 * Guests and topics whose names would share one listing page (/episodes/guest/<slug>/): "C++" and "C#" both became
 * "c", and a name of punctuation alone "x". Names that differ only in case, accents or spacing are one name.
 */
function facetClashes(episodes: LoadedEpisode[]): string[] {
  const problems: string[] = [];
  const same = (label: string) => label.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/\s+/g, ' ').trim();
  for (const kind of ['guest', 'topic'] as const) {
    const first = new Map<string, { label: string; file: string }>();
    for (const e of episodes) {
      for (const label of (kind === 'guest' ? e.guests : e.topics) ?? []) {
        if (!/[\p{L}\p{N}]/u.test(label)) {
          problems.push(`${e.file}: ${kind} "${label}" has no letter or digit to make its page's address from`);
          continue;
        }
        const slug = slugify(label);
        const seen = first.get(slug);
        if (!seen) first.set(slug, { label, file: e.file });
        else if (same(seen.label) !== same(label)) {
          problems.push(`${e.file}: ${kind} "${label}" and "${seen.label}" (${seen.file}) would share one page, /episodes/${kind}/${slug}/; spell them alike if they are one, or tell them apart with letters or digits`);
        }
      }
    }
  }
  return problems;
}

/**
 * Episodes dated after today: a static site has no schedule, so such an episode is public from the build on, first
 * in every list and feed (and the feed's lastBuildDate in the future). Said, not refused: an editor may mean it.
 */
function futureEpisodes(episodes: LoadedEpisode[]): string[] {
  const today = new Date().toISOString().slice(0, 10);
  return episodes
    .filter((e) => e.date !== undefined && e.date > today)
    .map((e) => `${e.file}: date ${e.date} is after today (${today}), but the episode is public as soon as the site is built, listed first; to publish it on that day, add the file then`);
}

/**
 * Files no episode names: a transcript added beside a new episode without `srtFile` (or `transcriptFile`) in its
 * frontmatter is otherwise left out without a word, and the episode published without it.
 */
function unusedFiles(dirs: LoadedContent['dirs'], episodes: LoadedEpisode[], rel: (p: string) => string): string[] {
  const named = (dir: string, used: Set<string>) =>
    (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : [])
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.') && !used.has(join(dir, entry.name)))
      .map((entry) => entry.name)
      .sort();
  const transcripts = new Set(episodes.flatMap((e) => (e.transcript ? [e.transcript.path] : [])));
  const audio = new Set(episodes.flatMap((e) => (e.audioFile ? [join(dirs.audio, e.audioFile)] : [])));
  return [
    ...named(dirs.transcripts, transcripts).map(
      (name) => `${rel(join(dirs.transcripts, name))}: no episode names this transcript, so it is not published (in its episode's frontmatter: ${name.endsWith('.vtt') ? 'transcriptFile' : 'srtFile'}: ${name})`,
    ),
    ...named(dirs.audio, audio).map(
      (name) => `${rel(join(dirs.audio, name))}: no episode names this audio file, so it is not published (in its episode's frontmatter: audioFile: ${name})`,
    ),
  ];
}

/** loadContent, throwing one ContentError that lists every problem. */
export function loadContentOrThrow(contentDir = 'content', env: Env = process.env): LoadedContent {
  const { content, errors } = loadContent(contentDir, env);
  if (!content) throw new ContentError(errors);
  return content;
}

function loadShow(contentDir: string, env: Env, errors: string[], rel: (p: string) => string): Show | null {
  const yamlPath = join(contentDir, 'podcast.yaml');
  const jsonPath = join(contentDir, 'podcast.json');
  const path = existsSync(yamlPath) ? yamlPath : existsSync(jsonPath) ? jsonPath : null;
  if (!path) {
    errors.push(`${rel(yamlPath)}: missing (the show's settings: title, description, author, ...)`);
    return null;
  }
  let raw: unknown;
  try {
    raw = parseYaml(readUtf8(path));
  } catch (e) {
    errors.push(`${rel(path)}: ${(e as Error).message}`);
    return null;
  }
  if (!raw || typeof raw !== 'object') {
    errors.push(`${rel(path)}: must be a mapping of settings`);
    return null;
  }
  const data = { ...(raw as Record<string, unknown>) };
  // Deployment-specific values come from the environment so one content folder serves staging and production.
  if (env.SITE_URL) data.siteUrl = env.SITE_URL;
  const tips = { ...((data.tips as Record<string, unknown>) ?? {}) };
  if (env.TIP_WALLET_ADDRESS) tips.walletAddress = env.TIP_WALLET_ADDRESS;
  if (env.TIP_NETWORK) tips.network = env.TIP_NETWORK;
  if (env.TIP_URL) tips.url = env.TIP_URL;
  data.tips = tips;
  const result = PodcastConfigSchema.safeParse(data);
  if (!result.success) {
    errors.push(...formatIssues(rel(path), result.error.issues, data));
    return null;
  }
  const config = result.data;
  const categoryProblems = checkCategories(config.categories);
  if (categoryProblems.length) {
    errors.push(...categoryProblems.map((p) => `${rel(path)}: ${p}`));
    return null;
  }
  config.siteUrl = config.siteUrl.replace(/\/+$/, '');
  const feedUrl = `${config.siteUrl}/rss.xml`;
  const guid = config.guid?.toLowerCase() ?? podcastGuid(feedUrl);
  return { ...config, guid, feedUrl };
}

function loadEpisode(
  path: string,
  file: string,
  dirs: LoadedContent['dirs'],
  show: Show | null,
  errors: string[],
  rel: (p: string) => string,
  notes: string[],
): LoadedEpisode | null {
  const fields = episodeFields(path, file, errors);
  if (!fields) return null;
  const { data: fmData, desc, html } = fields;
  const before = errors.length;

  let cues: Cue[] | null = null;
  /** With loadCuesOnDemand: a SubRip transcript's cues, made when first read. */
  let onDemand: { count: number; lastEnd: number | undefined; cues: () => Cue[] } | undefined;
  let transcript: LoadedEpisode['transcript'] = null;
  if (fmData.srtFile && fmData.transcriptFile) {
    errors.push(`${file}: transcriptFile and srtFile are both set; keep one (transcriptFile takes .srt or .vtt)`);
  }
  const transcriptField = fmData.transcriptFile ? 'transcriptFile' : 'srtFile';
  const transcriptName = fmData.transcriptFile ?? fmData.srtFile;
  if (transcriptName) {
    const srtPath = join(dirs.transcripts, transcriptName);
    if (!existsSync(srtPath)) {
      errors.push(`${file}: ${transcriptField} "${transcriptName}" does not exist in ${rel(dirs.transcripts)}/`);
    } else {
      try {
        const format = transcriptName.endsWith('.vtt') ? 'vtt' : 'srt';
        if (format === 'srt' && cuesOnDemand) {
          const { summary, digest, cues: made } = knownTranscript(srtPath, rel) ?? claimedTranscript(srtPath, () => summarisedSrt(srtPath, rel));
          for (const p of summary.problems) errors.push(`${rel(srtPath)}:${p.line}: ${p.message}`);
          if (!summary.problems.length) {
            onDemand = { count: summary.count, lastEnd: summary.lastEnd, cues: made };
            transcript = { path: srtPath, format, digest };
          }
        } else {
          const {
            parsed: { cues: parsedCues, problems },
            digest,
          } = claimedTranscript(srtPath, () => parseTranscript(format, readUtf8(srtPath)));
          for (const p of problems) errors.push(`${rel(srtPath)}:${p.line}: ${p.message}`);
          if (!problems.length) {
            // SubRip's cues are start, end and text already; WebVTT's carry their lines too, which pages do not show.
            // (Copying a million cues of a 1,000-episode show was ~0.7 s on each of the build's three threads.)
            cues = format === 'srt' ? parsedCues : parsedCues.map(({ start, end, text: t }) => ({ start, end, text: t }));
            transcript = { path: srtPath, format, digest };
          }
        }
      } catch (err) {
        if (!(err instanceof NotUtf8Error)) throw err;
        errors.push(`${rel(srtPath)}: ${err.message}`);
      }
    }
  }

  let audioBytes: number | null = fmData.audioLength ?? null;
  if (fmData.audioFile && fmData.audioUrl) {
    errors.push(`${file}: audioFile and audioUrl are both set; keep one (a bundled file or a link to the audio elsewhere)`);
  } else if (fmData.audioFile) {
    const audioPath = join(dirs.audio, fmData.audioFile);
    if (existsSync(audioPath)) {
      audioBytes = statSync(audioPath).size;
      // An upload that failed half-way, or a placeholder: the feed's enclosure would offer apps nothing to play.
      if (audioBytes === 0) errors.push(`${file}: audioFile "${fmData.audioFile}" is empty (0 bytes); put the episode's audio there`);
      else if (fmData.audioFile.endsWith('.mp3')) {
        const heard = mp3Estimate(audioPath, audioBytes);
        if (!heard) {
          errors.push(`${file}: audioFile "${fmData.audioFile}" is not MP3 audio (no MPEG audio frame where its audio starts); export the episode as MP3`);
        } else if (fmData.duration) {
          // Players and apps show the stated duration: one far from what the file plays is a slip (another
          // episode's, or the recording's before an edit). Noted, since the estimate reads only the file's start.
          const stated = parseDuration(fmData.duration)!;
          if (Math.abs(stated - heard.seconds) > Math.max(10, heard.seconds * 0.05)) {
            notes.push(`${file}: duration "${fmData.duration}" but ${fmData.audioFile} plays about ${formatDuration(Math.round(heard.seconds))}; the feed and players show the duration`);
          }
        }
      }
    } else if (!show?.audioBaseUrl) {
      errors.push(`${file}: audioFile "${fmData.audioFile}" does not exist in ${rel(dirs.audio)}/ (or set audioBaseUrl in podcast.yaml)`);
    }
  }

  if (fmData.pubDate && fmData.pubDate.slice(0, 10) !== fmData.date) {
    errors.push(`${file}: pubDate "${fmData.pubDate}" is not on date ${fmData.date}; change both together`);
  }

  const seconds = fmData.duration
    ? parseDuration(fmData.duration)!
    : cues?.length
      ? Math.floor(cues[cues.length - 1]!.end)
      : onDemand?.count
        ? Math.floor(onDemand.lastEnd!)
        : undefined;
  let previous: { at: number; chapter: (typeof fmData.chapters)[number] } | undefined;
  for (const chapter of fmData.chapters) {
    const at = parseDuration(chapter.start)!;
    if (seconds !== undefined && at > seconds) {
      errors.push(`${file}: chapters: "${chapter.title}" starts at ${chapter.start}, after the episode ends (${formatDuration(seconds)})`);
    }
    // Players and the JSON chapters format read chapters in the order of their starts.
    if (previous && at < previous.at) {
      errors.push(`${file}: chapters: "${chapter.title}" (${chapter.start}) comes after "${previous.chapter.title}" (${previous.chapter.start}) but starts before it; list the chapters in order of their start`);
    }
    previous = { at, chapter };
  }
  const slug = file.replace(/^.*[\\/]/, '').replace(/\.md$/, '');
  const slugWrong = slugProblem(slug);
  if (slugWrong) errors.push(`${file}: ${slugWrong}`);
  if (errors.length > before) return null;

  const guid =
    fmData.guid ?? (show ? uuidv5(`episode/${fmData.id}`, show.guid) : `episode-${fmData.id}`);
  const { episodeType, audioLength: _audioLength, audioType, explicit, transcriptFile: _transcriptFile, ...contractFields } = fmData;
  const episode: LoadedEpisode = {
    ...contractFields,
    ...(explicit !== undefined ? { explicit } : {}),
    desc: desc || undefined,
    duration: seconds !== undefined ? (fmData.duration ?? formatDuration(seconds)) : undefined,
    seconds,
    guid,
    hasSrt: cues !== null || onDemand !== undefined,
    // Whatever the editor supplied, the SubRip copy is published under this name (the contract's srtFile).
    srtFile: transcriptName ? transcriptName.replace(/\.(srt|vtt)$/, '.srt') : undefined,
    transcript,
    file,
    slug,
    html,
    cues,
    audioBytes,
    audioType: audioType ?? mimeOfAudioFile(fmData.audioFile),
    episodeType,
  };
  if (onDemand) {
    // In its place among the fields, so that a copy, JSON or a structured clone reads it as they read a value.
    let made: Cue[] | undefined;
    const make = onDemand.cues;
    Object.defineProperty(episode, 'cues', {
      enumerable: true,
      configurable: true,
      get: () => (made ??= make()),
      set: (value: Cue[]) => void (made = value),
    });
    readOnce(episode, () => made ?? make());
  }
  return episode;
}

/** What an episode file's text gives before it is validated: its frontmatter as data (or why not), its notes rendered. */
interface EpisodeSource {
  frontmatter: { data: unknown } | { error: string };
  desc: string;
  html: string;
}

function readEpisodeSource(frontmatter: string, notes: string): EpisodeSource {
  let read: EpisodeSource['frontmatter'];
  try {
    const raw = parseYaml(frontmatter);
    // YAML turns an unquoted 2025-01-14 into a Date; the contract wants the text.
    const data =
      raw && typeof raw === 'object' && !Array.isArray(raw)
        ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v instanceof Date ? isoDate(v) : v]))
        : raw;
    read = { data };
  } catch (e) {
    read = { error: (e as Error).message };
  }
  return { frontmatter: read, desc: markdownToText(notes), html: markdownToHtml(notes) };
}

/**
 * readEpisodeSource, kept in the content cache by the file's text: YAML's parse and the notes' Markdown were ~2.5 s
 * of each of a build's three loads of a 1,000-episode show (profiled), redone in every rebuild for files that did
 * not change. What JSON would not give back the same (a non-finite number such as .nan; a date below the top
 * level, which a `%YAML 1.1` document can hold) is read anew each time. The key names the code and the packages
 * that read (EPISODE_SOURCE_IDENTITY); without them, no cache.
 */
function episodeSource(source: string, frontmatter: string, notes: string): EpisodeSource {
  if (EPISODE_SOURCE_IDENTITY === undefined) return readEpisodeSource(frontmatter, notes);
  let made: EpisodeSource | undefined;
  const kept = cachedByContent<EpisodeSource | { live: true }>(
    EPISODE_SOURCE_IDENTITY,
    source,
    () => {
      made = readEpisodeSource(frontmatter, notes);
      return isJsonData(made) ? made : { live: true };
    },
    // Not the per-episode work the build reports (transcripts, search analyses): a few milliseconds a file.
    { counted: false },
  );
  return made ?? ('live' in kept ? readEpisodeSource(frontmatter, notes) : kept);
}

const EPISODE_SOURCE_IDENTITY = ((): string | undefined => {
  try {
    const require = createRequire(import.meta.url);
    const packages = ['yaml', 'marked', 'sanitize-html'].map((name) => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
    const code = [readEpisodeSource, parseYaml, isoDate, markdownToText, markdownToHtml].map(String);
    return ['episode-source', PARSE_CACHE_VERSION, ...packages, JSON.stringify(MARKDOWN_OPTIONS), JSON.stringify(NOTES_HTML_POLICY), ...code].join('\0');
  } catch {
    // A bundle without the packages' manifests: read each time.
    return undefined;
  }
})();

/** An episode file's validated frontmatter and its notes as text and HTML: all loadEpisode reads of the file. */
interface EpisodeFields {
  data: z.infer<typeof EpisodeFrontmatterSchema>;
  desc: string;
  html: string;
}

/**
 * episodeFields as the file gave them to an earlier load (file-facts.ts), by the code and packages that read and
 * validate it (EPISODE_FIELDS_IDENTITY): an unchanged file is not read, hashed, looked up in the content cache and
 * validated again (~0.85 s of each of a rebuild's three loads at 1,290 episodes, the main thread's on the build's
 * critical path). Without the identity (a bundle without the sources), none.
 */
const EPISODE_FIELDS_IDENTITY = ((): string | undefined => {
  if (EPISODE_SOURCE_IDENTITY === undefined) return undefined;
  try {
    const require = createRequire(import.meta.url);
    const schemas = ['episode.ts', 'common.ts'].map((name) => readFileSync(new URL(`../../contract/schemas/${name}`, import.meta.url), 'utf8'));
    const zod = (require('zod/package.json') as { version: string }).version;
    return createHash('sha1').update([EPISODE_SOURCE_IDENTITY, `zod@${zod}`, episodeFields.toString(), ...schemas].join('\0')).digest('hex').slice(0, 16);
  } catch {
    return undefined;
  }
})();

const isEpisodeFields = (v: unknown): v is EpisodeFields => {
  const f = v as EpisodeFields | null;
  return typeof f === 'object' && f !== null && typeof f.desc === 'string' && typeof f.html === 'string' && typeof f.data === 'object' && f.data !== null;
};

const episodeFacts = EPISODE_FIELDS_IDENTITY === undefined ? undefined : new FileFacts<EpisodeFields>(`episode-facts-1-${EPISODE_FIELDS_IDENTITY}`, isEpisodeFields);

/** An episode file's fields (EpisodeFields), or null with its problems added to `errors`. */
function episodeFields(path: string, file: string, errors: string[]): EpisodeFields | null {
  const found = episodeFacts && statSync(path);
  const known = found && episodeFacts.known(path, found);
  if (known) return known;
  const readAt = Date.now();
  let source: string;
  try {
    source = readUtf8(path).replace(/^\uFEFF/, '');
  } catch (err) {
    if (!(err instanceof NotUtf8Error)) throw err;
    errors.push(`${file}: ${err.message}`);
    return null;
  }
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!fm) {
    errors.push(`${file}: must start with YAML frontmatter between "---" lines`);
    return null;
  }
  let read: EpisodeSource;
  try {
    read = episodeSource(source, fm[1]!, fm[2]!.trim());
  } catch (err) {
    // Markdown nested a few thousand levels deep (quotes, lists, HTML) overflows marked's stack: one line, this file.
    if (!(err instanceof RangeError)) throw err;
    errors.push(`${file}: the show notes are nested too deeply to read (${err.message}); flatten the quotes, lists or HTML`);
    return null;
  }
  if ('error' in read.frontmatter) {
    errors.push(`${file}: frontmatter ${read.frontmatter.error}`);
    return null;
  }
  const data = read.frontmatter.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    errors.push(`${file}: frontmatter must be a mapping of fields`);
    return null;
  }
  const parsed = EpisodeFrontmatterSchema.safeParse(data);
  if (!parsed.success) {
    errors.push(...formatIssues(file, parsed.error.issues, data as Record<string, unknown>));
    return null;
  }
  const fields: EpisodeFields = { data: parsed.data, desc: read.desc, html: read.html };
  // Only what JSON gives back as it is (isJsonData): anything else is read anew each time.
  if (found && isJsonData(fields)) episodeFacts!.learnt(path, found, readAt, fields);
  return fields;
}

/** Whether JSON gives `value` back as it is: plain objects and arrays of strings, booleans, null and finite numbers but -0. */
export function isJsonData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype && value.every(isJsonData);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.entries(value).every(([key, v]) => key !== '__proto__' && isJsonData(v));
}

/** A transcript's cues and problems, kept in the content cache under its digest (SubRip's in cues-codec.ts's binary form). */
function parseTranscript(format: 'srt' | 'vtt', text: string): { parsed: ReturnType<typeof srtCues> | ReturnType<typeof parseVtt>; digest: string } {
  const digest = transcriptDigest(text);
  return { parsed: format === 'vtt' ? cachedParse(parseVtt, text, undefined, digest) : cachedParse(parseSrtKeepingBlocks, text, CUES_CODEC, digest), digest };
}

/**
 * This thread's loads give a SubRip transcript's cues (LoadedEpisode.cues) when they are first read, not as the
 * content loads: decoded then from the content cache entry read at load time, and kept. For the threads of a build,
 * which read few of them in a rebuild: Astro's pages render a changed episode's transcript and keep the others
 * (src/integration/content-check.ts turns this on), the bulk documents' search part reads an episode's cues only
 * when its search analysis is not kept (src/build/search/analysis.ts, analyseShow), and their per-episode part only
 * for files not kept (src/integration/bulk-documents-worker.ts). Each of the three decoded and held ~900,000 cue
 * objects at 1,000 hour-long episodes; a one-episode rebuild now decodes a few episodes' (bench/RESULTS.md, thirty-
 * ninth session). Everything else about the episode is the same; WebVTT's cues are made as they load.
 */
export function loadCuesOnDemand(on: boolean): void {
  cuesOnDemand = on;
}

let cuesOnDemand = false;

type SummarisedSrt = { summary: ReturnType<typeof peekCues>; digest: string; cues: () => Cue[] };

/**
 * summarisedSrt for a transcript file as an earlier load found it (srt-facts.ts): nothing read until its cues are
 * asked for, then its cache entry, or, were that gone or damaged, the file (if it still holds the text the digest
 * names). Undefined when the file is not as it was found.
 */
function knownTranscript(path: string, rel: (p: string) => string): SummarisedSrt | undefined {
  const facts = knownSrt(path);
  if (!facts) return undefined;
  const { digest } = facts;
  const entry = parsedEntry(parseSrtKeepingBlocks, CUES_CODEC, digest);
  const cues = () => decodedCues(entry(), path, digest, rel);
  return { summary: { count: facts.count, lastEnd: facts.lastEnd, problems: [] }, digest, cues };
}

/**
 * A SubRip transcript's cues from its cache entry's bytes, or, were those gone or damaged, from the file parsed again
 * (the entry replaced) if it still holds the text the digest names.
 */
function decodedCues(bytes: Uint8Array | undefined, path: string, digest: string, rel: (p: string) => string): Cue[] {
  if (bytes) {
    try {
      return CUES_CODEC.decode(bytes).cues;
    } catch {
      // Damaged past its head: parsed again below.
    }
  }
  const text = readFileSync(path, 'utf8');
  if (transcriptDigest(text) !== digest) throw new Error(`${rel(path)} changed while the build was reading it`);
  return cachedParse(parseSrtKeepingBlocks, text, CUES_CODEC, digest).cues;
}

/**
 * A SubRip transcript's digest and what its cache entry says of it (peekCues), with its cues made on request: from
 * the entry's bytes, or, were they damaged, from the file parsed again if it still holds the text the digest names.
 */
function summarisedSrt(path: string, rel: (p: string) => string): SummarisedSrt {
  const found = statSync(path);
  const readAt = Date.now();
  const text = readUtf8(path);
  const digest = transcriptDigest(text);
  let bytes: Uint8Array | undefined = cachedParseBytes(parseSrtKeepingBlocks, text, CUES_CODEC, digest);
  let summary: ReturnType<typeof peekCues>;
  try {
    summary = peekCues(bytes);
  } catch {
    // A damaged entry: cachedParse finds it so, parses again and replaces it.
    bytes = CUES_CODEC.encode(cachedParse(parseSrtKeepingBlocks, text, CUES_CODEC, digest));
    summary = peekCues(bytes);
  }
  if (!summary.problems.length) learntSrt(path, found, readAt, { digest, count: summary.count, lastEnd: summary.lastEnd });
  const cues = () => {
    const kept = bytes;
    // The episode keeps what this returns: the entry's bytes are not needed again.
    bytes = undefined;
    return decodedCues(kept, path, digest, rel);
  };
  return { summary, digest, cues };
}

/** parseTranscript's result kept in the content cache for another thread (the prewarm helper), nothing returned. */
export function keepParsedTranscript(format: 'srt' | 'vtt', text: string): void {
  const digest = transcriptDigest(text);
  if (format === 'vtt') ensureParsed(parseVtt, text, undefined, digest);
  else ensureParsed(parseSrtKeepingBlocks, text, CUES_CODEC, digest);
}

/** What names a transcript's text (LoadedEpisode.transcript.digest), and keys its cues in the content cache. */
function transcriptDigest(text: string): string {
  // ~85 ms for the 87 MB of a 1,000-episode show's transcripts.
  return createHash('sha1').update(text).digest('base64url');
}

/**
 * parseSrt, with the blocks srt-parser-2 reads kept by content as well (src/content/parse-cache.ts): the transcript
 * renderer, on another thread of the build, takes them from there (src/build/transcripts.ts) instead of reading the
 * file again. The cues are kept on their own, so a rebuild reads only them.
 */
function parseSrtKeepingBlocks(text: string): ReturnType<typeof srtCues> {
  return srtCues(cachedParse(parseSrtBlocks, text));
}

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/opus', wav: 'audio/wav', flac: 'audio/flac',
};

/** The MIME type of a bundled audio file, by its extension (audio/mpeg for MP3 and when unknown). */
export function mimeOfAudioFile(name: string | undefined): string {
  return AUDIO_TYPES[name?.split('.').pop()?.toLowerCase() ?? ''] ?? 'audio/mpeg';
}

function parseYaml(text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line;
    throw new Error(`is not valid YAML${line ? ` (line ${line})` : ''}: ${e.message.split('\n')[0]}`);
  }
  if (!isMap(doc.contents) && doc.contents !== null) {
    // Lists or scalars at the top level are reported by the callers.
  }
  return doc.toJS();
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

const KNOWN_EPISODE_FIELDS = Object.keys(EpisodeFrontmatterSchema.shape);
const DERIVED_FIELDS = new Set(['seconds', 'hasSrt', 'desc']);

function formatIssues(file: string, issues: z.core.$ZodIssue[], data: Record<string, unknown>): string[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const where = issue.path.length ? `${issue.path.join('.')}.` : '';
        if (!issue.path.length && DERIVED_FIELDS.has(key)) {
          return `${file}: field "${key}" is derived by the build and must not be written`;
        }
        const guess = issue.path.length ? undefined : closestWord(key, KNOWN_EPISODE_FIELDS, 2);
        return `${file}: unknown field "${where}${key}"${guess ? ` (did you mean "${guess}"?)` : ''}`;
      });
    }
    const field = fieldName(issue.path);
    const value = getPath(data, issue.path);
    if (value === undefined && issue.code === 'invalid_type') {
      return [`${file}: ${field} is required`];
    }
    const shown = value === undefined ? '' : ` ${JSON.stringify(value)}`;
    // YAML reads `start: 90` as a number, and zod says only "expected string": say how to write a time.
    const time = typeof value === 'number' && /(^|\.)(start|duration)$/.test(issue.path.join('.'));
    return [`${file}: ${field}${shown} ${time ? 'must be a time in quotes, MM:SS or HH:MM:SS (e.g. "01:30")' : issue.message}`];
  });
}

/** A field's path as an editor counts: `chapters.2.start` is the start of chapter 3. */
function fieldName(path: PropertyKey[]): string {
  const parts: string[] = [];
  path.forEach((key, i) => {
    const parent = path[i - 1];
    if (typeof key === 'number' && typeof parent === 'string') parts[parts.length - 1] = `${parent.replace(/ies$/, 'y').replace(/s$/, '')} ${key + 1}`;
    else parts.push(String(key));
  });
  return parts.join('.').replace(/ (\d+)\./g, " $1's ");
}

function getPath(data: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/**
 * Why an episode file's name cannot be its address (/episodes/<name>/), or undefined. Only URL-safe characters (RFC
 * 3986's unreserved ones) are taken: with a space, "&", "#" or "?" in it, every link to the episode pointed elsewhere
 * and answered 404. And not a name the episode list's own addresses use (the build failed on it late, after
 * emptying its output).
 */
export function slugProblem(slug: string): string | undefined {
  if (RESERVED_SLUGS.includes(slug)) {
    return `the file name "${slug}" is an address the episode list uses (/episodes/${slug}/); rename the file (reserved: ${RESERVED_SLUGS.join(', ')})`;
  }
  if (/^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(slug)) return undefined;
  const suggested = slug.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9._~-]+/g, '-').replace(/^[-._~]+|-+$/g, '');
  return `the file name "${slug}" becomes the episode's address (/episodes/${slug}/), so it may hold only the letters A-Z and a-z (no accents), digits, "-", "_", "." and "~", starting with a letter or digit${suggested ? `; rename it ${suggested}.md` : ''}`;
}

/** estimateMp3 over the start of an MP3 file: its ID3 tag's header, then MP3_HEAD_BYTES from where the audio starts. */
function mp3Estimate(path: string, size: number): { seconds: number } | undefined {
  const fd = openSync(path, 'r');
  try {
    const tag = Buffer.alloc(10);
    const start = id3Size(tag.subarray(0, readSync(fd, tag, 0, 10, 0)));
    const head = Buffer.alloc(MP3_HEAD_BYTES);
    const read = readSync(fd, head, 0, MP3_HEAD_BYTES, start);
    return estimateMp3(head.subarray(0, read), size - start);
  } finally {
    closeSync(fd);
  }
}
