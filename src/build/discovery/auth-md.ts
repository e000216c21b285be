/**
 * /auth.md: the agent authentication walkthrough, generated from the OAuth module's own tables so every endpoint,
 * scope, template and error code it names is one the service serves.
 */
import type { LoadedContent } from '../../content/load.ts';
import { siteUrls } from '../urls.ts';
import {
  ACCESS_TOKEN_TTL,
  AUTHORIZATION_CODE_TTL,
  GRANT_JWT_BEARER,
  OAUTH_ENDPOINTS,
  OAUTH_ERRORS,
  OAUTH_PATHS,
  PUBLIC_CLIENT_ID,
  REDIRECT_REGISTRATION_TTL,
  REFRESH_TOKEN_TTL,
  SCOPES,
  SCOPE_DESCRIPTIONS,
  TOKEN_TYPES,
  registrationTemplates,
} from '../../../contract/oauth.ts';

export function buildAuthMd(content: Pick<LoadedContent, 'show'>): string {
  const { show } = content;
  const u = siteUrls(show);
  const p = (path: string) => u.abs(path);
  const scopeString = SCOPES.join(' ');
  const templates = registrationTemplates(u.base);
  return `# Authentication for agents — ${show.title}

**You do not need a credential.** Every read endpoint, the MCP server and every discovery document answer without
one. Credentials exist for agents and libraries that expect OAuth: a token is accepted on the read endpoints and on
POST /mcp, and grants nothing different (same data, same rate limit of 60 requests per minute per IP).

If you do send \`Authorization: Bearer <token>\`, it must be valid: an expired, altered or foreign token is answered
\`401\` with \`WWW-Authenticate: Bearer error="invalid_token"\` (RFC 6750), so your client knows to refresh. Drop the
header or get a new token.

## Discovery

| Document | Address |
|---|---|
| Bearer challenge (always 401) | [${p(OAUTH_PATHS.agentAuth)}](${p(OAUTH_PATHS.agentAuth)}) |
| Protected resource metadata (RFC 9728) | [${p(OAUTH_PATHS.protectedResource)}](${p(OAUTH_PATHS.protectedResource)}) |
| Authorization server metadata (RFC 8414) | [${p(OAUTH_PATHS.authorizationServer)}](${p(OAUTH_PATHS.authorizationServer)}) |
| OpenID discovery (same data) | [${p(OAUTH_PATHS.openidConfiguration)}](${p(OAUTH_PATHS.openidConfiguration)}) |
| Registration templates | [${p(OAUTH_PATHS.register)}](${p(OAUTH_PATHS.register)}) |
| Public signing keys | [${p(OAUTH_PATHS.jwks)}](${p(OAUTH_PATHS.jwks)}) |

Each metadata document carries an \`agent_auth\` block: \`register_uri\`, \`claim_uri\`, \`revocation_uri\`, the
identity types (\`anonymous\`, \`identity_assertion\`) with their credential and assertion types, and the registration
templates below.

## Scopes

| Scope | Covers |
|---|---|
${SCOPES.map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`).join('\n')}

Leave \`scope\` out to get all three. There is one client: \`client_id=${PUBLIC_CLIENT_ID}\`, public, no secret.

## The quickest token: client_credentials

\`\`\`sh
curl -s ${p(OAUTH_PATHS.token)} -d grant_type=client_credentials -d client_id=${PUBLIC_CLIENT_ID}
# {"access_token":"eyJ...","token_type":"Bearer","expires_in":${ACCESS_TOKEN_TTL},"scope":"${scopeString}"}
curl -s '${u.search}?q=sourdough' -H 'Authorization: Bearer eyJ...'
\`\`\`

## An identity assertion: /oauth/claim

\`\`\`sh
curl -s ${p(OAUTH_PATHS.claim)} -d identity_type=identity_assertion -d 'scope=${scopeString}'
# {"identity_assertion":"eyJ...","token_type":"identity_assertion","identity_type":"identity_assertion",
#  "subject":"anonymous-...","scope":"...","expires_in":${ACCESS_TOKEN_TTL},"replay_as_bearer":true}
\`\`\`

The assertion works directly as a bearer (\`replay_as_bearer\`), or exchange it for an access token (RFC 7523):

\`\`\`sh
curl -s ${p(OAUTH_PATHS.token)} -d 'grant_type=${GRANT_JWT_BEARER}' -d assertion=eyJ...
\`\`\`

With \`user_email=...\` (the user-email-app template) the email is bound into the assertion as the \`email\` claim,
with \`email_verified: false\`: the service cannot check mailboxes.

## Authorization code with PKCE

1. Register your redirect URI (RFC 7591; open to anyone, no approval): \`POST ${p(OAUTH_PATHS.register)}\` with JSON
   \`{"redirect_uris": ["https://app.example/callback"]}\` → \`201\` with \`client_id: "${PUBLIC_CLIENT_ID}"\`.
   Loopback URIs need no registration (step 1 is optional for them).
2. Make a \`code_verifier\` (43–128 characters) and its \`code_challenge\` = base64url(SHA-256(verifier)).
3. Send the user (or your own HTTP client: there is no login or consent screen, the data is public) to
   \`${p(OAUTH_PATHS.authorize)}?response_type=code&client_id=${PUBLIC_CLIENT_ID}&redirect_uri=...&code_challenge=...&code_challenge_method=S256&state=...\`.
   It redirects at once to \`redirect_uri?code=...&state=...&iss=${encodeURIComponent(u.base)}\`, with one exception: a person's
   browser (a top-level navigation) on a URI trusted only through registration gets a page naming that address, with a
   link to it that they follow themselves. Registration is open to anyone, so such a URI is its registrant's word,
   not the show's (RFC 9700 §4.11.2); loopback URIs, the operator's list and HTTP clients are redirected at once.
4. \`POST ${p(OAUTH_PATHS.token)}\` with \`grant_type=authorization_code&code=...&redirect_uri=...&client_id=${PUBLIC_CLIENT_ID}&code_verifier=...\`
   → \`access_token\` and \`refresh_token\`.
5. Later: \`grant_type=refresh_token&refresh_token=...\` → a new pair. Each refresh token works once.

Rules: only \`response_type=code\` and \`code_challenge_method=S256\`. Codes live ${AUTHORIZATION_CODE_TTL} seconds and are
bound to the client_id, redirect_uri, code_challenge and scope they were issued for.

### Which redirect URIs are redirected to (RFC 9700, RFC 8252)

The service redirects only to a URI it trusts, compared as an exact string:

| Redirect URI | Trusted when |
|---|---|
| \`http://127.0.0.1:<port>/...\`, \`http://[::1]:<port>/...\`, \`http://localhost:<port>/...\` (or https) | always, on any port (RFC 8252 §7.3): no registration needed |
| \`https://...\`, or an app's private-use scheme such as \`com.example.app:/callback\` | registered at \`POST ${p(OAUTH_PATHS.register)}\` (\`redirect_uris\`), or listed by the show's operator${show.oauth.redirectUris.length ? ` (listed: ${show.oauth.redirectUris.map((r) => `\`${r}\``).join(', ')})` : ''} |

A registration is kept for ${REDIRECT_REGISTRATION_TTL / 86400} days after it was last registered or used, and every
server process of the deployment sees it; registering again at any time is harmless (it renews it). A \`redirect_uri\` with a fragment, an
http URI on another host, or one that was never registered is not redirected to: \`/oauth/authorize\` answers
itself, \`400 invalid_redirect_uri\` (an HTML page for a browser, the JSON envelope otherwise). Other problems
(PKCE, scope) go back to a trusted \`redirect_uri\` as \`error\` parameters, as RFC 6749 §4.1.2.1 asks (through the
same page, for a browser on a registered-only URI).

## Registration templates

${templates
  .map(
    (t) => `### \`${t.id}\` (${t.identity_type})

${t.description}

\`\`\`json
${JSON.stringify(t.request_body_template, null, 2)}
\`\`\`

Required: ${t.required_fields.length ? t.required_fields.map((f) => `\`${f}\``).join(', ') : 'nothing'}. Optional: ${t.optional_fields.map((f) => `\`${f}\``).join(', ')}.
Then: ${t.next_steps.map((s) => `\`${s}\``).join('; ')}.
`,
  )
  .join('\n')}
## Endpoints

| Method | Path | What it does |
|---|---|---|
${OAUTH_ENDPOINTS.map((e) => `| ${e.method} | ${e.path} | ${e.purpose} |`).join('\n')}

A wrong method on any of them is answered \`405 method_not_allowed\` with an \`Allow\` header.

## Tokens

- Signed JWTs (JWS). The algorithm is **EdDSA** (Ed25519) when the operator configured a signing key; the public
  key is then in [jwks.json](${p(OAUTH_PATHS.jwks)}). Otherwise **HS256** with a server secret, and the key set is
  empty. Only the configured algorithm is accepted; \`alg: none\` never is. Every header carries a \`kid\`.
- Claims: \`iss\` (${u.base}), \`sub\`, \`aud\` (${u.base}, plus an RFC 8707 \`resource\` under it if you asked for one),
  \`iat\`, \`exp\`, \`jti\`, \`scope\`, \`client_id\`; tokens from the authorization-code flow also carry \`gid\`, the grant
  they descend from (what a replay or a revocation revokes).
- Kinds, by the \`typ\` header: access tokens \`${TOKEN_TYPES.access}\` (${ACCESS_TOKEN_TTL} s), identity assertions
  \`${TOKEN_TYPES.identityAssertion}\` (${ACCESS_TOKEN_TTL} s), refresh tokens \`${TOKEN_TYPES.refresh}\` (${REFRESH_TOKEN_TTL / 3600} h). A refresh token is
  never accepted as a bearer.
- Rotating the signing key makes every earlier token, assertion, refresh token and code fail verification.
- An instance started with no key configured generates one at start and logs a warning: its tokens stop working
  when it restarts. That is meant for development only.

## Revocation

\`POST ${p(OAUTH_PATHS.revoke)}\` with \`token=...\` (and optionally \`token_type_hint\`) always answers \`200\` with an
empty body. A revoked access token or identity assertion is refused as a bearer from then on (until it would have
expired); a revoked refresh token takes its whole grant with it, the access tokens minted from the same code
included (RFC 7009 §2.1).

## Single use and revocation

Authorization codes and refresh tokens are self-contained (codes are encrypted, tokens signed), and their use is
recorded in the deployment's shared store (Redis when the operator configures one, so every process sees it):

- A code is redeemed once. Presenting it again fails with \`invalid_grant\` **and revokes every token it issued**
  (RFC 9700 §4.5): if someone else redeemed your code first, their tokens stop working.
- A refresh token works once; the response carries its successor. Using a spent one again revokes the whole grant
  (the latest access and refresh tokens too): start again at \`/oauth/authorize\`.
- Tokens live as stated above; a token whose \`exp\` lies further ahead than its kind's lifetime is refused even
  when its signature is valid.

## Errors

Errors use the service's envelope, \`{"error": {"code": "...", "message": "...", "hint": "..."}}\`, with the
OAuth error strings as \`code\`:

| Status | code | When |
|---|---|---|
${OAUTH_ERRORS.map((e) => `| ${e.status} | \`${e.code}\` | ${e.when} |`).join('\n')}

More: [docs.md](${u.docsMd}) · [AGENTS.md](${u.agentsMd}) · [llms.txt](${u.llms}) · [OpenAPI](${u.openapi}) · [API catalog](${u.apiCatalog})
`;
}
