import { z } from 'zod';

/**
 * A transcript in the Podcasting 2.0 JSON format (podcast namespace, `podcast:transcript type="application/json"`):
 * what apps read, and what get_transcript reads, so nothing on the request path parses SRT.
 */
export const TranscriptSegmentSchema = z.object({
  speaker: z.string().optional(),
  /** Seconds from the start of the episode. */
  startTime: z.number().nonnegative(),
  endTime: z.number().nonnegative(),
  body: z.string(),
});
export type TranscriptSegment = z.infer<typeof TranscriptSegmentSchema>;

export const TranscriptJsonSchema = z.object({
  version: z.literal('1.0.0'),
  segments: z.array(TranscriptSegmentSchema),
});
export type TranscriptJson = z.infer<typeof TranscriptJsonSchema>;

/** /transcripts/<name>.srt → /transcripts/<name>.json: the same transcript, in the JSON format. */
export function transcriptJsonFile(srtFile: string): string {
  return `${srtFile.replace(/\.(srt|vtt)$/i, '')}.json`;
}
