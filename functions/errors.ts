/**
 * The contract's error envelope and the service's stable error codes. Every error any endpoint answers is built
 * here, so code strings cannot drift between handlers. The list is published in docs.md.
 */
export const ERROR_CODES = {
  invalid_parameter: { status: 400, message: 'A parameter is missing or invalid.' },
  invalid_body: { status: 400, message: 'The request body is not valid.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_path: { status: 400, message: 'The request path is not valid.' },
  unauthorized: { status: 401, message: 'Authentication is required for this resource.' },
  invalid_token: { status: 401, message: 'The bearer token is invalid or expired.' },
  forbidden: { status: 403, message: 'This request is not allowed.' },
  not_found: { status: 404, message: 'Nothing exists at this address.' },
  method_not_allowed: { status: 405, message: 'This HTTP method is not supported on this endpoint.' },
  not_acceptable: { status: 406, message: 'None of the accepted media types can be produced.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body has an unsupported content type.' },
  range_not_satisfiable: { status: 416, message: 'The requested range is not satisfiable.' },
  rate_limited: { status: 429, message: 'Too many requests: the rate limit for this window is used up.' },
  request_timeout: { status: 408, message: 'The request body was not received in time.' },
  internal_error: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  unavailable: { status: 503, message: 'The service is temporarily unavailable.' },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

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
