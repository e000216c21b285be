/**
 * POST /oauth/claim: mints an identity assertion for a new anonymous subject. The assertion is a signed JWT
 * (typ oauth-id-jag+jwt) that works directly as a bearer (replay_as_bearer) or as the assertion of the
 * jwt-bearer grant. With user_email (the user-email-app template) the email is bound into it, unverified.
 */
import { readForm } from '../body.ts';
import { json, quoteInput } from '../errors.ts';
import type { Handler } from '../types.ts';
import { NO_STORE, oauthContext } from './context.ts';
import { ID_JAG_TOKEN_TYPE, IDENTITY_ASSERTION_TTL, PUBLIC_CLIENT_ID } from '../../contract/oauth.ts';
import { EMAIL_PATTERN, oauthError, parseResources, parseScope, rejectRepeated, oauthBody } from './params.ts';
import { mintToken } from './tokens.ts';

const ASSERTION_TYPES = [ID_JAG_TOKEN_TYPE, 'verified_email'];

export const postClaim: Handler = async (request, ctx) => {
  const form = await oauthBody(readForm(request));
  rejectRepeated(form);
  const { issuer, ring } = await oauthContext(ctx);
  const identityType = form.get('identity_type') ?? 'identity_assertion';
  if (identityType !== 'identity_assertion') {
    throw oauthError('invalid_request', `identity_type ${quoteInput(identityType)} cannot be claimed here.`, 'identity_type must be identity_assertion (anonymous clients use POST /oauth/token with grant_type=client_credentials).');
  }
  const clientId = form.get('client_id') ?? PUBLIC_CLIENT_ID;
  if (clientId !== PUBLIC_CLIENT_ID) {
    throw oauthError('invalid_client', `Unknown client_id ${quoteInput(clientId)}.`, `The only client is "${PUBLIC_CLIENT_ID}".`, 401);
  }
  const scope = parseScope(form.get('scope'));
  const email = form.get('user_email')?.trim() || undefined;
  if (email !== undefined && !EMAIL_PATTERN.test(email)) {
    throw oauthError('invalid_request', 'user_email is not an email address.', 'user_email looks like listener@example.com (the one echoed by POST /oauth/register).');
  }
  const assertionType = form.get('assertion_type') ?? ID_JAG_TOKEN_TYPE;
  if (!ASSERTION_TYPES.includes(assertionType)) {
    throw oauthError('invalid_request', `assertion_type ${quoteInput(assertionType)} is not supported.`, `assertion_type is one of: ${ASSERTION_TYPES.join(', ')}`);
  }
  if (assertionType === 'verified_email' && !email) {
    throw oauthError('invalid_request', 'assertion_type verified_email needs user_email.', 'Send user_email=listener@example.com');
  }
  const subject = `anonymous-${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const { token } = await mintToken(ring, 'identityAssertion', {
    issuer,
    sub: subject,
    scope,
    clientId,
    resources: parseResources(form.getAll('resource'), issuer),
    // The service cannot check mailboxes: the email is bound as given and marked unverified.
    extra: email ? { email, email_verified: false } : undefined,
  });
  return json(
    {
      identity_assertion: token,
      token_type: 'identity_assertion',
      identity_type: 'identity_assertion',
      assertion_type: assertionType,
      subject,
      scope,
      expires_in: IDENTITY_ASSERTION_TTL,
      replay_as_bearer: true,
      ...(email ? { user_email: email } : {}),
    },
    { headers: NO_STORE },
  );
};
