/**
 * Transcript formats the build publishes beside the editor's SRT. Speakers are written in the SRT as "Name: " at
 * the start of a turn; in the JSON each segment carries its speaker (the turn's, carried forward), as apps expect.
 */
import type { LoadedEpisode } from '../content/load.ts';
import { TranscriptJsonSchema, type TranscriptJson, type TranscriptSegment } from '../../contract/schemas/transcript.ts';

const TURN = /^([\p{Lu}][\p{L}'’.-]*(?: [\p{Lu}][\p{L}'’.-]*){0,3}):\s+/u;

export function transcriptJson(episode: Pick<LoadedEpisode, 'cues'>): TranscriptJson {
  let speaker: string | undefined;
  const segments: TranscriptSegment[] = (episode.cues ?? []).map((cue) => {
    const text = cue.text.replace(/\s*\n\s*/g, ' ').trim();
    const turn = TURN.exec(text);
    if (turn) speaker = turn[1];
    return {
      ...(speaker ? { speaker } : {}),
      startTime: round(cue.start),
      endTime: round(cue.end),
      body: turn ? text.slice(turn[0].length) : text,
    };
  });
  return TranscriptJsonSchema.parse({ version: '1.0.0', segments });
}

const round = (s: number) => Math.round(s * 1000) / 1000;
