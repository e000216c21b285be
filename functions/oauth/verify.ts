/** Bearer token verification, for the middleware in bearer.ts, which loads this only when a request sends a token. */
import type { RequestContext } from '../types.ts';
import { getKeyRing } from './keys.ts';
import { issuerOf } from './issuer.ts';
import { TokenError, verifyToken, type TokenClaims } from './tokens.ts';
import { revokedProblem } from './revocation.ts';

export { TokenError };

/** Checks a bearer token: an access token or an identity assertion of this issuer, signed with the current key. */
export async function verifyBearer(ctx: Pick<RequestContext, 'env' | 'log' | 'data' | 'singleUse'>, token: string, issuer?: string): Promise<TokenClaims> {
  const iss = issuer ?? (await issuerOf(ctx));
  const ring = await getKeyRing(ctx.env, ctx.log);
  const { claims } = await verifyToken(ring, token, ['access', 'identityAssertion'], iss);
  // Revoked at /oauth/revoke, or minted from a code or refresh token that was replayed (any process).
  const revoked = await revokedProblem(ctx.singleUse, claims);
  if (revoked) throw new TokenError(revoked);
  return claims;
}
