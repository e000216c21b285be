/**
 * POST /oauth/revoke (RFC 7009): always 200 with an empty body, for any token or none. Access tokens and identity
 * assertions are stateless and expire on their own within the hour; a refresh token presented here is retired in
 * this process (its refresh grant then fails), which is as far as a storeless service can go.
 */
import { readForm } from '../body.ts';
import type { Handler } from '../types.ts';
import { NO_STORE, oauthContext } from './context.ts';
import { usedRefreshTokens } from './replay.ts';
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
      const { claims } = await verifyToken(ring, token, ['refresh'], issuer);
      usedRefreshTokens.consume(claims.jti, claims.exp);
    } catch {
      // Invalid tokens and other kinds need no action (RFC 7009 §2.2).
    }
  }
  return new Response(null, { status: 200, headers: NO_STORE });
};
