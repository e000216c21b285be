/**
 * GET /oauth/authorize: the authorization endpoint (RFC 6749 §4.1 with PKCE, RFC 7636). Everything here is public,
 * so there is no login or consent screen: a valid request is approved at once and redirected with a code bound to
 * client_id, redirect_uri, code_challenge and scope, plus `state` and `iss` (RFC 9207).
 *
 * The redirect URI must be trusted first (redirects.ts: loopback, listed in the show's config, or registered at
 * POST /oauth/register, matched exactly; RFC 9700 §4.1.3). A bad response_type or client_id, or a redirect URI that
 * is not trusted, is answered here and never redirected: an HTML page for a browser, the 400 envelope for anything
 * else. Once the URI is trusted, other problems go back to it as error parameters (RFC 6749 §4.1.2.1).
 *
 * Registration is open to anyone, so a URI trusted only because someone registered it is not the show's word:
 * anyone could register a phishing page and mail out an authorize link on the show's address (RFC 9700 §4.11.2).
 * A browser navigating here on such a URI gets a page naming where it leads, with a link to follow, instead of an
 * automatic redirect; apps and agents fetching the endpoint themselves, loopback URIs and the URIs the show's
 * operator listed are still redirected at once.
 */
import { ApiError, apiErrorResponse, quoteInput } from '../errors.ts';
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

const authorize: Handler = async (request, ctx) => {
  const q = ctx.url.searchParams;
  const { issuer, ring } = await oauthContext(ctx);
  rejectRepeated(q);

  const responseType = q.get('response_type');
  if (!responseType) throw oauthError('invalid_request', 'response_type is missing.', 'Send response_type=code.');
  if (responseType !== 'code') {
    throw oauthError('unsupported_response_type', `response_type ${quoteInput(responseType)} is not supported.`, 'The only response_type is code (authorization code with PKCE S256).');
  }
  const clientId = q.get('client_id');
  if (clientId !== PUBLIC_CLIENT_ID) {
    throw oauthError('invalid_request', clientId ? `Unknown client_id ${quoteInput(clientId)}.` : 'client_id is missing.', `Send client_id=${PUBLIC_CLIENT_ID} (the single public client).`);
  }
  const redirectUri = q.get('redirect_uri');
  if (!redirectUri) throw oauthError('invalid_request', 'redirect_uri is missing.', REDIRECT_URI_RULE);
  const trust = await redirectTrust(redirectUri, ctx);
  if (!trust.trusted) throw oauthError('invalid_redirect_uri', `${trust.problem}: the service does not redirect to it.`, REDIRECT_URI_RULE);

  // From here on the redirect URI is trustworthy: errors travel back to the client.
  const state = q.get('state');
  const confirmFirst = trust.via === 'registration' && isBrowserNavigation(request);
  const show = confirmFirst ? (await ctx.data.service()).show.title : '';
  const back = (params: Record<string, string>) => {
    const target = new URL(redirectUri);
    for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
    if (state !== null) target.searchParams.set('state', state);
    target.searchParams.set('iss', issuer);
    if (confirmFirst) return confirmPage(target, show, `${issuer}/`, params.error_description);
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
  // Media types are case-insensitive (RFC 9110 §8.3.1).
  const accept = (request.headers.get('accept') ?? '').toLowerCase();
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

/** A person's browser opening the page: a top-level navigation (Fetch Metadata), or failing that, Accept. */
function isBrowserNavigation(request: Request): boolean {
  return request.headers.get('sec-fetch-mode') === 'navigate' || wantsHtml(request);
}

/**
 * The two pages' look: readable on any screen, and a long address wraps instead of widening the page, in the code
 * and wherever else the page names it (the heading, the links), down to 320 CSS px.
 */
const PAGE_HEAD = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="data:,">
<style>body{font:1.0625rem/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}h1,p,code{overflow-wrap:anywhere}</style>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The error, said to the person in the browser: nothing from the request is linked or redirected to. */
function errorPage(err: ApiError, authMd: string): Response {
  const envelope = apiErrorResponse(err);
  const body = `<!doctype html>
<html lang="en"><head>${PAGE_HEAD}<title>Authorization error</title></head>
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

/**
 * The hand-over to a redirect URI that only its registrant vouches for: where it leads, said plainly, and a link the
 * person follows or not. Nothing is sent anywhere until they do; "back" goes to the show, never to that URI.
 */
function confirmPage(target: URL, show: string, home: string, failure: string | undefined): Response {
  const where = target.host || `${target.protocol}${target.pathname}`;
  const shown = `${target.protocol}${target.host ? `//${target.host}` : ''}${target.pathname}`;
  const said = failure
    ? `<p>The request could not be completed: ${escapeHtml(failure)} The app that sent you here asks to be told at the address below.</p>`
    : `<p>An app asks for access to the public API of ${escapeHtml(show)}, and to take you on to the address below.</p>`;
  const body = `<!doctype html>
<html lang="en"><head>${PAGE_HEAD}<title>Continue to ${escapeHtml(where)}?</title></head>
<body><main><h1>Continue to ${escapeHtml(where)}?</h1>
${said}
<p><code>${escapeHtml(shown)}</code></p>
<p>That address was registered by the app itself; ${escapeHtml(show)} does not vouch for it. Continue only if you started this from that app.</p>
<p><a href="${escapeHtml(target.href)}" rel="noreferrer">Continue to ${escapeHtml(where)}</a></p>
<p><a href="${escapeHtml(home)}">Back to ${escapeHtml(show)}</a></p>
</main></body></html>
`;
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', ...NO_STORE } });
}
