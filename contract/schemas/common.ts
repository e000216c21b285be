import { z } from 'zod';

/** "MM:SS" or "HH:MM:SS" (minutes and seconds 00–59; hours any number of digits). */
export const DURATION_PATTERN = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)$/;

/** "MM:SS" or "HH:MM:SS" → seconds; undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION_PATTERN.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * The longest duration taken (1,000 hours, past any real episode): beyond it a typo or a feed's garbage, and far
 * beyond it seconds no longer count exactly (2^53).
 */
export const MAX_DURATION_SECONDS = 1000 * 3600;

/** Whether a duration text is within MAX_DURATION_SECONDS (one that is no duration is left to the pattern's check). */
export const withinMaxDuration = (value: string) => (parseDuration(value) ?? 0) <= MAX_DURATION_SECONDS;

export const DurationString = z
  .string()
  .regex(DURATION_PATTERN, { message: 'must be MM:SS or HH:MM:SS' })
  .refine(
    // zod checks on after a failed pattern: that failure is the one to report.
    withinMaxDuration,
    { message: `must be at most ${MAX_DURATION_SECONDS / 3600} hours` },
  );

/** A calendar date "YYYY-MM-DD" that exists (2025-02-30 is rejected). */
export const DateString = z.string().refine(
  (value) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match) return false;
    const d = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
  },
  // "2025-02-30" is in the format and still wrong: the message says both.
  { message: 'must be a real date written YYYY-MM-DD' },
);

export const HttpUrl = z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' });
