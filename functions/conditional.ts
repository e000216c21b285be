/**
 * Conditional GET and HEAD (RFC 9110 §13): the preconditions a client sends, evaluated in the order §13.2.2 fixes,
 * against the representation the request selects (the negotiated encoding's ETag, never a sibling's: a 304 names the
 * ETag of what the client would have been sent, which is what a cache updates, RFC 9111 §4.3.4).
 */

export interface Validators {
  /** The selected representation's strong ETag, quoted. */
  etag: string;
  /** Its last modification, in whole seconds since the epoch (HTTP dates have no finer resolution). */
  mtimeSec?: number;
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** IMF-fixdate, then the two obsolete forms a recipient must still accept (RFC 9110 §5.6.7). */
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, \\d{2} ${MONTH} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT` +
    `|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${MONTH}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT` +
    `|${DAY} ${MONTH} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4})$`,
);

/** An HTTP-date in ms since the epoch; undefined for anything else ("2100", an ISO date), which must be ignored. */
export function httpDate(value: string | null): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (!HTTP_DATE.test(text)) return undefined;
  const ms = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The entity tags of an If-Match / If-None-Match list; '*' for the wildcard. */
function tags(header: string): string[] | '*' {
  if (header.trim() === '*') return '*';
  return header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** If-None-Match: weak comparison, W/ ignored on both sides (§13.1.2). */
export function etagMatchesWeak(header: string, etag: string): boolean {
  const list = tags(header);
  if (list === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return list.some((t) => t.replace(/^W\//, '') === opaque);
}

/** If-Match: strong comparison, a weak tag on either side never matches (§13.1.1). */
export function etagMatchesStrong(header: string, etag: string): boolean {
  const list = tags(header);
  if (list === '*') return true;
  return !etag.startsWith('W/') && list.includes(etag);
}

/**
 * The status a GET or HEAD's preconditions call for: 412 (If-Match, else If-Unmodified-Since, fails), 304
 * (If-None-Match, else If-Modified-Since, says the client's copy is current), or undefined to answer in full.
 * A date that is not an HTTP-date is ignored, and so is an If-Modified-Since later than `now` (a client's wrong clock
 * must not freeze its copy: RFC 7232 §3.3).
 */
export function preconditionStatus(headers: Headers, current: Validators, now = Date.now()): 304 | 412 | undefined {
  const modified = current.mtimeSec === undefined ? undefined : current.mtimeSec * 1000;
  const ifMatch = headers.get('if-match');
  if (ifMatch !== null) {
    if (!etagMatchesStrong(ifMatch, current.etag)) return 412;
  } else {
    const since = httpDate(headers.get('if-unmodified-since'));
    if (since !== undefined && modified !== undefined && modified > since) return 412;
  }
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) return etagMatchesWeak(ifNoneMatch, current.etag) ? 304 : undefined;
  const since = httpDate(headers.get('if-modified-since'));
  if (since !== undefined && since <= now && modified !== undefined && modified <= since) return 304;
  return undefined;
}
