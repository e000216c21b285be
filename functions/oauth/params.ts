/** Parsing and checking of OAuth request parameters: scopes, redirect URIs, resources, PKCE values. */
import { base64url } from 'jose';
import { ApiError, quoteInput, quoteInputs } from '../errors.ts';
import { SCOPES } from '../../contract/oauth.ts';

/** An OAuth-tier error in the contract's envelope (code = the RFC 6749 error string). */
export function oauthError(code: string, message: string, hint?: string, status = 400, headers?: HeadersInit): ApiError {
  return new ApiError(code, { message, hint, status, headers });
}

/**
 * A request body read for an OAuth endpoint: a malformed one (wrong content type, bad JSON, bad UTF-8) is the
 * contract's 400 invalid_request; 413 and 408 keep their statuses.
 */
export async function oauthBody<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) throw oauthError('invalid_request', err.message, err.hint);
    throw err;
  }
}

/** RFC 6749 §3.1: parameters must not repeat (RFC 8707's resource may). */
export function rejectRepeated(params: URLSearchParams, allowed: string[] = ['resource']): void {
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (seen.has(key) && !allowed.includes(key)) throw oauthError('invalid_request', `The parameter ${quoteInput(key)} is repeated.`, 'Send each parameter once.');
    seen.add(key);
  }
}

/** A space-separated scope list; absent or empty means all three. Unknown scopes or ones beyond `within` fail. */
export function parseScope(value: string | null | undefined, within: readonly string[] = SCOPES): string {
  const requested = (value ?? '').split(/\s+/).filter(Boolean);
  if (!requested.length) return within.join(' ');
  const unknown = requested.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) {
    throw oauthError('invalid_scope', `Unknown scope: ${quoteInputs(unknown)}.`, `scope is a space-separated subset of: ${SCOPES.join(' ')} (default: all three)`);
  }
  const beyond = requested.filter((s) => !within.includes(s));
  if (beyond.length) {
    throw oauthError('invalid_scope', `Scope beyond the original grant: ${quoteInputs(beyond)}.`, `Request a subset of: ${within.join(' ')}`);
  }
  return SCOPES.filter((s) => requested.includes(s)).join(' ');
}

const DENIED_SCHEMES = new Set([
  'javascript', 'data', 'file', 'vbscript', 'blob', 'about', 'filesystem', 'ftp', 'ws', 'wss',
  'mailto', 'tel', 'sms', 'urn', 'view-source', 'jar',
]);
const LOOPBACK = /^(127(?:\.\d{1,3}){3}|\[::1\]|localhost)$/i;

/**
 * A redirect URI an authorization response may go to (RFC 6749 §3.1.2, RFC 8252 §7): https; http only to a
 * loopback host; or an app's private-use scheme (reverse domain, e.g. com.example.app:/cb). No fragment.
 * Returns the problem, or undefined when the URI is acceptable.
 */
export function redirectUriProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value) return 'must be a non-empty string';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.hash || value.includes('#')) return 'must not contain a fragment (#)';
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === 'https') return url.hostname ? undefined : 'https URIs need a host';
  if (scheme === 'http') return LOOPBACK.test(url.hostname) ? undefined : 'http is allowed only for loopback hosts (127.0.0.1, [::1], localhost); use https';
  if (DENIED_SCHEMES.has(scheme)) return `the scheme "${scheme}:" is not allowed`;
  // Private-use schemes (RFC 8252 §7.1): any other syntactically valid scheme an app registered.
  return /^[a-z][a-z0-9+.-]*$/.test(scheme) ? undefined : 'has an invalid scheme';
}

/** What POST /oauth/register accepts in redirect_uris. */
export const REGISTRATION_URI_RULE = 'redirect_uris must be https, http on a loopback host (127.0.0.1, [::1], localhost) or a private-use scheme such as com.example.app:/callback, without a fragment';

/** What /oauth/authorize redirects to. */
export const REDIRECT_URI_RULE = 'redirect_uri must be http(s) on a loopback host (127.0.0.1, [::1], localhost; any port), or an https URI or private-use scheme (com.example.app:/callback) registered first at POST /oauth/register and sent exactly as registered; never with a fragment';

/** RFC 8707 resource indicators: this service (its base URL or an address under it) is the only resource. */
export function parseResources(values: string[], issuer: string): string[] {
  for (const r of values) {
    // RFC 8707 §2: a resource "MUST NOT include a fragment component".
    if (r.includes('#')) throw oauthError('invalid_target', `The resource ${quoteInput(r)} has a fragment.`, `resource must be ${issuer} or an address under it, without #fragment`);
    if (r !== issuer && r !== `${issuer}/` && !r.startsWith(`${issuer}/`)) {
      throw oauthError('invalid_target', `The resource ${quoteInput(r)} is not served here.`, `resource must be ${issuer} or an address under it (e.g. ${issuer}/mcp)`);
    }
  }
  return values.map((r) => (r === `${issuer}/` ? issuer : r));
}

/** RFC 7636 §4.1: 43–128 characters of [A-Z a-z 0-9 - . _ ~]. The same shape holds for an S256 challenge. */
export const PKCE_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

export async function s256(verifier: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** Compares two strings in time independent of where they differ. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
