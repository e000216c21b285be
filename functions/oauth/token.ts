/**
 * POST /oauth/token (RFC 6749 §3.2): authorization_code with PKCE S256, client_credentials, jwt-bearer (RFC 7523)
 * with an identity assertion from /oauth/claim, and refresh_token. Every answer carries Cache-Control: no-store
 * (error envelopes always do).
 */
import { readForm } from '../body.ts';
import { json, quoteInput } from '../errors.ts';
import type { Handler, RequestContext } from '../types.ts';
import { NO_STORE, oauthContext, type OAuthContext } from './context.ts';
import { ACCESS_TOKEN_TTL, GRANT_JWT_BEARER, GRANT_TYPES, PUBLIC_CLIENT_ID } from '../../contract/oauth.ts';
import { PKCE_PATTERN, oauthError, parseResources, parseScope, rejectRepeated, s256, safeEqual, oauthBody } from './params.ts';
import { redeemCode, revokeGrant, revokedProblem, useRefreshToken } from './revocation.ts';
import { TokenError, mintToken, openCode, verifyToken } from './tokens.ts';

interface Grant {
  sub: string;
  scope: string;
  clientId: string;
  resources: string[];
  refresh: boolean;
  /** The refresh token's scope when it differs from the access token's: a refresh that narrows the scope keeps the grant's (RFC 6749 §6). */
  refreshScope?: string;
  extra?: Record<string, unknown>;
}

/** The grant family of tokens minted from one authorization code (see revocation.ts). */
const withGid = (extra: Record<string, unknown> | undefined, gid: string | undefined) => (gid ? { ...extra, gid } : extra);

export const postToken: Handler = async (request, ctx) => {
  const form = await oauthBody(readForm(request));
  rejectRepeated(form);
  const oauth = await oauthContext(ctx);
  const grantType = form.get('grant_type');
  if (!grantType) throw oauthError('invalid_request', 'grant_type is missing.', `grant_type is one of: ${GRANT_TYPES.join(', ')}`);
  const clientId = clientIdOf(request, form);
  let grant: Grant;
  switch (grantType) {
    case 'authorization_code':
      grant = await authorizationCode(form, oauth, clientId, ctx);
      break;
    case 'client_credentials':
      grant = { sub: clientId ?? PUBLIC_CLIENT_ID, scope: parseScope(form.get('scope')), clientId: clientId ?? PUBLIC_CLIENT_ID, resources: parseResources(form.getAll('resource'), oauth.issuer), refresh: false };
      break;
    case GRANT_JWT_BEARER:
      grant = await jwtBearer(form, oauth, clientId, ctx);
      break;
    case 'refresh_token':
      grant = await refreshToken(form, oauth, clientId, ctx);
      break;
    default:
      throw oauthError('unsupported_grant_type', `grant_type ${quoteInput(grantType)} is not supported.`, `grant_type is one of: ${GRANT_TYPES.join(', ')}`);
  }
  const base = { issuer: oauth.issuer, sub: grant.sub, scope: grant.scope, clientId: grant.clientId, resources: grant.resources, extra: grant.extra };
  const access = await mintToken(oauth.ring, 'access', base);
  const refresh = grant.refresh ? await mintToken(oauth.ring, 'refresh', { ...base, scope: grant.refreshScope ?? grant.scope }) : undefined;
  return json(
    {
      access_token: access.token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL,
      scope: grant.scope,
      ...(refresh ? { refresh_token: refresh.token } : {}),
    },
    { headers: NO_STORE },
  );
};

/** client_id from the form, or from HTTP Basic (some libraries send public: with an empty secret). */
function clientIdOf(request: Request, form: URLSearchParams): string | undefined {
  const fromForm = form.get('client_id') ?? undefined;
  const auth = request.headers.get('authorization');
  if (auth && /^basic\s/i.test(auth)) {
    let user: string;
    try {
      user = decodeURIComponent(atob(auth.replace(/^basic\s+/i, '')).split(':')[0]!);
    } catch {
      throw oauthError('invalid_request', 'The Basic Authorization header is malformed.', `The client is public: send client_id=${PUBLIC_CLIENT_ID} in the form instead.`);
    }
    // RFC 6749 §5.2: a client that authenticated with a header is answered 401 with a challenge for that scheme.
    if (user !== PUBLIC_CLIENT_ID) {
      throw oauthError('invalid_client', `Unknown client_id ${quoteInput(user)}.`, `The only client is "${PUBLIC_CLIENT_ID}" (no secret).`, 401, { 'WWW-Authenticate': 'Basic realm="oauth"' });
    }
    // One client per request (RFC 6749 §2.3): a form client_id may only repeat the header's.
    if (fromForm !== undefined && fromForm !== user) {
      throw oauthError('invalid_request', 'client_id in the form differs from the Basic Authorization header.', `Send one client_id: ${PUBLIC_CLIENT_ID}.`);
    }
    return user;
  }
  if (fromForm !== undefined && fromForm !== PUBLIC_CLIENT_ID) {
    throw oauthError('invalid_client', `Unknown client_id ${quoteInput(fromForm)}.`, `The only client is "${PUBLIC_CLIENT_ID}" (no secret).`, 401);
  }
  return fromForm;
}

async function authorizationCode(form: URLSearchParams, { issuer, ring }: OAuthContext, clientId: string | undefined, ctx: RequestContext): Promise<Grant> {
  const code = form.get('code');
  if (!code) throw oauthError('invalid_request', 'code is missing.', 'Send the code the redirect from /oauth/authorize carried.');
  const verifier = form.get('code_verifier');
  if (!verifier) throw oauthError('invalid_request', 'code_verifier is missing: PKCE is required.', 'Send the code_verifier whose S256 hash was the code_challenge at /oauth/authorize.');
  if (!PKCE_PATTERN.test(verifier)) throw oauthError('invalid_request', 'code_verifier is malformed.', 'code_verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636).');
  if (!clientId) throw oauthError('invalid_request', 'client_id is missing.', `Send client_id=${PUBLIC_CLIENT_ID}.`);
  const redirectUri = form.get('redirect_uri');
  if (!redirectUri) throw oauthError('invalid_request', 'redirect_uri is missing.', 'Send the same redirect_uri as at /oauth/authorize.');
  const opened = await openCode(ring, issuer, code);
  if (!opened.claims) throw oauthError('invalid_grant', opened.problem!, 'Start again at /oauth/authorize.');
  const c = opened.claims;
  if (c.client_id !== clientId) throw oauthError('invalid_grant', 'The code was issued to another client.', 'Start again at /oauth/authorize.');
  if (c.redirect_uri !== redirectUri) throw oauthError('invalid_grant', 'redirect_uri differs from the one the code was issued for.', 'Send exactly the redirect_uri used at /oauth/authorize.');
  if (!safeEqual(await s256(verifier), c.code_challenge)) {
    throw oauthError('invalid_grant', 'The PKCE code_verifier does not match the code_challenge.', 'Send the verifier whose S256 hash was the code_challenge.');
  }
  const authorized = c.resources ?? [];
  const requested = parseResources(form.getAll('resource'), issuer);
  if (requested.some((r) => r !== issuer && !authorized.includes(r))) {
    throw oauthError('invalid_target', 'resource differs from the one authorized.', 'Send the resource used at /oauth/authorize, or none.');
  }
  const resources = requested.length ? requested : authorized;
  // Single use across every process sharing the store (an atomic add); a replay revokes what the code minted.
  if (!(await redeemCode(ctx.singleUse, c.jti, c.exp))) {
    await revokeGrant(ctx.singleUse, c.jti);
    ctx.log.warn('authorization code replayed: the tokens issued for it are revoked', { gid: c.jti, ip: ctx.clientIp });
    throw oauthError('invalid_grant', 'The authorization code was already used; the tokens issued for it are now revoked.', 'Codes are single-use: start again at /oauth/authorize.');
  }
  return { sub: c.sub, scope: c.scope, clientId, resources, refresh: true, extra: { gid: c.jti } };
}

async function jwtBearer(form: URLSearchParams, { issuer, ring }: OAuthContext, clientId: string | undefined, ctx: RequestContext): Promise<Grant> {
  const assertion = form.get('assertion');
  if (!assertion) throw oauthError('invalid_request', 'assertion is missing.', 'Send the identity_assertion from POST /oauth/claim as assertion=...');
  let claims;
  try {
    ({ claims } = await verifyToken(ring, assertion, ['identityAssertion'], issuer));
  } catch (err) {
    if (err instanceof TokenError) throw oauthError('invalid_grant', `The assertion is not valid: ${err.message}`, 'Claim a new one at POST /oauth/claim.');
    throw err;
  }
  const revoked = await revokedProblem(ctx.singleUse, claims);
  if (revoked) throw oauthError('invalid_grant', `The assertion is not valid: ${revoked}`, 'Claim a new one at POST /oauth/claim.');
  if (clientId && clientId !== claims.client_id) throw oauthError('invalid_grant', 'The assertion was issued to another client.');
  const scope = parseScope(form.get('scope'), claims.scope.split(' '));
  const extra = claims.email ? { email: claims.email, email_verified: false } : undefined;
  return { sub: claims.sub, scope, clientId: claims.client_id, resources: parseResources(form.getAll('resource'), issuer), refresh: false, extra };
}

async function refreshToken(form: URLSearchParams, { issuer, ring }: OAuthContext, clientId: string | undefined, ctx: RequestContext): Promise<Grant> {
  const token = form.get('refresh_token');
  if (!token) throw oauthError('invalid_request', 'refresh_token is missing.', 'Send the refresh_token from the previous token response.');
  let claims;
  try {
    ({ claims } = await verifyToken(ring, token, ['refresh'], issuer));
  } catch (err) {
    if (err instanceof TokenError) throw oauthError('invalid_grant', `The refresh token is not valid: ${err.message}`, 'Start again at /oauth/authorize.');
    throw err;
  }
  if (clientId && clientId !== claims.client_id) throw oauthError('invalid_grant', 'The refresh token was issued to another client.');
  const scope = parseScope(form.get('scope'), claims.scope.split(' '));
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  const revoked = await revokedProblem(ctx.singleUse, claims);
  if (revoked) throw oauthError('invalid_grant', `The refresh token is not valid: ${revoked}`, 'Start again at /oauth/authorize.');
  // Rotation: each refresh token works once across every process; the response carries its successor. A second
  // use means two parties hold it (RFC 9700 §4.14.2): the whole grant is revoked.
  if (!(await useRefreshToken(ctx.singleUse, claims))) {
    if (claims.gid) await revokeGrant(ctx.singleUse, claims.gid);
    throw oauthError('invalid_grant', 'The refresh token was already used or revoked.', 'Use the refresh_token from the latest token response, or start again at /oauth/authorize.');
  }
  const extra = withGid(claims.email ? { email: claims.email, email_verified: false } : undefined, claims.gid);
  return { sub: claims.sub, scope, clientId: claims.client_id, resources: aud.filter((a) => a !== issuer), refresh: true, refreshScope: claims.scope, extra };
}
