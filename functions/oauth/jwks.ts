/** GET /oauth/jwks.json: the public key tokens can be verified with (EdDSA), or an empty set under HS256. */
import { json } from '../errors.ts';
import type { Handler } from '../types.ts';
import { getKeyRing } from './keys.ts';

export const getJwks: Handler = async (_request, ctx) => {
  const ring = await getKeyRing(ctx.env, ctx.log);
  return json(
    { keys: ring.publicJwk ? [ring.publicJwk] : [] },
    // Short: after a key rotation verifiers should notice within minutes.
    { headers: { 'Cache-Control': 'public, max-age=300' } },
  );
};
