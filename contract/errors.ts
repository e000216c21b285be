/**
 * The service's stable error codes with their HTTP status and default message: the contract's envelope
 * (`{ error: { code, message, hint?, docs_url? } }`) carries one of these codes. Handlers build envelopes from it
 * (functions/errors.ts), the build lists it in docs.md, tests assert against it.
 */
export const ERROR_CODES = {
  invalid_parameter: { status: 400, message: 'A parameter is missing or invalid.' },
  invalid_body: { status: 400, message: 'The request body is not valid.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_path: { status: 400, message: 'The request path is not valid.' },
  invalid_request: { status: 400, message: 'The request is malformed.' },
  unauthorized: { status: 401, message: 'Authentication is required for this resource.' },
  invalid_token: { status: 401, message: 'The bearer token is invalid or expired.' },
  forbidden: { status: 403, message: 'This request is not allowed.' },
  not_found: { status: 404, message: 'Nothing exists at this address.' },
  method_not_allowed: { status: 405, message: 'This HTTP method is not supported on this endpoint.' },
  not_acceptable: { status: 406, message: 'None of the accepted media types can be produced.' },
  precondition_failed: { status: 412, message: 'The resource has changed since the version the request names.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'The request body has an unsupported content type.' },
  uri_too_long: { status: 414, message: 'The request URL is too long.' },
  range_not_satisfiable: { status: 416, message: 'The requested range is not satisfiable.' },
  rate_limited: { status: 429, message: 'Too many requests: the rate limit for this window is used up.' },
  request_timeout: { status: 408, message: 'The request body was not received in time.' },
  internal_error: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  not_implemented: { status: 501, message: 'This HTTP method is not implemented by the service.' },
  unavailable: { status: 503, message: 'The service is temporarily unavailable.' },
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;
