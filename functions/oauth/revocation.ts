/**
 * Single use and revocation, kept in the deployment's shared single-use store (ctx.singleUse), so they hold
 * across every process (RFC 6749 §4.1.2 and §10.5, RFC 9700 §2.1.2, §4.14.2):
 *
 *   code:<jti>      an authorization code was redeemed; a second redemption fails and revokes its grant
 *   refresh:<jti>   a refresh token was used (rotation); a second use fails and revokes its grant
 *   grant:<gid>     a grant was revoked: every access and refresh token minted from that code stops working
 *   revoked:<jti>   one token was revoked at /oauth/revoke
 *
 * Entries live as long as the thing they guard could still be presented, then expire on their own.
 */
import type { SingleUseStore } from '../single-use/store.ts';
import { AUTHORIZATION_CODE_TTL, REFRESH_TOKEN_TTL } from '../../contract/oauth.ts';
import { nowSeconds, type TokenClaims } from './tokens.ts';

/** Slack for clocks and for a token presented the second it expires. */
const MARGIN_S = 60;

/** Until a token or code with this exp can no longer be presented. */
function ttlUntil(exp: number): number {
  return (Math.max(0, exp - nowSeconds()) + MARGIN_S) * 1000;
}

/** Marks an authorization code redeemed; false when it already was (a replay). */
export function redeemCode(store: SingleUseStore, jti: string, exp: number): Promise<boolean> {
  return store.add(`code:${jti}`, Math.min(ttlUntil(exp), (AUTHORIZATION_CODE_TTL + MARGIN_S) * 1000));
}

/** Marks a refresh token used; false when it already was (a replay, or it was revoked). */
export function useRefreshToken(store: SingleUseStore, claims: Pick<TokenClaims, 'jti' | 'exp'>): Promise<boolean> {
  return store.add(`refresh:${claims.jti}`, ttlUntil(claims.exp));
}

/**
 * Revokes a whole grant: tokens of the family were minted at most a refresh token's life before the last refresh,
 * and no refresh succeeds once this is set, so the mark outlives every token it must stop.
 */
export function revokeGrant(store: SingleUseStore, gid: string): Promise<void> {
  return store.set(`grant:${gid}`, (REFRESH_TOKEN_TTL + MARGIN_S) * 1000);
}

export function revokeToken(store: SingleUseStore, claims: Pick<TokenClaims, 'jti' | 'exp'>): Promise<void> {
  return store.set(`revoked:${claims.jti}`, ttlUntil(claims.exp));
}

/** Why a verified token must still be refused, or undefined when it stands. */
export async function revokedProblem(store: SingleUseStore, claims: Pick<TokenClaims, 'jti' | 'gid'>): Promise<string | undefined> {
  const [token, grant] = await Promise.all([store.has(`revoked:${claims.jti}`), claims.gid ? store.has(`grant:${claims.gid}`) : false]);
  if (token) return 'The token was revoked.';
  if (grant) return 'The token was revoked: the grant it came from was revoked (its authorization code or refresh token was used twice, or revoked).';
  return undefined;
}
