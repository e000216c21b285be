/**
 * GET /agent/auth: always 401 with a Bearer challenge (RFC 6750 §3, RFC 9728 §5.1) that tells an agent which
 * scopes exist and where the metadata and the walkthrough are. Credentials are optional everywhere else.
 */
import { errorResponse } from '../errors.ts';
import type { Handler } from '../types.ts';
import { issuerOf } from './issuer.ts';
import { OAUTH_PATHS, bearerChallengeParams, formatChallenge } from '../../contract/oauth.ts';

export const getAgentAuth: Handler = async (_request, ctx) => {
  const base = await issuerOf(ctx);
  return errorResponse('unauthorized', {
    message: 'This endpoint always asks for credentials so agents can discover how to get them. Every read endpoint works without one.',
    hint: `Read ${base}${OAUTH_PATHS.authMd} for the walkthrough.`,
    docs_url: `${base}${OAUTH_PATHS.authMd}`,
    headers: { 'WWW-Authenticate': formatChallenge('Bearer', bearerChallengeParams(base)) },
  });
};
