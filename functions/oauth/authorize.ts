/**
 * GET /oauth/authorize: the authorization endpoint (RFC 6749 §4.1 with PKCE, RFC 7636). Everything here is public,
 * so there is no login or consent screen: a valid request is approved at once and redirected with a code bound to
 * client_id, redirect_uri, code_challenge and scope, plus `state` and `iss` (RFC 9207).
 *
 * The redirect URI must be trusted first (redirects.ts: loopback, listed in the show's config, or registered at
 * POST /oauth/register, matched exactly; RFC 9700 §4.1.3). A bad response_type or client_id, or a redirect URI that
 * is not trusted, is answered here and never redirected: an HTML page for a browser, the 400 envelope for anything
 * else. Once the URI is trusted, other problems go back to it as error parameters (RFC 6749 §4.1.2.1).
 */
import { ApiError, apiErrorResponse } from '../errors.ts';
import type { Handler } from '../types.ts';
import { NO_STORE, oauthContext } from './context.ts';
import { OAUTH_PATHS, PUBLIC_CLIENT_ID } from '../../contract/oauth.ts';
import { PKCE_PATTERN, REDIRECT_URI_RULE, oauthError, parseResources, parseScope, rejectRepeated } from './params.ts';
import { redirectTrust } from './redirects.ts';
import { issuerOf } from './issuer.ts';
import { mintCode } from './tokens.ts';

export const getAuthorize: Handler = async (request, ctx) => {
  try {
    return await authorize(request, ctx);
  } catch (err) {
    if (!(err instanceof ApiError) || !wantsHtml(request)) throw err;
    return errorPage(err, `${await issuerOf(ctx)}${OAUTH_PATHS.authMd}`);
  }
};

const authorize: Handler = async (_request, ctx) => {
  const q = ctx.url.searchParams;
  const { issuer, ring } = await oauthContext(ctx);
  rejectRepeated(q);

  const responseType = q.get('response_type');
  if (!responseType) throw oauthError('invalid_request', 'response_type is missing.', 'Send response_type=code.');
  if (responseType !== 'code') {
    throw oauthError('unsupported_response_type', `response_type "${responseType}" is not supported.`, 'The only response_type is code (authorization code with PKCE S256).');
  }
  const clientId = q.get('client_id');
  if (clientId !== PUBLIC_CLIENT_ID) {
    throw oauthError('invalid_request', clientId ? `Unknown client_id "${clientId}".` : 'client_id is missing.', `Send client_id=${PUBLIC_CLIENT_ID} (the single public client).`);
  }
  const redirectUri = q.get('redirect_uri');
  if (!redirectUri) throw oauthError('invalid_request', 'redirect_uri is missing.', REDIRECT_URI_RULE);
  const trust = await redirectTrust(redirectUri, ctx);
  if (!trust.trusted) throw oauthError('invalid_redirect_uri', `${trust.problem}: the service does not redirect to it.`, REDIRECT_URI_RULE);

  // From here on the redirect URI is trustworthy: errors travel back to the client.
  const state = q.get('state');
  const back = (params: Record<string, string>) => {
    const target = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    if (state !== null) target.searchParams.set('state', state);
    target.searchParams.set('iss', issuer);
    return new Response(null, { status: 302, headers: { Location: target.href, ...NO_STORE } });
  };
  const fail = (error: string, description: string) => back({ error, error_description: description });

  const challenge = q.get('code_challenge');
  const method = q.get('code_challenge_method');
  if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE with S256).');
  if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256.');
  if (!PKCE_PATTERN.test(challenge) || challenge.length !== 43) {
    return fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters).');
  }
  let scope: string;
  let resources: string[];
  try {
    scope = parseScope(q.get('scope'));
    resources = parseResources(q.getAll('resource'), issuer);
  } catch (err) {
    if (err instanceof ApiError) return fail(err.code, err.message);
    throw err;
  }
  const subject = `anonymous-${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const code = await mintCode(ring, issuer, {
    sub: subject,
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    scope,
    ...(resources.length ? { resources } : {}),
  });
  return back({ code });
};

/** A browser navigating here (Accept names text/html before JSON) gets a page, not a JSON download. */
function wantsHtml(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The error, said to the person in the browser: nothing from the request is linked or redirected to. */
function errorPage(err: ApiError, authMd: string): Response {
  const envelope = apiErrorResponse(err);
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Authorization error</title></head>
<body><main><h1>This authorization request cannot continue</h1>
<p>${escapeHtml(err.message)}</p>
${err.hint ? `<p>${escapeHtml(err.hint)}</p>` : ''}<p>Error code: <code>${escapeHtml(err.code)}</code>. The application that sent you here needs fixing; see <a href="${escapeHtml(authMd)}">how agents and apps authenticate</a>.</p>
</main></body></html>
`;
  const headers = new Headers(envelope.headers);
  headers.set('Content-Type', 'text/html; charset=utf-8');
  void envelope.body?.cancel();
  return new Response(body, { status: err.status, headers });
}
