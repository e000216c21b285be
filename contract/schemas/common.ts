import { z } from 'zod';

/** "MM:SS" or "HH:MM:SS" (minutes and seconds 00–59; hours any number of digits). */
export const DURATION_PATTERN = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)$/;

export const DurationString = z
  .string()
  .regex(DURATION_PATTERN, { message: 'must be MM:SS or HH:MM:SS' });

/** A calendar date "YYYY-MM-DD" that exists (2025-02-30 is rejected). */
export const DateString = z.string().refine(
  (value) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match) return false;
    const d = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(value);
  },
  { message: 'must be a date YYYY-MM-DD' },
);

export const HttpUrl = z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' });
