import type { RequestContext } from '../types.ts';
import { getKeyRing, type KeyRing } from './keys.ts';
import { issuerOf } from './issuer.ts';

export interface OAuthContext {
  issuer: string;
  ring: KeyRing;
}

/** The issuer and the key ring every OAuth handler needs (both memoized per process). */
export async function oauthContext(ctx: RequestContext): Promise<OAuthContext> {
  const [issuer, ring] = await Promise.all([issuerOf(ctx), getKeyRing(ctx.env, ctx.log)]);
  return { issuer, ring };
}

/** Credentials and anything derived from them must not be cached (RFC 6749 §5.1). */
export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;
