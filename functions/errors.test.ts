import { describe, expect, it } from 'vitest';
import { quoteInput, quoteInputs } from './errors.ts';

describe('quoteInput', () => {
  it('quotes input as JSON and cuts it at 40 characters', () => {
    expect(quoteInput('code')).toBe('"code"');
    expect(quoteInput('<b>"x"</b>')).toBe('"<b>\\"x\\"</b>"');
    expect(quoteInput('y'.repeat(60_000))).toBe(`"${'y'.repeat(40)}…"`);
  });

  it('names the first few of a list and counts the rest', () => {
    expect(quoteInputs(['a', 'b'])).toBe('"a", "b"');
    expect(quoteInputs(['a', 'b', 'c', 'd'], 2)).toBe('"a", "b" and 2 more');
  });
});
