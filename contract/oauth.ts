/**
 * The OAuth-style surface described as data: scopes, grants, endpoints, registration templates and the
 * agent_auth block. The handlers, the build-time discovery documents (src/build/discovery), auth.md, docs.md and
 * the tests all read it from here, so what is advertised is what is served.
 */

export const SCOPES = ['read:episodes', 'read:transcripts', 'search:episodes'] as const;
export type Scope = (typeof SCOPES)[number];
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'read:episodes': 'Read the episode list, episode pages, audio and chapters',
  'read:transcripts': 'Read episode transcripts',
  'search:episodes': 'Search and ask across episodes (/api/search, /ask, MCP tools)',
};

/** The single public client of the contract: no secret, PKCE S256. */
export const PUBLIC_CLIENT_ID = 'public';

/** Access tokens and identity assertions live one hour (the contract's credential lifetime). */
export const ACCESS_TOKEN_TTL = 3600;
export const IDENTITY_ASSERTION_TTL = 3600;
/** Refresh tokens are single-use (rotated on every refresh) and stop working after a day. */
export const REFRESH_TOKEN_TTL = 24 * 3600;
/** Authorization codes: the redirect is immediate (auto-approval), so a minute is plenty. */
export const AUTHORIZATION_CODE_TTL = 60;
/** A registered redirect URI is trusted this long after it was last registered or used (30 days). */
export const REDIRECT_REGISTRATION_TTL = 30 * 24 * 3600;

export const GRANT_JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token', GRANT_JWT_BEARER] as const;
/** What POST /oauth/register answers in grant_types (the contract's three). */
export const REGISTERED_GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token'] as const;

export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** JWT `typ` headers: they keep the three kinds of token apart, so none can stand in for another. */
export const TOKEN_TYPES = {
  access: 'at+jwt',
  refresh: 'rt+jwt',
  identityAssertion: 'oauth-id-jag+jwt',
} as const;

/** Paths of every endpoint of the Authentication section. */
export const OAUTH_PATHS = {
  agentAuth: '/agent/auth',
  register: '/oauth/register',
  claim: '/oauth/claim',
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  jwks: '/oauth/jwks.json',
  authorize: '/oauth/authorize',
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
  authMd: '/auth.md',
} as const;

/** The endpoint table (for docs.md, AGENTS.md and auth.md). */
export const OAUTH_ENDPOINTS: Array<{ method: string; path: string; purpose: string }> = [
  { method: 'GET', path: OAUTH_PATHS.agentAuth, purpose: 'Always 401: a Bearer challenge naming the scopes and where to read more' },
  { method: 'GET', path: OAUTH_PATHS.protectedResource, purpose: 'Protected resource metadata (RFC 9728) with agent_auth' },
  { method: 'GET', path: OAUTH_PATHS.authorizationServer, purpose: 'Authorization server metadata (RFC 8414) with agent_auth' },
  { method: 'GET', path: OAUTH_PATHS.openidConfiguration, purpose: 'The same metadata for OpenID Connect clients' },
  { method: 'GET', path: OAUTH_PATHS.register, purpose: 'Registration templates' },
  { method: 'POST', path: OAUTH_PATHS.register, purpose: 'Dynamic client registration (RFC 7591), open to anyone' },
  { method: 'POST', path: OAUTH_PATHS.claim, purpose: 'Mint an identity assertion (usable as a bearer or at the token endpoint)' },
  { method: 'GET', path: OAUTH_PATHS.authorize, purpose: 'Authorization endpoint: response_type=code with PKCE S256, auto-approved' },
  { method: 'POST', path: OAUTH_PATHS.token, purpose: 'Token endpoint: authorization_code, client_credentials, jwt-bearer, refresh_token' },
  { method: 'POST', path: OAUTH_PATHS.revoke, purpose: 'Token revocation (RFC 7009): always 200' },
  { method: 'GET', path: OAUTH_PATHS.jwks, purpose: 'Public signing keys (empty under HS256)' },
];

/** The authentication-tier error codes (contract, Errors) plus the RFC ones this surface also uses. */
export const OAUTH_ERRORS: Array<{ status: number; code: string; when: string }> = [
  { status: 400, code: 'invalid_request', when: 'Malformed OAuth request, e.g. a missing PKCE code_verifier or code_challenge' },
  { status: 400, code: 'invalid_grant', when: 'Authorization code expired, already used or issued for another client/redirect_uri; PKCE verifier mismatch; invalid assertion or refresh token' },
  { status: 400, code: 'unsupported_grant_type', when: 'grant_type is not one of the advertised values' },
  { status: 400, code: 'unsupported_response_type', when: '/oauth/authorize called with a response_type other than code' },
  { status: 400, code: 'invalid_scope', when: 'A requested scope is not one of read:episodes, read:transcripts, search:episodes (or exceeds the grant)' },
  { status: 400, code: 'invalid_target', when: 'The resource parameter is not this service' },
  { status: 400, code: 'invalid_redirect_uri', when: 'Registration with a redirect_uri that is not https, loopback http or a private-use scheme; authorization with a redirect_uri that is neither loopback nor registered (answered here, never redirected)' },
  { status: 400, code: 'invalid_client_metadata', when: 'Registration metadata is invalid (unknown template, bad user_email, ...)' },
  { status: 401, code: 'invalid_client', when: 'A client_id other than public' },
  { status: 401, code: 'unauthorized', when: 'GET /agent/auth, always, with the WWW-Authenticate challenge' },
  { status: 401, code: 'invalid_token', when: 'A bearer token that is invalid, expired, tampered with, of the wrong kind or signed another way' },
  { status: 405, code: 'method_not_allowed', when: 'Wrong HTTP method on an OAuth endpoint (the Allow header lists the right ones)' },
  { status: 429, code: 'rate_limited', when: 'Per-IP limit exceeded; Retry-After is set' },
];

export interface RegistrationTemplate {
  id: 'anonymous-public-client' | 'user-email-app' | 'service-account';
  identity_type: 'anonymous' | 'identity_assertion';
  title: string;
  description: string;
  grant_types: string[];
  request_body_template: Record<string, unknown>;
  required_fields: string[];
  optional_fields: string[];
  next_steps: string[];
}

const SCOPE_STRING = SCOPES.join(' ');

/** GET /oauth/register's `templates` and agent_auth.registration_templates (the same array). */
export function registrationTemplates(base: string): RegistrationTemplate[] {
  return [
    {
      id: 'anonymous-public-client',
      identity_type: 'anonymous',
      title: 'Anonymous public client',
      description: 'No user identity: a read client using the authorization-code flow with PKCE (S256).',
      grant_types: ['authorization_code', 'refresh_token'],
      request_body_template: {
        template: 'anonymous-public-client',
        client_name: 'my-agent',
        application_type: 'native',
        redirect_uris: ['http://127.0.0.1:8765/callback'],
        scope: SCOPE_STRING,
      },
      required_fields: ['redirect_uris'],
      optional_fields: ['template', 'client_name', 'application_type', 'scope'],
      next_steps: [
        `GET ${base}${OAUTH_PATHS.authorize}?response_type=code&client_id=${PUBLIC_CLIENT_ID}&redirect_uri=...&code_challenge=...&code_challenge_method=S256&state=...`,
        `POST ${base}${OAUTH_PATHS.token} grant_type=authorization_code&code=...&redirect_uri=...&client_id=${PUBLIC_CLIENT_ID}&code_verifier=...`,
      ],
    },
    {
      id: 'user-email-app',
      identity_type: 'identity_assertion',
      title: 'Agent that only has the user\'s email',
      description: 'The email is echoed at registration and bound into the identity assertion a later claim mints (it is not verified).',
      grant_types: [GRANT_JWT_BEARER],
      request_body_template: {
        template: 'user-email-app',
        client_name: 'my-agent',
        user_email: 'listener@example.com',
        scope: SCOPE_STRING,
      },
      required_fields: ['user_email'],
      optional_fields: ['template', 'client_name', 'application_type', 'redirect_uris', 'scope'],
      next_steps: [
        `POST ${base}${OAUTH_PATHS.claim} identity_type=identity_assertion&user_email=listener@example.com&scope=${encodeURIComponent(SCOPE_STRING)}`,
        `Send the identity_assertion as a bearer, or POST ${base}${OAUTH_PATHS.token} grant_type=${encodeURIComponent(GRANT_JWT_BEARER)}&assertion=...`,
      ],
    },
    {
      id: 'service-account',
      identity_type: 'anonymous',
      title: 'Service account',
      description: 'A non-interactive backend: the client_credentials grant, no redirect and no user.',
      grant_types: ['client_credentials'],
      request_body_template: {
        template: 'service-account',
        client_name: 'my-backend',
        grant_types: ['client_credentials'],
        scope: SCOPE_STRING,
      },
      required_fields: [],
      optional_fields: ['template', 'client_name', 'grant_types', 'scope'],
      next_steps: [`POST ${base}${OAUTH_PATHS.token} grant_type=client_credentials&client_id=${PUBLIC_CLIENT_ID}&scope=${encodeURIComponent(SCOPE_STRING)}`],
    },
  ];
}

/** The agent_auth block every metadata document carries. */
export function agentAuth(base: string) {
  return {
    register_uri: `${base}${OAUTH_PATHS.register}`,
    claim_uri: `${base}${OAUTH_PATHS.claim}`,
    token_uri: `${base}${OAUTH_PATHS.token}`,
    revocation_uri: `${base}${OAUTH_PATHS.revoke}`,
    auth_md: `${base}${OAUTH_PATHS.authMd}`,
    identity_types_supported: ['anonymous', 'identity_assertion'],
    anonymous: { credential_types_supported: ['access_token', 'api_key'] },
    identity_assertion: {
      assertion_types_supported: [ID_JAG_TOKEN_TYPE, 'verified_email'],
      credential_types_supported: ['access_token', 'api_key'],
      replay_as_bearer: true,
    },
    scopes_supported: [...SCOPES],
    credentials_required: false,
    registration_templates: registrationTemplates(base),
  };
}
export type AgentAuth = ReturnType<typeof agentAuth>;

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${base}${OAUTH_PATHS.token}`,
    registration_endpoint: `${base}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${base}${OAUTH_PATHS.revoke}`,
    jwks_uri: `${base}${OAUTH_PATHS.jwks}`,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}${OAUTH_PATHS.authMd}`,
    agent_auth: agentAuth(base),
  };
}

/**
 * OpenID discovery for clients that only look there. No ID tokens are issued; the signing algorithms listed are
 * the two the service can be configured with (the JWKS shows which one is active: empty means HS256).
 */
export function openidConfiguration(base: string) {
  const as = authorizationServerMetadata(base);
  return {
    ...as,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['EdDSA', 'HS256'],
    claims_supported: ['iss', 'sub', 'aud', 'iat', 'exp', 'scope', 'client_id', 'email'],
  };
}

/** RFC 9728 protected resource metadata. */
export function protectedResourceMetadata(base: string, resourceName: string) {
  return {
    resource: base,
    resource_name: resourceName,
    authorization_servers: [base],
    jwks_uri: `${base}${OAUTH_PATHS.jwks}`,
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_documentation: `${base}${OAUTH_PATHS.authMd}`,
    agent_auth: agentAuth(base),
  };
}

/** Parameters of the WWW-Authenticate Bearer challenge (RFC 6750 §3, RFC 9728 §5.1), as name → value. */
export function bearerChallengeParams(base: string): Record<string, string> {
  return {
    realm: base,
    scope: SCOPE_STRING,
    resource_metadata: `${base}${OAUTH_PATHS.protectedResource}`,
    auth_md: `${base}${OAUTH_PATHS.authMd}`,
  };
}

/** `Bearer a="1", b="2"`: quoted-string values with `"` and `\` escaped. */
export function formatChallenge(scheme: string, params: Record<string, string>): string {
  const parts = Object.entries(params).map(([k, v]) => `${k}="${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return parts.length ? `${scheme} ${parts.join(', ')}` : scheme;
}
