/** Every endpoint of the contract's Authentication section. Wrong methods get 405 with Allow from the router. */
import type { Route } from '../types.ts';
import { getAgentAuth } from './agent-auth.ts';
import { getAuthorize } from './authorize.ts';
import { postClaim } from './claim.ts';
import { getJwks } from './jwks.ts';
import { OAUTH_PATHS } from '../../contract/oauth.ts';
import { getTemplates, postRegistration } from './register.ts';
import { postRevoke } from './revoke.ts';
import { postToken } from './token.ts';

export const routes: Route[] = [
  { path: OAUTH_PATHS.agentAuth, cors: true, methods: { GET: getAgentAuth } },
  { path: OAUTH_PATHS.register, cors: true, methods: { GET: getTemplates, POST: postRegistration } },
  { path: OAUTH_PATHS.claim, cors: true, methods: { POST: postClaim } },
  { path: OAUTH_PATHS.token, cors: true, methods: { POST: postToken } },
  { path: OAUTH_PATHS.revoke, cors: true, methods: { POST: postRevoke } },
  { path: OAUTH_PATHS.jwks, cors: true, methods: { GET: getJwks } },
  // Navigated to by a browser, not fetched cross-origin: no CORS.
  { path: OAUTH_PATHS.authorize, methods: { GET: getAuthorize } },
];
