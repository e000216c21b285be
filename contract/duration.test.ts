import { describe, expect, it } from 'vitest';
import { formatDuration, formatTimestamp, parseDuration } from './duration.ts';

describe('durations', () => {
  it.each([
    ['00:00', 0],
    ['12:41', 761],
    ['1:02:03', 3723],
    ['01:02:03', 3723],
    ['9:05', 545],
  ])('parses %s as %i seconds', (text, seconds) => expect(parseDuration(text)).toBe(seconds));

  it.each(['75:3', '1:60', '', 'abc', '10', '1:2:3:4', '-1:00'])('rejects %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('formats MM:SS under an hour and HH:MM:SS from an hour on', () => {
    expect(formatDuration(761)).toBe('12:41');
    expect(formatDuration(3723)).toBe('01:02:03');
    expect(formatTimestamp(75.9)).toBe('00:01:15');
  });
});
