/**
 * The credential surface end to end, with oauth4webapi as the client against the real server: discovery,
 * registration, the PKCE authorization-code flow, every grant, refresh, revocation and the error table.
 */
import * as oauth from 'oauth4webapi';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';
import {
  AuthorizationServerMetadataSchema,
  ClaimResponseSchema,
  ClientRegistrationResponseSchema,
  OpenIdConfigurationSchema,
  ProtectedResourceMetadataSchema,
  RegistrationTemplatesResponseSchema,
  TokenResponseSchema,
} from '../../contract/schemas/oauth.ts';
import { RATE_ENV, SCOPE, authorize, envelope, form, oauthClient, oauthFailure, pkceAuthorization, type OAuthClient } from './helpers.ts';

const SECRET = 'flows-test-secret-0123456789-abcdefghijklmnop';
let server: RunningServer;
let c: OAuthClient;
const url = (path: string) => `${server.url}${path}`;

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { ...RATE_ENV, SIGNING_SECRET: SECRET } });
  c = await oauthClient(server);
});
afterAll(() => server?.stop());

describe('discovery', () => {
  it('publishes RFC 8414 metadata that oauth4webapi accepts, with agent_auth and its templates', async () => {
    const as = AuthorizationServerMetadataSchema.parse(c.as);
    expect(as.issuer).toBe(c.issuer);
    expect(as.response_types_supported).toEqual(['code']);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(as.grant_types_supported).toEqual(
      expect.arrayContaining(['authorization_code', 'client_credentials', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer']),
    );
    expect(as.scopes_supported).toEqual(SCOPE.split(' '));
    expect(as.agent_auth.registration_templates.map((t) => t.id)).toEqual(['anonymous-public-client', 'user-email-app', 'service-account']);
    expect(as.agent_auth.identity_types_supported).toEqual(['anonymous', 'identity_assertion']);
    expect(as.agent_auth.anonymous.credential_types_supported).toEqual(['access_token', 'api_key']);
    expect(as.agent_auth.identity_assertion.assertion_types_supported).toEqual(['urn:ietf:params:oauth:token-type:id-jag', 'verified_email']);
  });

  it('publishes RFC 9728 protected resource metadata pointing at the authorization server', async () => {
    const res = await oauth.resourceDiscoveryRequest(new URL(c.issuer), c.options);
    const rs = ProtectedResourceMetadataSchema.parse(await oauth.processResourceDiscoveryResponse(new URL(c.issuer), res));
    expect(rs.authorization_servers).toEqual([c.issuer]);
    expect(rs.agent_auth.register_uri).toBe(`${c.issuer}/oauth/register`);
  });

  it('mirrors the metadata at /.well-known/openid-configuration', async () => {
    const res = await oauth.discoveryRequest(new URL(c.issuer), { algorithm: 'oidc', ...c.options });
    const oidc = OpenIdConfigurationSchema.parse(await oauth.processDiscoveryResponse(new URL(c.issuer), res));
    expect(oidc.agent_auth).toEqual(c.as.agent_auth);
    expect(oidc.token_endpoint).toBe(c.as.token_endpoint);
  });

  it('answers GET /agent/auth with 401, a Bearer challenge and the envelope', async () => {
    const res = await fetch(url('/agent/auth'));
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(`realm="${c.issuer}"`);
    expect(challenge).toContain(`scope="${SCOPE}"`);
    expect(challenge).toContain(`resource_metadata="${c.issuer}/.well-known/oauth-protected-resource"`);
    expect(challenge).toContain(`auth_md="${c.issuer}/auth.md"`);
    const { code, hint } = await envelope(res);
    expect(code).toBe('unauthorized');
    expect(hint).toContain(`${c.issuer}/auth.md`);
  });

  it('answers a wrong method on every OAuth endpoint with 405 method_not_allowed and Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['POST', '/agent/auth', 'GET'],
      ['PUT', '/oauth/register', 'GET, HEAD, POST'],
      ['GET', '/oauth/claim', 'POST'],
      ['GET', '/oauth/token', 'POST'],
      ['GET', '/oauth/revoke', 'POST'],
      ['POST', '/oauth/jwks.json', 'GET'],
      ['POST', '/oauth/authorize', 'GET'],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await fetch(url(path), { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      const allow = res.headers.get('allow')!.split(/,\s*/);
      for (const m of allowed.split(', ')) expect(allow, path).toContain(m);
      expect((await envelope(res)).code).toBe('method_not_allowed');
    }
  });

  it('publishes an empty key set under HS256', async () => {
    const res = await fetch(url('/oauth/jwks.json'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ keys: [] });
  });
});

describe('registration (RFC 7591)', () => {
  it('lists the templates at GET /oauth/register, the same array as agent_auth.registration_templates', async () => {
    const body = RegistrationTemplatesResponseSchema.parse(await (await fetch(url('/oauth/register'))).json());
    expect(body.templates).toEqual(AuthorizationServerMetadataSchema.parse(c.as).agent_auth.registration_templates);
    for (const t of body.templates) {
      expect(t.request_body_template).toBeTypeOf('object');
      expect(Array.isArray(t.required_fields) && Array.isArray(t.optional_fields)).toBe(true);
    }
  });

  it('registers a public client (201) through oauth4webapi', async () => {
    const res = await oauth.dynamicClientRegistrationRequest(c.as, { redirect_uris: ['http://127.0.0.1:8765/callback'], application_type: 'native' }, c.options);
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // Contract: client_secret is null (oauth4webapi's processDynamicClientRegistrationResponse expects it absent).
    const body = ClientRegistrationResponseSchema.parse(await res.json());
    expect(body.client_id).toBe('public');
    expect(body.client_secret).toBeNull();
    expect(body.token_endpoint_auth_method).toBe('none');
    expect(body.grant_types).toEqual(['authorization_code', 'client_credentials', 'refresh_token']);
    expect(body.scope).toBe(SCOPE);
    expect(body.template).toBe('anonymous-public-client');
    expect(body.redirect_uris).toEqual(['http://127.0.0.1:8765/callback']);
  });

  it('echoes user_email with the user-email-app template, and a later claim binds it', async () => {
    const res = await fetch(url('/oauth/register'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ template: 'user-email-app', user_email: 'listener@example.com' }),
    });
    expect(res.status).toBe(201);
    const body = ClientRegistrationResponseSchema.parse(await res.json());
    expect(body.user_email).toBe('listener@example.com');
    expect(body.identity_type).toBe('identity_assertion');

    const claim = ClaimResponseSchema.parse(await (await fetch(url('/oauth/claim'), form({ identity_type: 'identity_assertion', user_email: body.user_email!, scope: SCOPE }))).json());
    expect(claim.user_email).toBe('listener@example.com');
    expect(decodeJwt(claim.identity_assertion)).toMatchObject({ email: 'listener@example.com', email_verified: false, sub: claim.subject });
  });

  it('registers a service account without redirect URIs', async () => {
    const res = await oauth.dynamicClientRegistrationRequest(c.as, { grant_types: ['client_credentials'] }, c.options);
    expect(res.status).toBe(201);
    expect((await res.json()).template).toBe('service-account');
  });

  it('rejects invalid redirect_uris with invalid_redirect_uri and bad metadata with invalid_client_metadata', async () => {
    const register = (body: unknown) =>
      fetch(url('/oauth/register'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    for (const uri of ['http://evil.example/callback', 'javascript:alert(1)', 'https://app.example/cb#frag', 'not a uri', 'data:text/html,hi']) {
      const res = await register({ redirect_uris: [uri] });
      expect(res.status, uri).toBe(400);
      const e = await envelope(res);
      expect(e.code, uri).toBe('invalid_redirect_uri');
      expect(e.hint).toMatch(/https/);
    }
    expect((await envelope(await register({ redirect_uris: 'https://x.example/cb' }))).code).toBe('invalid_redirect_uri');
    expect((await envelope(await register({ template: 'anonymous-public-client' }))).code).toBe('invalid_redirect_uri');
    for (const bad of [{ template: 'no-such-template' }, { user_email: 'not-an-email' }, { scope: 'write:everything' }, { token_endpoint_auth_method: 'client_secret_basic' }]) {
      const res = await register(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect((await envelope(res)).code, JSON.stringify(bad)).toBe('invalid_client_metadata');
    }
    // The allowed shapes: https anywhere, loopback http on any port, private-use schemes.
    const ok = await register({ redirect_uris: ['https://app.example/cb', 'http://[::1]:9999/cb', 'http://localhost/cb', 'com.example.app:/oauth2redirect'] });
    expect(ok.status).toBe(201);
  });
});

describe('authorization code with PKCE', () => {
  it('runs end to end: authorize → code → tokens → refresh, with claims per the contract', async () => {
    const { verifier, params, redirectUri, location } = await pkceAuthorization(c);
    expect(location.searchParams.get('iss')).toBe(c.issuer);
    const res = await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, verifier, c.options);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(c.as, c.client, res);
    TokenResponseSchema.parse({ ...tokens, token_type: 'Bearer' });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe(SCOPE);
    expect(tokens.refresh_token).toBeTypeOf('string');

    const header = decodeProtectedHeader(tokens.access_token);
    expect(header).toMatchObject({ alg: 'HS256', typ: 'at+jwt' });
    expect(header.kid).toBeTypeOf('string');
    const claims = decodeJwt(tokens.access_token);
    expect(claims).toMatchObject({ iss: c.issuer, aud: c.issuer, scope: SCOPE, client_id: 'public' });
    expect(claims.sub).toMatch(/^anonymous-/);
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(decodeProtectedHeader(tokens.refresh_token!).typ).toBe('rt+jwt');

    // The token is accepted as a bearer on a read endpoint.
    const search = await oauth.protectedResourceRequest(tokens.access_token, 'GET', new URL(`${c.issuer}/api/search?q=bees`), undefined, undefined, c.options as oauth.ProtectedResourceRequestOptions);
    expect(search.status).toBe(200);

    // Refresh: a new pair.
    const refreshed = await oauth.processRefreshTokenResponse(c.as, c.client, await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, c.options));
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).toBeTypeOf('string');
    expect(decodeJwt(refreshed.access_token).sub).toBe(claims.sub);

    // Narrowing the scope on refresh narrows the access token; the new refresh token keeps the grant's scope
    // (RFC 6749 §6: "identical to that of the refresh token included by the client"), so the next refresh may
    // ask for all of it again.
    const narrow = await oauth.processRefreshTokenResponse(
      c.as, c.client,
      await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, refreshed.refresh_token!, { ...c.options, additionalParameters: { scope: 'read:episodes' } }),
    );
    expect(narrow.scope).toBe('read:episodes');
    expect(decodeJwt(narrow.access_token).scope).toBe('read:episodes');
    expect(decodeJwt(narrow.refresh_token!).scope).toBe(decodeJwt(refreshed.refresh_token!).scope);
    const whole = await oauth.processRefreshTokenResponse(
      c.as, c.client,
      await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, narrow.refresh_token!, { ...c.options, additionalParameters: { scope: SCOPE } }),
    );
    expect(whole.scope).toBe(SCOPE);

    // The used refresh token is spent; using it again (RFC 9700 §4.14.2) revokes the whole grant, latest tokens included.
    const again = await oauthFailure(oauth.processRefreshTokenResponse(c.as, c.client, await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, c.options)));
    expect(again).toMatchObject({ status: 400, code: 'invalid_grant' });
    expect((await fetch(url('/api/search?q=bees'), { headers: { Authorization: `Bearer ${whole.access_token}` } })).status).toBe(401);
    const latest = await oauthFailure(oauth.processRefreshTokenResponse(c.as, c.client, await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, whole.refresh_token!, c.options)));
    expect(latest.code).toBe('invalid_grant');
  });

  it('binds the requested scope into the code', async () => {
    // A private-use scheme is redirected to once registered (loopback URIs need no registration).
    const reg = await fetch(url('/oauth/register'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['com.example.app:/callback'] }) });
    expect(reg.status).toBe(201);
    const { verifier, params, redirectUri } = await pkceAuthorization(c, 'com.example.app:/callback', 'search:episodes');
    const tokens = await oauth.processAuthorizationCodeResponse(c.as, c.client, await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, verifier, c.options));
    expect(tokens.scope).toBe('search:episodes');
    // A refresh cannot widen the grant.
    const widen = await oauthFailure(
      oauth.processRefreshTokenResponse(c.as, c.client, await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, { ...c.options, additionalParameters: { scope: SCOPE } })),
    );
    expect(widen.code).toBe('invalid_scope');
  });

  it('answers a wrong verifier with invalid_grant', async () => {
    const { params, redirectUri } = await pkceAuthorization(c);
    const wrong = oauth.generateRandomCodeVerifier();
    const e = await oauthFailure(oauth.processAuthorizationCodeResponse(c.as, c.client, await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, wrong, c.options)));
    expect(e).toMatchObject({ status: 400, code: 'invalid_grant' });
    expect(e.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a missing verifier with invalid_request', async () => {
    const { params, redirectUri } = await pkceAuthorization(c);
    const e = await oauthFailure(oauth.processAuthorizationCodeResponse(c.as, c.client, await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, oauth.nopkce, c.options)));
    expect(e).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(e.hint).toMatch(/code_verifier/);
  });

  it('makes codes single-use and binds them to the redirect_uri and the client', async () => {
    const first = await pkceAuthorization(c);
    const redeem = (redirectUri: string, extra?: Record<string, string>) =>
      oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, first.params, redirectUri, first.verifier, { ...c.options, additionalParameters: extra });
    expect((await oauthFailure(oauth.processAuthorizationCodeResponse(c.as, c.client, await redeem('http://127.0.0.1:9999/other')))).code).toBe('invalid_grant');
    const ok = await oauth.processAuthorizationCodeResponse(c.as, c.client, await redeem(first.redirectUri));
    expect(ok.access_token).toBeTypeOf('string');
    expect((await oauthFailure(oauth.processAuthorizationCodeResponse(c.as, c.client, await redeem(first.redirectUri)))).code).toBe('invalid_grant');

    const second = await pkceAuthorization(c);
    const res = await fetch(url('/oauth/token'), form({ grant_type: 'authorization_code', code: second.params.get('code')!, redirect_uri: second.redirectUri, code_verifier: second.verifier, client_id: 'someone-else' }));
    expect((await envelope(res))).toMatchObject({ status: 401, code: 'invalid_client' });
    // Alter the JWE ciphertext (the fourth part) of a fresh code: authenticated encryption must reject it.
    const parts = second.params.get('code')!.split('.');
    parts[3] = (parts[3]![0] === 'A' ? 'B' : 'A') + parts[3]!.slice(1);
    const tampered = parts.join('.');
    const res2 = await fetch(url('/oauth/token'), form({ grant_type: 'authorization_code', code: tampered, redirect_uri: second.redirectUri, code_verifier: second.verifier, client_id: 'public' }));
    expect((await envelope(res2))).toMatchObject({ status: 400, code: 'invalid_grant' });
  });

  it('answers response_type=token with 400 unsupported_response_type, without redirecting', async () => {
    const res = await authorize(c, { response_type: 'token', client_id: 'public', redirect_uri: 'http://127.0.0.1:8765/callback', state: 'x' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect((await envelope(res)).code).toBe('unsupported_response_type');
  });

  it('never redirects to an invalid redirect_uri', async () => {
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    for (const redirect_uri of ['http://evil.example/cb', 'javascript:alert(1)', 'https://app.example/cb#x', 'https://evil.example/cb', 'com.evil.app:/cb']) {
      const res = await authorize(c, { response_type: 'code', client_id: 'public', redirect_uri, code_challenge: challenge, code_challenge_method: 'S256' });
      expect(res.status, redirect_uri).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect((await envelope(res)).code).toBe('invalid_redirect_uri');
    }
  });

  it('sends PKCE and scope problems back to a valid redirect_uri as error parameters', async () => {
    const base = { response_type: 'code', client_id: 'public', redirect_uri: 'http://127.0.0.1:8765/callback', state: 's1' };
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'invalid_request'],
      [{ code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: challenge, code_challenge_method: 'S256', scope: 'admin' }, 'invalid_scope'],
    ];
    for (const [extra, error] of cases) {
      const res = await authorize(c, { ...base, ...extra });
      expect(res.status).toBe(302);
      const loc = new URL(res.headers.get('location')!);
      expect(loc.origin + loc.pathname).toBe('http://127.0.0.1:8765/callback');
      expect(loc.searchParams.get('error')).toBe(error);
      expect(loc.searchParams.get('state')).toBe('s1');
      expect(() => oauth.validateAuthResponse(c.as, c.client, loc, 's1')).toThrow(oauth.AuthorizationResponseError);
    }
  });
});

describe('other grants', () => {
  it('issues a token for client_credentials, without a refresh token', async () => {
    const tokens = await oauth.processClientCredentialsResponse(c.as, c.client, await oauth.clientCredentialsGrantRequest(c.as, c.client, c.auth, { scope: 'read:episodes search:episodes' }, c.options));
    expect(tokens.scope).toBe('read:episodes search:episodes');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeUndefined();
    expect(decodeJwt(tokens.access_token)).toMatchObject({ iss: c.issuer, client_id: 'public', sub: 'public' });
  });

  it('exchanges a claimed identity assertion with the jwt-bearer grant', async () => {
    const claimRes = await fetch(url('/oauth/claim'), form({ identity_type: 'identity_assertion', scope: SCOPE }));
    expect(claimRes.status).toBe(200);
    expect(claimRes.headers.get('cache-control')).toBe('no-store');
    const claim = ClaimResponseSchema.parse(await claimRes.json());
    expect(claim).toMatchObject({ token_type: 'identity_assertion', identity_type: 'identity_assertion', expires_in: 3600, replay_as_bearer: true, scope: SCOPE });
    expect(decodeProtectedHeader(claim.identity_assertion).typ).toBe('oauth-id-jag+jwt');

    const res = await oauth.genericTokenEndpointRequest(c.as, c.client, c.auth, 'urn:ietf:params:oauth:grant-type:jwt-bearer', { assertion: claim.identity_assertion, scope: 'read:transcripts' }, c.options);
    const tokens = await oauth.processGenericTokenEndpointResponse(c.as, c.client, res);
    expect(tokens.scope).toBe('read:transcripts');
    expect(decodeJwt(tokens.access_token).sub).toBe(claim.subject);

    // An access token is not an assertion, and garbage is not either.
    for (const assertion of [tokens.access_token, 'not.a.jwt']) {
      const bad = await oauthFailure(oauth.processGenericTokenEndpointResponse(c.as, c.client, await oauth.genericTokenEndpointRequest(c.as, c.client, c.auth, 'urn:ietf:params:oauth:grant-type:jwt-bearer', { assertion }, c.options)));
      expect(bad.code).toBe('invalid_grant');
    }
    const missing = await fetch(url('/oauth/token'), form({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer' }));
    expect((await envelope(missing)).code).toBe('invalid_request');
  });

  it('answers an unknown grant type with unsupported_grant_type', async () => {
    const e = await oauthFailure(oauth.processGenericTokenEndpointResponse(c.as, c.client, await oauth.genericTokenEndpointRequest(c.as, c.client, c.auth, 'urn:example:made-up', {}, c.options)));
    expect(e).toMatchObject({ status: 400, code: 'unsupported_grant_type' });
    expect((await envelope(await fetch(url('/oauth/token'), form({ grant_type: 'password', username: 'a', password: 'b' })))).code).toBe('unsupported_grant_type');
    expect((await envelope(await fetch(url('/oauth/token'), form({})))).code).toBe('invalid_request');
  });

  it('requires a form body at the token endpoint', async () => {
    const res = await fetch(url('/oauth/token'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"grant_type":"client_credentials"}' });
    expect(await envelope(res)).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('rejects an unknown scope and a foreign resource', async () => {
    expect((await envelope(await fetch(url('/oauth/token'), form({ grant_type: 'client_credentials', scope: 'read:episodes delete:everything' }))))).toMatchObject({ status: 400, code: 'invalid_scope' });
    expect((await envelope(await fetch(url('/oauth/token'), form({ grant_type: 'client_credentials', resource: 'https://elsewhere.example/' }))))).toMatchObject({ status: 400, code: 'invalid_target' });
    const withResource = await (await fetch(url('/oauth/token'), form({ grant_type: 'client_credentials', resource: `${c.issuer}/mcp` }))).json();
    expect(decodeJwt(withResource.access_token).aud).toEqual([c.issuer, `${c.issuer}/mcp`]);
  });
});

describe('revocation (RFC 7009)', () => {
  it('answers 200 with an empty body for any token or none, and retires a revoked refresh token', async () => {
    const { verifier, params, redirectUri } = await pkceAuthorization(c);
    const tokens = await oauth.processAuthorizationCodeResponse(c.as, c.client, await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, verifier, c.options));

    const revoke = await oauth.revocationRequest(c.as, c.client, c.auth, tokens.refresh_token!, { ...c.options, additionalParameters: { token_type_hint: 'refresh_token' } });
    expect(revoke.status).toBe(200);
    expect(await revoke.clone().text()).toBe('');
    await expect(oauth.processRevocationResponse(revoke)).resolves.toBeUndefined();
    const after = await oauthFailure(oauth.processRefreshTokenResponse(c.as, c.client, await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, c.options)));
    expect(after.code).toBe('invalid_grant');

    for (const init of [form({ token: tokens.access_token, token_type_hint: 'access_token' }), form({ token: 'garbage' }), form({}), { method: 'POST' }]) {
      const res = await fetch(url('/oauth/revoke'), init);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
    }
  });
});
