/**
 * The contract's error envelope. Every error any endpoint answers is built here from the codes in
 * contract/errors.ts, so code strings cannot drift between handlers.
 */
import { ERROR_CODES, type ErrorCode } from '../contract/errors.ts';

export { ERROR_CODES, type ErrorCode };

/** Echoes client input in a message, shortened and quoted, so a message never carries a megabyte or raw markup. */
export function quoteInput(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

/** Several inputs echoed (quoteInput), the first few named and the rest counted. */
export function quoteInputs(raw: readonly string[], shown = 5): string {
  const named = raw.slice(0, shown).map(quoteInput).join(', ');
  return raw.length > shown ? `${named} and ${raw.length - shown} more` : named;
}

export interface ErrorDetails {
  message?: string;
  hint?: string;
  docs_url?: string;
  headers?: HeadersInit;
  /** Overrides the code's default status (OAuth errors share codes across statuses). */
  status?: number;
}

/** A typed error a handler can throw; the pipeline turns it into the envelope. */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly hint?: string;
  readonly docsUrl?: string;
  readonly headers?: HeadersInit;
  constructor(code: ErrorCode | (string & {}), details: ErrorDetails = {}) {
    const known = (ERROR_CODES as Record<string, { status: number; message: string }>)[code];
    super(details.message ?? known?.message ?? code);
    this.code = code;
    this.status = details.status ?? known?.status ?? 400;
    this.hint = details.hint;
    this.docsUrl = details.docs_url;
    this.headers = details.headers;
  }
}

export function errorResponse(code: ErrorCode | (string & {}), details: ErrorDetails = {}): Response {
  return apiErrorResponse(new ApiError(code, details));
}

export function apiErrorResponse(err: ApiError): Response {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.hint) error.hint = err.hint;
  if (err.docsUrl) error.docs_url = err.docsUrl;
  const headers = new Headers(err.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify({ error }), { status: err.status, headers });
}

/** JSON response helper used by every handler. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { ...init, headers });
}
