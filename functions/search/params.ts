/**
 * Request parameters of /api/search and /ask, checked against the contract's bounds (contract/schemas/search.ts
 * LIMITS). Every failure is a 400 invalid_parameter whose hint names the field and its range.
 */
import { ApiError, quoteInput as quote } from '../errors.ts';
import { LIMITS } from '../../contract/schemas/search.ts';

export interface SearchParams {
  query: string;
  limit: number;
  offset: number;
}

export interface AskParams {
  query: string;
  limit: number;
}

const LIMIT_HINT = `limit must be an integer from ${LIMITS.limit.min} to ${LIMITS.limit.max} (default ${LIMITS.limit.default})`;
const OFFSET_HINT = `offset must be an integer from ${LIMITS.offset.min} to ${LIMITS.offset.max} (default ${LIMITS.offset.default})`;

/** GET /api/search?q=&limit=&offset= (base: the site URL, for hints; never the request's Host). */
export function readSearchParams(url: URL, base = ''): SearchParams {
  return {
    query: readQ(url, `${base}/api/search?q=sourdough`),
    limit: readInt(url.searchParams.get('limit'), 'limit', LIMITS.limit, LIMIT_HINT),
    offset: readInt(url.searchParams.get('offset'), 'offset', LIMITS.offset, OFFSET_HINT),
  };
}

/** GET /ask?q=&limit= */
export function readAskQuery(url: URL, base = ''): AskParams {
  return {
    query: readQ(url, `${base}/ask?q=which+episode+explains+sourdough+hydration`),
    limit: readInt(url.searchParams.get('limit'), 'limit', LIMITS.limit, LIMIT_HINT),
  };
}

const BODY_EXAMPLE = '{"query": "which episode explains sourdough hydration?", "limit": 5}';

/** POST /ask body: { "query": string, "limit"?: integer }. Other fields are ignored. */
export function readAskBody(body: unknown): AskParams {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_body', {
      message: `The request body must be a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`}.`,
      hint: `Send ${BODY_EXAMPLE}`,
    });
  }
  const { query, limit } = body as Record<string, unknown>;
  const queryHint = `query must be a string of at least ${LIMITS.queryMinLength} character, e.g. ${BODY_EXAMPLE}`;
  if (query === undefined) throw invalid('The body field query is required.', queryHint);
  if (typeof query !== 'string') throw invalid(`The body field query must be a string, got ${describe(query)}.`, queryHint);
  if (query.length < LIMITS.queryMinLength) throw invalid('The body field query must not be empty.', queryHint);
  let value: number = LIMITS.limit.default;
  if (limit !== undefined) {
    if (typeof limit !== 'number' || !Number.isInteger(limit)) {
      throw invalid(`The body field limit must be an integer, got ${describe(limit)}.`, LIMIT_HINT);
    }
    if (limit < LIMITS.limit.min || limit > LIMITS.limit.max) throw invalid(`The body field limit is out of range: ${limit}.`, LIMIT_HINT);
    value = limit;
  }
  return { query, limit: value };
}

function readQ(url: URL, example: string): string {
  const q = url.searchParams.get('q');
  const hint = `q must be a search text of at least ${LIMITS.queryMinLength} character, e.g. ${example}`;
  if (q === null) throw invalid('The query parameter q is required.', hint);
  if (q.length < LIMITS.queryMinLength) throw invalid('The query parameter q must not be empty.', hint);
  return q;
}

function readInt(raw: string | null, name: string, bounds: { min: number; max: number; default: number }, hint: string): number {
  if (raw === null) return bounds.default;
  if (!/^\d+$/.test(raw)) throw invalid(`The query parameter ${name} must be an integer, got ${quote(raw)}.`, hint);
  const value = Number(raw);
  if (value < bounds.min || value > bounds.max) throw invalid(`The query parameter ${name} is out of range: ${quote(raw)}.`, hint);
  return value;
}

function invalid(message: string, hint: string): ApiError {
  return new ApiError('invalid_parameter', { message, hint });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  if (typeof value === 'number') return String(value);
  return `a ${typeof value}`;
}
