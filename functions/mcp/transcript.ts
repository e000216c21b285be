/**
 * Transcript cues for get_transcript and the transcript resources, read from the Podcasting 2.0 JSON the build publishes beside each SRT
 * (/transcripts/<name>.json): every cue with its own start and end, where /search/passages.json merges cues into
 * passages. Nothing is parsed but JSON. The cues read are kept in a cache bounded in bytes, not for the life of the
 * process: search_episodes reads the transcript of every result for its player lines, so a server answering varied
 * queries read hundreds of them (bench/, N = 1,000: ~60 MB of the heap, growing with the show).
 */
import type { DataStore } from '../data.ts';
import { loadOnce, Lru } from '../search/engine.ts';
import type { ServiceEpisode } from '../../contract/schemas/service-data.ts';
import { transcriptJsonFile, type TranscriptJson } from '../../contract/schemas/transcript.ts';
import { formatTimestamp, parseDuration } from '../../contract/duration.ts';
import { TRANSCRIPT_PAGE_CHARS, paginate } from '../../contract/mcp/resources.ts';

export interface Cue {
  start: number;
  end: number;
  /** The cue's words, with "Speaker: " where a new speaker's turn begins (as in the SRT). */
  text: string;
}

export function transcriptPath(episode: Pick<ServiceEpisode, 'srtFile'>): string {
  return `/transcripts/${encodeURIComponent(transcriptJsonFile(episode.srtFile!))}`;
}

/**
 * Bytes of cues kept per build: about ten hour-long episodes' (~300 KB each as kept), one search_episodes answer's
 * results, so its player lines are not read again for each of them.
 */
export const CUE_CACHE_BYTES = 4 * 1024 * 1024;
const cueCaches = new WeakMap<DataStore, Lru<string, Promise<Cue[]>>>();

/** About what a cue holds: its object and two numbers, and its text (two bytes a character, at most). */
const cueBytes = (cues: Cue[]) => cues.reduce((bytes, c) => bytes + 80 + 2 * c.text.length, 64);

export function loadCues(data: DataStore, episode: Pick<ServiceEpisode, 'srtFile'>): Promise<Cue[]> {
  let cache = cueCaches.get(data);
  if (!cache) cueCaches.set(data, (cache = new Lru(CUE_CACHE_BYTES)));
  const path = transcriptPath(episode);
  const load = () =>
    data.read(path, async (res) => {
      const { segments } = (await res.json()) as TranscriptJson;
      let previous: string | undefined;
      return segments.map((s): Cue => {
        const text = s.speaker && s.speaker !== previous ? `${s.speaker}: ${s.body}` : s.body;
        previous = s.speaker;
        return { start: s.startTime, end: s.endTime, text };
      });
    });
  return loadOnce(cache, path, 256 * 1024, load, cueBytes);
}

/** Cues kept around moments, per build: ~1 KB each, so about two thousand moments (ten results of 200 queries). */
export const MOMENT_CACHE_BYTES = 2 * 1024 * 1024;
const momentCaches = new WeakMap<DataStore, Lru<string, Promise<{ cues: Cue[]; at: number }>>>();

/**
 * The cues from `before` cues before the one being spoken at `start` to `after` cues after it, and which of them
 * that one is. Kept by moment, apart from the whole transcripts: search_episodes shows a few lines around each
 * result, and a repeated query then costs no transcript read.
 */
export function cuesAround(data: DataStore, episode: Pick<ServiceEpisode, 'srtFile'>, start: number, before: number, after: number): Promise<{ cues: Cue[]; at: number }> {
  let cache = momentCaches.get(data);
  if (!cache) momentCaches.set(data, (cache = new Lru(MOMENT_CACHE_BYTES)));
  const key = `${transcriptPath(episode)}\u0000${start}\u0000${before}\u0000${after}`;
  const load = () =>
    loadCues(data, episode).then((cues) => {
      let at = cues.findIndex((c) => c.end > start);
      if (at < 0) at = cues.length - 1;
      const from = Math.max(0, at - before);
      return { cues: cues.slice(from, at + after + 1), at: at - from };
    });
  return loadOnce(cache, key, 1024, load, (moment) => 2 * key.length + cueBytes(moment.cues));
}

/** A window bound as seconds: a number of seconds, or "MM:SS" / "HH:MM:SS". */
export function toSeconds(value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? value : parseDuration(value);
}

/** The cues that overlap [start, end): a cue still being spoken at start counts, so no quote is cut off. */
export function cuesInWindow(cues: Cue[], start: number, end: number | undefined): Cue[] {
  return cues.filter((c) => (c.end > start || c.start >= start) && (end === undefined || c.start < end));
}

/** One cue as a transcript line: "[HH:MM:SS] Speaker: words". */
export function cueLine(cue: Cue): string {
  return `[${formatTimestamp(cue.start)}] ${cue.text}`;
}

/** The cues split into pages of at most TRANSCRIPT_PAGE_CHARS characters of lines (resources/read and get_transcript). */
export function pageCues(cues: Cue[], budget = TRANSCRIPT_PAGE_CHARS): Cue[][] {
  return paginate(cues.map((c) => cueLine(c).length), budget).map(({ from, to }) => cues.slice(from, to));
}
