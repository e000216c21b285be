/**
 * Transcript cues for get_transcript and the transcript resources, read from the Podcasting 2.0 JSON the build publishes beside each SRT
 * (/transcripts/<name>.json): every cue with its own start and end, where /search/passages.json merges cues into
 * passages. Nothing is parsed but JSON; each file is fetched once per process (DataStore.load memoizes it).
 */
import type { DataStore } from '../data.ts';
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

export function loadCues(data: DataStore, episode: Pick<ServiceEpisode, 'srtFile'>): Promise<Cue[]> {
  return data.load(transcriptPath(episode), async (res) => {
    const { segments } = (await res.json()) as TranscriptJson;
    let previous: string | undefined;
    return segments.map((s) => {
      const text = s.speaker && s.speaker !== previous ? `${s.speaker}: ${s.body}` : s.body;
      previous = s.speaker;
      return { start: s.startTime, end: s.endTime, text };
    });
  });
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
