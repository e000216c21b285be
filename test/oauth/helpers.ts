/**
 * Shared by the OAuth tests: a real server, and oauth4webapi pointed at it. The metadata documents carry the
 * site URL the sample was built with (its issuer), while the test server listens on 127.0.0.1 and a free port,
 * so oauth4webapi's fetches are rewritten from the issuer to the server; everything else is the library as is.
 */
import * as oauth from 'oauth4webapi';
import { expect } from 'vitest';
import { ErrorEnvelopeSchema } from '../../contract/schemas/error.ts';
import type { RunningServer } from '../helpers/server.ts';

export const SCOPE = 'read:episodes read:transcripts search:episodes';
/** A generous rate limit: these suites send many requests from one address. */
export const RATE_ENV = { RATE_LIMIT_MAX: '100000' };

export interface OAuthClient {
  issuer: string;
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  options: { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: true };
  /** Rewrites an issuer URL to the test server. */
  local(url: string): string;
}

export async function oauthClient(server: RunningServer): Promise<OAuthClient> {
  const probe = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
  const { issuer } = (await probe.json()) as { issuer: string };
  const local = (url: string) => (url.startsWith(issuer) ? `${server.url}${url.slice(issuer.length)}` : url);
  const customFetch: typeof fetch = (input, init) => fetch(local(input instanceof Request ? input.url : String(input)), init);
  const options = { [oauth.customFetch]: customFetch, [oauth.allowInsecureRequests]: true as const };
  const response = await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oauth2', ...options });
  const as = await oauth.processDiscoveryResponse(new URL(issuer), response);
  return { issuer, as, client: { client_id: 'public', token_endpoint_auth_method: 'none' }, auth: oauth.None(), options, local };
}

/** Runs the authorization endpoint like a user agent would, and returns the redirect it answered. */
export async function authorize(c: OAuthClient, params: Record<string, string>): Promise<Response> {
  const url = new URL(c.as.authorization_endpoint!);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return fetch(c.local(url.href), { redirect: 'manual' });
}

/** A complete PKCE authorization: verifier, redirect, validated callback parameters. */
export async function pkceAuthorization(c: OAuthClient, redirectUri = 'http://127.0.0.1:8765/callback', scope = SCOPE) {
  const verifier = oauth.generateRandomCodeVerifier();
  const challenge = await oauth.calculatePKCECodeChallenge(verifier);
  const state = oauth.generateRandomState();
  const res = await authorize(c, {
    response_type: 'code',
    client_id: 'public',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope,
    state,
  });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  const params = oauth.validateAuthResponse(c.as, c.client, location, state);
  return { verifier, params, redirectUri, location };
}

/**
 * The service answers OAuth errors in the contract's envelope ({error: {code, message, hint}}), which oauth4webapi
 * reports as a non-conform response carrying the Response: this reads the status and code back from it.
 */
export async function oauthFailure(promise: Promise<unknown>): Promise<{ status: number; code: string; hint?: string; headers: Headers }> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(caught, 'expected the OAuth call to fail').toBeDefined();
  const response = (caught as { cause?: unknown }).cause;
  expect(response, String(caught)).toBeInstanceOf(Response);
  return envelope(response as Response);
}

export async function envelope(res: Response): Promise<{ status: number; code: string; hint?: string; headers: Headers }> {
  const body = ErrorEnvelopeSchema.parse(await res.clone().json());
  return { status: res.status, code: body.error.code, hint: body.error.hint, headers: res.headers };
}

export function form(body: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) };
}
