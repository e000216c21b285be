/**
 * The optional bearer credential (RFC 6750). No Authorization header, or another scheme: the request goes on
 * unchanged (every read is public). A valid access token or claimed identity assertion: ctx.auth is set and the
 * request goes on, with no other difference. Anything else sent as a bearer (expired, altered, alg none, another
 * issuer, HS256 signed with the public key, a refresh token, a key from before a rotation) is answered 401 with
 * `WWW-Authenticate: Bearer error="invalid_token"`, so a client learns to refresh instead of being silently ignored.
 *
 * The authorization-server endpoints and their metadata are exempt: a stale token must never stop a client from
 * getting a new one.
 */
import { errorResponse } from '../errors.ts';
import type { Middleware } from '../types.ts';
import { importOnce } from '../lazy.ts';
import { issuerOf } from './issuer.ts';
import { OAUTH_PATHS, formatChallenge } from '../../contract/oauth.ts';

// This middleware runs on every request, but only one that sends a bearer token needs the verifier and jose.
const loadVerifier = importOnce(() => import('./verify.ts'));

export function bearerAuth(): Middleware {
  return async (request, ctx, next) => {
    const header = request.headers.get('authorization');
    if (!header || isExempt(ctx.url.pathname)) return next();
    const match = /^bearer(?:[ \t]+(.*))?$/i.exec(header.trim());
    if (!match) return next();
    const issuer = await issuerOf(ctx);
    const token = match[1]?.trim() ?? '';
    if (!token || /\s/.test(token)) return invalidToken(issuer, 'The Authorization header must be "Bearer <token>".');
    const { TokenError, verifyBearer } = await loadVerifier();
    try {
      const claims = await verifyBearer(ctx, token, issuer);
      ctx.auth = { sub: claims.sub, scope: claims.scope, client_id: claims.client_id };
    } catch (err) {
      if (err instanceof TokenError) return invalidToken(issuer, err.message);
      throw err;
    }
    return next();
  };
}

function isExempt(path: string): boolean {
  return (
    path.startsWith('/oauth/') ||
    path === OAUTH_PATHS.agentAuth ||
    path.startsWith('/.well-known/oauth-') ||
    path === OAUTH_PATHS.openidConfiguration
  );
}

function invalidToken(issuer: string, description: string): Response {
  return errorResponse('invalid_token', {
    message: description,
    hint: `Get a new token at ${issuer}${OAUTH_PATHS.token} (see ${issuer}${OAUTH_PATHS.authMd}), or send the request without Authorization: every read is public.`,
    headers: {
      'WWW-Authenticate': formatChallenge('Bearer', {
        realm: issuer,
        error: 'invalid_token',
        // RFC 6750 §3: error_description is printable ASCII without " or \.
        error_description: description.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, ''),
        resource_metadata: `${issuer}${OAUTH_PATHS.protectedResource}`,
      }),
    },
  });
}
