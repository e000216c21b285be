import { describe, expect, it } from 'vitest';
import { etagMatchesStrong, etagMatchesWeak, httpDate, preconditionStatus } from './conditional.ts';

const ETAG = '"abc-br"';
const MTIME = Date.UTC(2025, 0, 14, 12, 0, 0) / 1000;
const at = (headers: Record<string, string>, now = Date.UTC(2026, 0, 1)) => preconditionStatus(new Headers(headers), { etag: ETAG, mtimeSec: MTIME }, now);

describe('httpDate', () => {
  it('reads the three forms RFC 9110 §5.6.7 names, and nothing else', () => {
    const ms = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(httpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(ms);
    expect(httpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(ms);
    expect(httpDate('Sun Nov  6 08:49:37 1994')).toBe(ms);
    for (const bad of ['2100', '1994-11-06T08:49:37Z', 'Sun, 6 Nov 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 08:49:37 PST', '', 'yesterday']) {
      expect(httpDate(bad), bad).toBeUndefined();
    }
    expect(httpDate(null)).toBeUndefined();
  });
});

describe('entity-tag comparison', () => {
  it('weak for If-None-Match, strong for If-Match', () => {
    expect(etagMatchesWeak(`W/${ETAG}`, ETAG)).toBe(true);
    expect(etagMatchesWeak(`"x", ${ETAG}`, ETAG)).toBe(true);
    expect(etagMatchesWeak('"abc-gz"', ETAG)).toBe(false);
    expect(etagMatchesStrong(`W/${ETAG}`, ETAG)).toBe(false);
    expect(etagMatchesStrong(`"x" , ${ETAG}`, ETAG)).toBe(true);
    expect(etagMatchesStrong('*', ETAG)).toBe(true);
    expect(etagMatchesStrong(ETAG, `W/${ETAG}`)).toBe(false);
  });
});

describe('preconditionStatus (RFC 9110 §13.2.2 order)', () => {
  const lastModified = new Date(MTIME * 1000).toUTCString();
  it('304 for a current copy, 412 for another version, undefined otherwise', () => {
    expect(at({})).toBeUndefined();
    expect(at({ 'if-none-match': ETAG })).toBe(304);
    expect(at({ 'if-none-match': '"old"' })).toBeUndefined();
    expect(at({ 'if-modified-since': lastModified })).toBe(304);
    expect(at({ 'if-modified-since': 'Tue, 14 Jan 2025 11:59:59 GMT' })).toBeUndefined();
    expect(at({ 'if-match': '"old"' })).toBe(412);
    expect(at({ 'if-match': ETAG })).toBeUndefined();
    expect(at({ 'if-unmodified-since': 'Tue, 14 Jan 2025 11:59:59 GMT' })).toBe(412);
    expect(at({ 'if-unmodified-since': lastModified })).toBeUndefined();
  });
  it('If-Match decides before If-None-Match, and If-None-Match before If-Modified-Since', () => {
    expect(at({ 'if-match': '"old"', 'if-none-match': ETAG })).toBe(412);
    // If-Match present: If-Unmodified-Since is not evaluated.
    expect(at({ 'if-match': ETAG, 'if-unmodified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).toBeUndefined();
    expect(at({ 'if-none-match': '"old"', 'if-modified-since': lastModified })).toBeUndefined();
  });
  it('ignores dates that are not HTTP-dates, and an If-Modified-Since in the future', () => {
    expect(at({ 'if-modified-since': '2100' })).toBeUndefined();
    expect(at({ 'if-unmodified-since': '2001' })).toBeUndefined();
    expect(at({ 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' })).toBeUndefined();
    expect(at({ 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' }, Date.UTC(2100, 0, 2))).toBe(304);
  });
});
