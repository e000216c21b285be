/**
 * Transcript cues for get_transcript. The published SRT (/transcripts/<srtFile>) is the source: it keeps every
 * cue with its own start and end, where /search/passages.json merges cues into passages and keeps only starts.
 * Each file is fetched and parsed once per process (DataStore.load memoizes it per path).
 */
import type { DataStore } from '../data.ts';
import type { ServiceEpisode } from '../service-data.ts';
import { parseSrt, type Cue } from '../../src/content/srt.ts';
import { parseDuration } from '../../src/content/duration.ts';

export function transcriptPath(episode: Pick<ServiceEpisode, 'srtFile'>): string {
  return `/transcripts/${encodeURIComponent(episode.srtFile!)}`;
}

export function loadCues(data: DataStore, episode: Pick<ServiceEpisode, 'srtFile'>): Promise<Cue[]> {
  return data.load(transcriptPath(episode), async (res) => {
    const { cues, problems } = parseSrt(await res.text());
    if (problems.length) throw new Error(`${transcriptPath(episode)} is not valid SRT: ${problems[0]!.message}`);
    return cues;
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
