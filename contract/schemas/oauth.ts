import { z } from 'zod';

/** The contract's scopes (contract/oauth.ts has the same list with descriptions). */
export const ScopeSchema = z.enum(['read:episodes', 'read:transcripts', 'search:episodes']);

const ScopeString = z.string().describe('Space-separated scopes: read:episodes read:transcripts search:episodes');

export const RegistrationTemplateSchema = z.object({
  id: z.enum(['anonymous-public-client', 'user-email-app', 'service-account']),
  identity_type: z.enum(['anonymous', 'identity_assertion']),
  title: z.string(),
  description: z.string(),
  grant_types: z.array(z.string()),
  request_body_template: z.record(z.string(), z.unknown()),
  required_fields: z.array(z.string()),
  optional_fields: z.array(z.string()),
  next_steps: z.array(z.string()),
});

/** GET /oauth/register */
export const RegistrationTemplatesResponseSchema = z.object({
  registration_endpoint: z.url(),
  templates: z.array(RegistrationTemplateSchema),
  docs: z.url().optional(),
});

/** POST /oauth/register (RFC 7591); other client metadata is accepted and ignored. */
export const ClientRegistrationRequestSchema = z.looseObject({
  template: z.enum(['anonymous-public-client', 'user-email-app', 'service-account']).optional(),
  client_name: z.string().max(200).optional(),
  redirect_uris: z.array(z.string()).max(20).optional(),
  application_type: z.enum(['native', 'web']).optional(),
  user_email: z.string().max(320).optional(),
  scope: ScopeString.optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  token_endpoint_auth_method: z.string().optional(),
});
export type ClientRegistrationRequest = z.infer<typeof ClientRegistrationRequestSchema>;

/** 201 from POST /oauth/register. */
export const ClientRegistrationResponseSchema = z.object({
  client_id: z.literal('public'),
  client_secret: z.null(),
  client_id_issued_at: z.int(),
  token_endpoint_auth_method: z.literal('none'),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  scope: ScopeString,
  template: z.string(),
  identity_type: z.enum(['anonymous', 'identity_assertion']),
  redirect_uris: z.array(z.string()).optional(),
  application_type: z.enum(['native', 'web']).optional(),
  client_name: z.string().optional(),
  user_email: z.string().optional(),
  next_steps: z.array(z.string()),
});

/** POST /oauth/claim (application/x-www-form-urlencoded). */
export const ClaimRequestSchema = z.object({
  identity_type: z.literal('identity_assertion').optional(),
  scope: ScopeString.optional(),
  user_email: z.string().optional(),
  assertion_type: z.enum(['urn:ietf:params:oauth:token-type:id-jag', 'verified_email']).optional(),
});

export const ClaimResponseSchema = z.object({
  identity_assertion: z.string(),
  token_type: z.literal('identity_assertion'),
  identity_type: z.literal('identity_assertion'),
  assertion_type: z.string(),
  subject: z.string().regex(/^anonymous-[A-Za-z0-9_-]+$/),
  scope: ScopeString,
  expires_in: z.literal(3600),
  replay_as_bearer: z.literal(true),
  user_email: z.string().optional(),
});

/** POST /oauth/token (application/x-www-form-urlencoded): which fields apply depends on grant_type. */
export const TokenRequestSchema = z.object({
  grant_type: z.enum(['authorization_code', 'client_credentials', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer']),
  client_id: z.literal('public').optional(),
  code: z.string().optional().describe('authorization_code'),
  redirect_uri: z.string().optional().describe('authorization_code: the same redirect_uri as at /oauth/authorize'),
  code_verifier: z.string().optional().describe('authorization_code: the PKCE verifier (required)'),
  refresh_token: z.string().optional().describe('refresh_token'),
  assertion: z.string().optional().describe('jwt-bearer: the identity assertion from /oauth/claim'),
  scope: ScopeString.optional(),
  resource: z.string().optional().describe('RFC 8707: this service or an address under it'),
});

export const TokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.literal(3600),
  scope: ScopeString,
  refresh_token: z.string().optional(),
});

/** POST /oauth/revoke (RFC 7009); the answer is always 200 with an empty body. */
export const RevocationRequestSchema = z.object({
  token: z.string().optional(),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
});

export const JwksSchema = z.object({
  keys: z.array(
    z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string().optional(), use: z.string().optional(), crv: z.string().optional(), x: z.string().optional() }),
  ),
});

export const AgentAuthSchema = z.object({
  register_uri: z.url(),
  claim_uri: z.url(),
  token_uri: z.url(),
  revocation_uri: z.url(),
  auth_md: z.url(),
  identity_types_supported: z.array(z.enum(['anonymous', 'identity_assertion'])),
  anonymous: z.object({ credential_types_supported: z.array(z.string()) }),
  identity_assertion: z.object({
    assertion_types_supported: z.array(z.string()),
    credential_types_supported: z.array(z.string()),
    replay_as_bearer: z.boolean(),
  }),
  scopes_supported: z.array(ScopeSchema),
  credentials_required: z.literal(false),
  registration_templates: z.array(RegistrationTemplateSchema),
});

/** /.well-known/oauth-authorization-server (RFC 8414). */
export const AuthorizationServerMetadataSchema = z.looseObject({
  issuer: z.url(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  registration_endpoint: z.url(),
  revocation_endpoint: z.url(),
  jwks_uri: z.url(),
  scopes_supported: z.array(ScopeSchema),
  response_types_supported: z.tuple([z.literal('code')]),
  grant_types_supported: z.array(z.string()),
  token_endpoint_auth_methods_supported: z.tuple([z.literal('none')]),
  code_challenge_methods_supported: z.tuple([z.literal('S256')]),
  service_documentation: z.url(),
  agent_auth: AgentAuthSchema,
});

/** /.well-known/openid-configuration */
export const OpenIdConfigurationSchema = AuthorizationServerMetadataSchema.extend({
  subject_types_supported: z.array(z.string()),
  id_token_signing_alg_values_supported: z.array(z.string()),
});

/** /.well-known/oauth-protected-resource (RFC 9728). */
export const ProtectedResourceMetadataSchema = z.looseObject({
  resource: z.url(),
  resource_name: z.string().optional(),
  authorization_servers: z.array(z.url()).min(1),
  jwks_uri: z.url(),
  scopes_supported: z.array(ScopeSchema),
  bearer_methods_supported: z.array(z.string()),
  resource_documentation: z.url(),
  agent_auth: AgentAuthSchema,
});
