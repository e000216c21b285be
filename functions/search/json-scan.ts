/**
 * Where the values of a JSON text are, without parsing them: a value's extent is found by matching its brackets
 * (strings skipped whole), so a large document can be parsed a piece at a time, when a piece is needed. Used for the
 * top of the search index (top-index.ts), whose ~150,000 small posting objects at N = 1,000 took JSON.parse ~200 ms
 * of a process's first answer, when a query reads the postings of a few terms.
 *
 * Only the extents are checked; each piece is still parsed by JSON.parse, which rejects anything malformed in it.
 */

export class JsonScanError extends Error {
  readonly code = 'invalid_json';
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(text: string, at: number): number {
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The index just past the string that opens at `at` (a quote). */
function skipString(text: string, at: number): number {
  for (let i = at + 1; ; ) {
    const q = text.indexOf('"', i);
    if (q < 0) throw new JsonScanError(`unterminated string at ${at}`);
    // A quote is escaped when an odd number of backslashes precede it.
    let b = q - 1;
    while (b > at && text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** The index just past the value that starts at `at` (no leading space). */
export function skipValue(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === QUOTE) return skipString(text, at);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    // A number or a literal: up to the next delimiter.
    let i = at;
    while (i < text.length) {
      const d = text.charCodeAt(i);
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
      i++;
    }
    if (i === at) throw new JsonScanError(`no value at ${at}`);
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === QUOTE) i = skipString(text, i) - 1;
    else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  throw new JsonScanError(`unterminated value at ${at}`);
}

/** The decoded string that opens at `at`, and the index past it. */
function readString(text: string, at: number): [string, number] {
  if (text.charCodeAt(at) !== QUOTE) throw new JsonScanError(`expected a string at ${at}`);
  const end = skipString(text, at);
  const raw = text.slice(at + 1, end - 1);
  return [raw.includes('\\') ? (JSON.parse(text.slice(at, end)) as string) : raw, end];
}

/**
 * Walks the object that opens at `at`, member by member, and returns the index past it. `read` may consume a
 * member's value itself and return the index past it (undefined: the value is skipped); `each` then gets the
 * value's extent [from, to).
 */
export function scanObject(
  text: string,
  at: number,
  read: (key: string, from: number) => number | undefined,
  each: (key: string, from: number, to: number) => void = () => {},
): number {
  at = skipSpace(text, at);
  if (text.charCodeAt(at) !== OPEN_BRACE) throw new JsonScanError(`expected an object at ${at}`);
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === CLOSE_BRACE) return at + 1;
  for (;;) {
    const [key, afterKey] = readString(text, at);
    at = skipSpace(text, afterKey);
    if (text.charCodeAt(at) !== COLON) throw new JsonScanError(`expected ":" at ${at}`);
    const from = skipSpace(text, at + 1);
    const to = read(key, from) ?? skipValue(text, from);
    each(key, from, to);
    at = skipSpace(text, to);
    const d = text.charCodeAt(at);
    if (d === CLOSE_BRACE) return at + 1;
    if (d !== COMMA) throw new JsonScanError(`expected "," or "}" at ${at}`);
    at = skipSpace(text, at + 1);
  }
}

/**
 * Walks the array that opens at `at`, element by element, and returns the index past it. `read` gets where each
 * element starts and may consume it, returning the index past it (undefined: the element is skipped).
 */
export function scanArray(text: string, at: number, read: (from: number) => number | undefined): number {
  at = skipSpace(text, at);
  if (text.charCodeAt(at) !== OPEN_BRACKET) throw new JsonScanError(`expected an array at ${at}`);
  at = skipSpace(text, at + 1);
  if (text.charCodeAt(at) === CLOSE_BRACKET) return at + 1;
  for (;;) {
    const to = read(at) ?? skipValue(text, at);
    at = skipSpace(text, to);
    const d = text.charCodeAt(at);
    if (d === CLOSE_BRACKET) return at + 1;
    if (d !== COMMA) throw new JsonScanError(`expected "," or "]" at ${at}`);
    at = skipSpace(text, at + 1);
  }
}

/** The pair `[key, value]` that opens at `at`: the key decoded, the value's extent [from, to), and the index past the pair. */
export function readPair(text: string, at: number): [string, number, number, number] {
  if (text.charCodeAt(at) !== OPEN_BRACKET) throw new JsonScanError(`expected a pair at ${at}`);
  const [key, afterKey] = readString(text, skipSpace(text, at + 1));
  let i = skipSpace(text, afterKey);
  if (text.charCodeAt(i) !== COMMA) throw new JsonScanError(`expected "," at ${i}`);
  const from = skipSpace(text, i + 1);
  const to = skipValue(text, from);
  i = skipSpace(text, to);
  if (text.charCodeAt(i) !== CLOSE_BRACKET) throw new JsonScanError(`expected "]" at ${i}`);
  return [key, from, to, i + 1];
}
