/**
 * GET /oauth/register: the registration templates. POST /oauth/register: RFC 7591 dynamic client registration,
 * open to anyone. There is one public client (client_id "public", no secret): registration validates the
 * metadata, says which template applies, echoes what a later step needs (user_email), and records its redirect
 * URIs in the shared store so /oauth/authorize will redirect to them (redirects.ts).
 */
import { readJson } from '../body.ts';
import { json, quoteInput } from '../errors.ts';
import type { Handler } from '../types.ts';
import { ClientRegistrationRequestSchema, type ClientRegistrationRequest } from '../../contract/schemas/oauth.ts';
import { issuerOf } from './issuer.ts';
import { NO_STORE } from './context.ts';
import {
  GRANT_TYPES,
  OAUTH_PATHS,
  PUBLIC_CLIENT_ID,
  REGISTERED_GRANT_TYPES,
  SCOPES,
  registrationTemplates,
  type RegistrationTemplate,
} from '../../contract/oauth.ts';
import { EMAIL_PATTERN, REGISTRATION_URI_RULE, oauthError, parseScope, redirectUriProblem, oauthBody } from './params.ts';
import { registerRedirectUris } from './redirects.ts';

export const getTemplates: Handler = async (_request, ctx) => {
  const base = await issuerOf(ctx);
  return json(
    { registration_endpoint: `${base}${OAUTH_PATHS.register}`, templates: registrationTemplates(base), docs: `${base}${OAUTH_PATHS.authMd}` },
    { headers: { 'Cache-Control': 'public, max-age=300' } },
  );
};

export const postRegistration: Handler = async (request, ctx) => {
  const base = await issuerOf(ctx);
  const body = await oauthBody(readJson(request));
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw metadataError('The registration request must be a JSON object of client metadata.');
  }
  const parsed = ClientRegistrationRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'body';
    if (issue.path[0] === 'redirect_uris') {
      throw oauthError('invalid_redirect_uri', `redirect_uris is invalid: ${issue.message}.`, 'redirect_uris is an array of at most 20 strings; ' + REGISTRATION_URI_RULE);
    }
    throw metadataError(`${field} is invalid: ${issue.message}.`);
  }
  const meta = parsed.data;
  const templates = registrationTemplates(base);
  const template = templates.find((t) => t.id === chooseTemplate(meta))!;
  checkMetadata(meta, template);
  await registerRedirectUris(ctx.singleUse, meta.redirect_uris ?? []);
  const response = {
    client_id: PUBLIC_CLIENT_ID,
    client_secret: null,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    token_endpoint_auth_method: 'none',
    grant_types: [...REGISTERED_GRANT_TYPES],
    response_types: ['code'],
    scope: SCOPES.join(' '),
    template: template.id,
    identity_type: template.identity_type,
    ...(meta.redirect_uris ? { redirect_uris: meta.redirect_uris } : {}),
    ...(meta.application_type ? { application_type: meta.application_type } : {}),
    ...(meta.client_name ? { client_name: meta.client_name } : {}),
    ...(meta.user_email ? { user_email: meta.user_email } : {}),
    next_steps: template.next_steps.map((step) => (meta.user_email ? step.replace('listener@example.com', encodeURIComponent(meta.user_email)) : step)),
  };
  return json(response, { status: 201, headers: NO_STORE });
};

/** An explicit template wins; otherwise the metadata says which one fits. */
function chooseTemplate(meta: ClientRegistrationRequest): RegistrationTemplate['id'] {
  if (meta.template) return meta.template;
  if (meta.user_email !== undefined) return 'user-email-app';
  if (meta.redirect_uris?.length) return 'anonymous-public-client';
  return 'service-account';
}

function checkMetadata(meta: ClientRegistrationRequest, template: RegistrationTemplate): void {
  for (const field of template.required_fields) {
    const value = (meta as Record<string, unknown>)[field];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      if (field === 'redirect_uris') {
        throw oauthError('invalid_redirect_uri', `The ${template.id} template needs redirect_uris.`, `Send at least one; ${REGISTRATION_URI_RULE}`);
      }
      throw metadataError(`The ${template.id} template needs ${field}.`, `Required fields: ${template.required_fields.join(', ')}`);
    }
  }
  for (const [i, uri] of (meta.redirect_uris ?? []).entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw oauthError('invalid_redirect_uri', `redirect_uris[${i}] ${problem}.`, REGISTRATION_URI_RULE);
  }
  if (meta.user_email !== undefined && !EMAIL_PATTERN.test(meta.user_email)) {
    throw metadataError('user_email is not an email address.', 'user_email looks like listener@example.com');
  }
  if (meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== 'none') {
    throw metadataError(`token_endpoint_auth_method ${quoteInput(meta.token_endpoint_auth_method)} is not supported.`, 'The only client is public: use token_endpoint_auth_method "none" (or leave it out).');
  }
  const unknownGrants = (meta.grant_types ?? []).filter((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (unknownGrants.length) {
    throw metadataError(`Unsupported grant_types: ${unknownGrants.join(', ')}.`, `grant_types are drawn from: ${GRANT_TYPES.join(', ')}`);
  }
  const unknownResponses = (meta.response_types ?? []).filter((r) => r !== 'code');
  if (unknownResponses.length) throw metadataError(`Unsupported response_types: ${unknownResponses.join(', ')}.`, 'The only response type is code.');
  if (meta.scope !== undefined) {
    try {
      parseScope(meta.scope);
    } catch (err) {
      throw metadataError((err as Error).message, `scope is a space-separated subset of: ${SCOPES.join(' ')}`);
    }
  }
}

function metadataError(message: string, hint = 'See GET /oauth/register for the templates and their fields.') {
  return oauthError('invalid_client_metadata', message, hint);
}
