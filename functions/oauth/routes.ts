/** Every endpoint of the contract's Authentication section. Wrong methods get 405 with Allow from the router. */
import type { Route } from '../types.ts';
import { lazy } from '../lazy.ts';
import { OAUTH_PATHS } from '../../contract/oauth.ts';

// Not at start: the handlers bring jose, which a search or an ask never needs.
const getAgentAuth = lazy(() => import('./agent-auth.ts'), (m) => m.getAgentAuth);
const getAuthorize = lazy(() => import('./authorize.ts'), (m) => m.getAuthorize);
const postClaim = lazy(() => import('./claim.ts'), (m) => m.postClaim);
const getJwks = lazy(() => import('./jwks.ts'), (m) => m.getJwks);
const getTemplates = lazy(() => import('./register.ts'), (m) => m.getTemplates);
const postRegistration = lazy(() => import('./register.ts'), (m) => m.postRegistration);
const postRevoke = lazy(() => import('./revoke.ts'), (m) => m.postRevoke);
const postToken = lazy(() => import('./token.ts'), (m) => m.postToken);

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
