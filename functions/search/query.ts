/**
 * Plain-text query parsing. Lunr's own parser throws QueryParseError on ordinary input (`3:30`, `x~`, `x^`, a
 * trailing `-`) and reads `field:`, `~2` and `^10` as operators nobody typed on purpose, so user text never
 * reaches it: this module reads the few operators we support and turns every other syntax character into a
 * word break. It never throws; the worst input gives an empty list of clauses.
 *
 * Supported (see syntax-doc.ts for the public description):
 *   +word    the episode must contain word          -word   the episode must not contain word
 *   word*    prefix match                           "a b"   quoted words are ordinary words (no phrase search)
 *   the last word also matches as a prefix while the query is being typed ("cryp" finds "cryptography").
 */
import type { Analyzer } from '../../contract/search/analyzer.ts';

export type Presence = 'optional' | 'required' | 'excluded';

export interface Clause {
  /** Lower-cased, trimmed word (not stemmed: Lunr's search pipeline stems it). */
  term: string;
  presence: Presence;
  /** Explicit `word*`: match every index term starting with the word. */
  prefix: boolean;
  /** The last word of the query: matched as typed and, with a lower weight, as a prefix. */
  autoPrefix: boolean;
  /** /ask's understood question: `term` is already an index term (no search pipeline), weighted by `boost`. */
  stemmed?: boolean;
  boost?: number;
}

export interface ParsedQuery {
  clauses: Clause[];
  /** True when words past MAX_TERMS were ignored. */
  truncated: boolean;
}

import { MAX_PREFIXES, MAX_QUERY_CHARS, MAX_TERMS, MIN_AUTO_PREFIX, MIN_PREFIX } from '../../contract/search/syntax.ts';

export { MAX_PREFIXES, MAX_QUERY_CHARS, MAX_TERMS, MIN_AUTO_PREFIX, MIN_PREFIX };

/**
 * Characters that Lunr's query language gives a meaning; here they only separate words. A colon between digits
 * does not: the index keeps "3:30" and "1:1:1" as one word (only whitespace and hyphens split words there), so the
 * query must too, or a time could never be found.
 */
const SYNTAX = /[~^*+\-"]|(?<!\d):|:(?!\d)/;
// Control characters (NUL included) and Unicode separators are word breaks too.
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/**
 * Compatibility forms folded (full-width "ＳＯＵＲＤＯＵＧＨ", ligatures) so they match the text as usually written;
 * control characters become spaces.
 */
function clean(input: string): { text: string; cut: boolean } {
  let text = String(input ?? '');
  const cut = text.length > MAX_QUERY_CHARS;
  if (cut) {
    // Up to the last whole word (a word cut in two would be searched as another word, or as a prefix).
    const space = text.slice(0, MAX_QUERY_CHARS + 1).search(/\s\S*$/);
    let end = space > 0 ? space : MAX_QUERY_CHARS;
    if (end === MAX_QUERY_CHARS && /[\udc00-\udfff]/.test(text[end] ?? '')) end--;
    text = text.slice(0, end);
  }
  return { text: text.normalize('NFKC').replace(BREAKS, ' '), cut };
}

interface RawWord {
  text: string;
  presence: Presence;
  prefix: boolean;
}

/** Parses a search query. Never throws. */
export function parseQuery(input: string, analyzer: Analyzer): ParsedQuery {
  const { text, cut } = clean(input);
  const raw = splitWords(text);
  const typingLastWord = raw.length > 0 && !cut && !/[\s"]$/.test(text);

  const clauses: Clause[] = [];
  let prefixes = 0;
  raw.forEach((w, i) => {
    const term = analyzer.normalize(w.text);
    if (!term) return;
    const isLast = i === raw.length - 1;
    const prefix = w.prefix && term.length >= MIN_PREFIX && prefixes < MAX_PREFIXES;
    if (prefix) prefixes++;
    const autoPrefix = isLast && typingLastWord && !prefix && w.presence !== 'excluded'
      && term.length >= MIN_AUTO_PREFIX && !analyzer.isStopWord(term);
    // Stop words are not in the index: as plain words they could never match, and as +word they would make
    // every query fail. An explicit prefix is kept ("the*" may mean "theory").
    if (!prefix && analyzer.isStopWord(term)) return;
    clauses.push({ term, presence: w.presence, prefix, autoPrefix });
  });

  // "-word" alone has nothing to subtract from; read as Lunr does, it would list every episode without the word.
  // A lone leading dash is far more often a pasted bullet or a typo, so the words count as ordinary words.
  if (clauses.length && clauses.every((c) => c.presence === 'excluded')) {
    for (const c of clauses) c.presence = 'optional';
  }

  const unique = dedupe(clauses);
  return { clauses: unique.slice(0, MAX_TERMS), truncated: cut || unique.length > MAX_TERMS };
}

/** Splits on whitespace, reading quotes and the leading/trailing operators of each whitespace-separated chunk. */
function splitWords(text: string): RawWord[] {
  const words: RawWord[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let presence: Presence = 'optional';
    // Leading operators: the first one counts; "+-x" is "+x".
    let j = i;
    while (j < text.length && (text[j] === '+' || text[j] === '-')) j++;
    if (j > i && j < text.length && !/\s/.test(text[j]!)) presence = text[i] === '+' ? 'required' : 'excluded';
    i = j;
    if (text[i] === '"') {
      // Quoted words: ordinary words (Lunr has no phrase search); the operator before the quote applies to each.
      const close = text.indexOf('"', i + 1);
      const inner = text.slice(i + 1, close < 0 ? text.length : close);
      for (const part of inner.split(/\s+/)) words.push(...subWords(part, presence, false));
      i = close < 0 ? text.length : close + 1;
      continue;
    }
    let end = i;
    while (end < text.length && !/\s/.test(text[end]!) && text[end] !== '"') end++;
    const chunk = text.slice(i, end);
    const prefix = /\*+$/.test(chunk);
    words.push(...subWords(chunk.replace(/\*+$/, ''), presence, prefix));
    i = end;
  }
  return words;
}

/** A chunk split at syntax characters ("title:bread" → "title", "bread"); only its last part keeps the prefix flag. */
function subWords(chunk: string, presence: Presence, prefix: boolean): RawWord[] {
  const parts = chunk.split(SYNTAX).filter((p) => p.length > 0);
  return parts.map((part, k) => ({ text: part, presence, prefix: prefix && k === parts.length - 1 }));
}

function dedupe(clauses: Clause[]): Clause[] {
  const seen = new Map<string, Clause>();
  for (const c of clauses) {
    const key = `${c.term}\u0000${c.prefix}`;
    const prev = seen.get(key);
    if (!prev) seen.set(key, c);
    else {
      // The strongest operator wins: excluded > required > optional.
      const rank = { optional: 0, required: 1, excluded: 2 } as const;
      if (rank[c.presence] > rank[prev.presence]) prev.presence = c.presence;
      prev.autoPrefix ||= c.autoPrefix;
    }
  }
  return [...seen.values()];
}

/** Words that make a question a question rather than a topic; dropped by the ask ranking (English shows). */
const QUESTION_FILLER_EN = new Set(
  ('which what whats who whom whose when where why how whats hows whos is are was were be been being am do does did ' +
    'done can could would should will shall may might must any anything something someone somebody anyone anybody ' +
    'everyone everybody everything nobody nothing ' +
    'episode episodes ep podcast podcasts show shows talk talks talked talking discuss discusses discussed discussing ' +
    'discussion mention mentions mentioned mentioning explain explains explained explaining explanation cover covers ' +
    'covered covering tell tells telling told me i you we us please find want wanted know there thing things part bit ' +
    'hear heard listen listening about say says said go goes going get gets got')
    .split(' '),
);

/**
 * A question reduced to its content words: no operators (every syntax character is a word break), no stop
 * words, and for English no question words or filler ("which episode talks about ...").
 */
export function contentWords(question: string, analyzer: Analyzer): ParsedQuery {
  const { text, cut } = clean(question);
  const parts = text.split(/\s+/).flatMap((chunk) => chunk.split(SYNTAX));
  const filler = analyzer.language === 'en' ? QUESTION_FILLER_EN : new Set<string>();
  const clauses: Clause[] = [];
  for (const part of parts) {
    const term = analyzer.normalize(part);
    if (!term || analyzer.isStopWord(term) || filler.has(term)) continue;
    clauses.push({ term, presence: 'optional', prefix: false, autoPrefix: false });
  }
  const unique = dedupe(clauses);
  return { clauses: unique.slice(0, MAX_TERMS), truncated: cut || unique.length > MAX_TERMS };
}
