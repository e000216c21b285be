/**
 * POST /oauth/revoke (RFC 7009): always 200 with an empty body, for any token or none. A valid token of this
 * service is revoked in the shared single-use store, so every process refuses it from then on: a refresh token
 * takes its whole grant with it (the access tokens minted from the same code, RFC 7009 §2.1), an access token or
 * identity assertion is refused as a bearer until it would have expired anyway.
 */
import { readForm } from '../body.ts';
import type { Handler } from '../types.ts';
import { NO_STORE, oauthContext } from './context.ts';
import { revokeGrant, revokeToken, useRefreshToken } from './revocation.ts';
import { verifyToken } from './tokens.ts';

export const postRevoke: Handler = async (request, ctx) => {
  let token: string | null = null;
  try {
    token = (await readForm(request)).get('token');
  } catch {
    // RFC 7009 asks for a form body, but the contract promises 200 whatever arrives.
  }
  if (token) {
    try {
      const { issuer, ring } = await oauthContext(ctx);
      const { kind, claims } = await verifyToken(ring, token, ['refresh', 'access', 'identityAssertion'], issuer);
      if (kind === 'refresh') {
        await useRefreshToken(ctx.singleUse, claims);
        if (claims.gid) await revokeGrant(ctx.singleUse, claims.gid);
      } else {
        await revokeToken(ctx.singleUse, claims);
      }
    } catch {
      // Invalid tokens need no action (RFC 7009 §2.2).
    }
  }
  return new Response(null, { status: 200, headers: NO_STORE });
};
