/**
 * Transcripts out: every transcript is published in the three forms podcast apps read, under one stem
 * (/transcripts/<stem>.srt, .vtt and .json), whatever form the editor supplied (.srt or .vtt):
 *
 * - SubRip (application/x-subrip): an editor's SRT as written; a VTT converted;
 * - WebVTT (text/vtt): also the player's captions track;
 * - Podcasting 2.0 JSON (application/json): `{ version, segments: [{ speaker, startTime, endTime, body }] }`,
 *   https://github.com/Podcastindex-org/podcast-namespace/blob/main/docs/examples/transcripts/transcripts.md
 *
 * Cue timings and text are the same in all three; the build's tests read each back and compare them.
 */
import { readFileSync } from 'node:fs';
import type { LoadedEpisode } from '../content/load.ts';
import { parseVtt } from '../content/vtt.ts';
import { parseSrtBlocks } from '../content/srt.ts';
import { cachedParse } from '../content/parse-cache.ts';
import { splitSpeaker } from '../components/transcript.ts';

export interface TranscriptCue {
  start: number;
  end: number;
  /** Plain text lines as written (line breaks kept, markup removed). */
  lines: string[];
}

export const TRANSCRIPT_FORMATS = [
  { ext: 'srt', type: 'application/x-subrip', label: 'SRT' },
  { ext: 'vtt', type: 'text/vtt', label: 'WebVTT' },
  { ext: 'json', type: 'application/json', label: 'JSON' },
] as const;
export type TranscriptExt = (typeof TRANSCRIPT_FORMATS)[number]['ext'];

/** The published file names of an episode's transcript, by format; empty when it has none. */
export function transcriptFiles(episode: Pick<LoadedEpisode, 'srtFile' | 'hasSrt'>): Array<(typeof TRANSCRIPT_FORMATS)[number] & { file: string }> {
  if (!episode.srtFile || !episode.hasSrt) return [];
  const stem = episode.srtFile.replace(/\.srt$/, '');
  return TRANSCRIPT_FORMATS.map((f) => ({ ...f, file: `${stem}.${f.ext}` }));
}

/**
 * Reads a transcript the content model has validated, keeping its line breaks. Its three formats are rendered one
 * after the other, so the last one read is reused when the file has not changed. A build keeps the rendered files
 * by the transcript's bytes (src/integration/linked-files.ts, keyed in src/build/bulk-documents.ts); an SRT's
 * blocks come from the content model's parse (srtTranscriptCues).
 */
export function readTranscript(source: { path: string; format: 'srt' | 'vtt' }): { text: string; cues: TranscriptCue[] } {
  const raw = readFileSync(source.path, 'utf8');
  const text = raw.replace(/^\uFEFF/, '');
  const parse = source.format === 'vtt' ? vttTranscriptCues : srtTranscriptCues;
  const cues = last && last.parse === parse && last.text === text ? last.cues : parse(text, raw);
  last = { parse, text, cues };
  return { text, cues };
}

let last: { parse: (text: string, raw: string) => TranscriptCue[]; text: string; cues: TranscriptCue[] } | undefined;

function vttTranscriptCues(text: string): TranscriptCue[] {
  return parseVtt(text).cues.map((c) => ({ start: c.start, end: c.end, lines: c.lines }));
}

/**
 * `raw`: the file as read, which the content model parsed and kept by content (src/content/load.ts): the same
 * blocks come from that cache when parsing `raw` gives what parsing the normalized text does, i.e. when it has no
 * lone CR (a line break here, none to the line-by-line check) and no second BOM; otherwise the text is parsed.
 */
function srtTranscriptCues(text: string, raw: string): TranscriptCue[] {
  const normalized = text.replace(/\r\n?/g, '\n');
  const sameParse = !/\r(?!\n)/.test(raw) && !raw.startsWith('\uFEFF\uFEFF');
  return (sameParse ? cachedParse(parseSrtBlocks, raw) : parseSrtBlocks(normalized)).blocks.map((c) => ({
    start: c.start,
    end: c.end,
    lines: c.lines.map((l) => l.replace(/<[^>]+>|\{\\[^}]*\}/g, '').trim()).filter(Boolean),
  }));
}

/** The transcript in one format: the editor's own SRT is published as it is. */
export function renderTranscript(source: { path: string; format: 'srt' | 'vtt' }, ext: TranscriptExt): string {
  const { text, cues } = readTranscript(source);
  if (ext === 'srt') return source.format === 'srt' ? text : toSrt(cues);
  if (ext === 'vtt') return toVtt(cues);
  return `${JSON.stringify(toPodcastJson(cues))}\n`;
}

export function toSrt(cues: readonly TranscriptCue[]): string {
  return cues.map((c, i) => `${i + 1}\n${clock(c.start, ',')} --> ${clock(c.end, ',')}\n${c.lines.join('\n')}\n`).join('\n');
}

export function toVtt(cues: readonly TranscriptCue[]): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `WEBVTT\n\n${cues.map((c, i) => `${i + 1}\n${clock(c.start, '.')} --> ${clock(c.end, '.')}\n${c.lines.map(escape).join('\n')}\n`).join('\n')}`;
}

export interface PodcastTranscriptJson {
  version: '1.0.0';
  segments: Array<{ speaker?: string; startTime: number; endTime: number; body: string }>;
}

/** One segment per cue; a "Name:" at the start of a cue names the speaker until the next one does. */
export function toPodcastJson(cues: readonly TranscriptCue[]): PodcastTranscriptJson {
  let speaker: string | undefined;
  return {
    version: '1.0.0',
    segments: cues.map((c) => {
      const split = splitSpeaker(c.lines.join(' ').replace(/\s+/g, ' ').trim());
      if (split.speaker) speaker = split.speaker;
      return { ...(speaker ? { speaker } : {}), startTime: c.start, endTime: c.end, body: split.text };
    }),
  };
}

function clock(seconds: number, separator: ',' | '.'): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}${separator}${pad(ms % 1000, 3)}`;
}

