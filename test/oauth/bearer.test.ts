/**
 * The bearer acceptance/rejection matrix against the real server, under HS256 (SIGNING_SECRET) and EdDSA
 * (SIGNING_KEY), plus key rotation. Every attack token is built here with jose.
 */
import * as oauth from 'oauth4webapi';
import {
  SignJWT,
  base64url,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  type CryptoKey,
  type JWTPayload,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { RATE_ENV, SCOPE, envelope, form, oauthClient, pkceAuthorization, type OAuthClient } from './helpers.ts';

const HS_SECRET = 'bearer-matrix-secret-0123456789-abcdefghijkl';

interface Fixture {
  server: RunningServer;
  c: OAuthClient;
  access: string;
  assertion: string;
  refresh: string;
}

async function fixture(env: Record<string, string>): Promise<Fixture> {
  const server = await startServer({ distDir: inject('distDir'), env: { ...RATE_ENV, ...env } });
  const c = await oauthClient(server);
  const cc = await oauth.processClientCredentialsResponse(c.as, c.client, await oauth.clientCredentialsGrantRequest(c.as, c.client, c.auth, {}, c.options));
  const claim = await (await fetch(`${server.url}/oauth/claim`, form({ identity_type: 'identity_assertion', scope: SCOPE }))).json();
  const { verifier, params, redirectUri } = await pkceAuthorization(c);
  const code = await oauth.processAuthorizationCodeResponse(c.as, c.client, await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, redirectUri, verifier, c.options));
  return { server, c, access: cc.access_token, assertion: claim.identity_assertion, refresh: code.refresh_token! };
}

/** A well-formed payload for this issuer, to be signed (or not) in the ways an attacker would. */
function claims(issuer: string, overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: issuer, sub: 'attacker', aud: issuer, iat: now, exp: now + 3600, jti: crypto.randomUUID(), scope: SCOPE, client_id: 'public', ...overrides };
}

function sign(payload: JWTPayload, alg: string, key: CryptoKey | Uint8Array, kid: string, typ = 'at+jwt'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, kid, typ }).sign(key);
}

function unsigned(payload: JWTPayload, kid: string): string {
  const enc = (v: unknown) => base64url.encode(JSON.stringify(v));
  return `${enc({ alg: 'none', typ: 'at+jwt', kid })}.${enc(payload)}.`;
}

/** Re-encodes the payload with a wider claim but keeps the original signature. */
function tamper(token: string): string {
  const [h, p, s] = token.split('.');
  const payload = JSON.parse(new TextDecoder().decode(base64url.decode(p!)));
  payload.sub = 'someone-else';
  return `${h}.${base64url.encode(JSON.stringify(payload))}.${s}`;
}

/** The two bearer targets: a read endpoint and the MCP endpoint. */
function requests(server: RunningServer) {
  return {
    search: (auth?: string) => fetch(`${server.url}/api/search?q=bees`, { headers: auth ? { Authorization: auth } : {} }),
    mcp: (auth?: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(auth ? { Authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }),
  };
}

async function expectRejected(res: Response, label: string) {
  expect(res.status, label).toBe(401);
  const challenge = res.headers.get('www-authenticate') ?? '';
  expect(challenge, label).toMatch(/^Bearer /);
  expect(challenge, label).toContain('error="invalid_token"');
  const e = await envelope(res);
  expect(e.code, label).toBe('invalid_token');
  expect(e.hint, label).toMatch(/oauth\/token/);
}

async function expectAccepted(res: Response, label: string) {
  expect(res.status, label).not.toBe(401);
  expect(res.status, label).toBeLessThan(500);
}

describe('HS256 (SIGNING_SECRET)', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture({ SIGNING_SECRET: HS_SECRET });
  });
  afterAll(() => f?.server.stop());

  it('signs with HS256 and a kid, and publishes no public key', async () => {
    expect(decodeProtectedHeader(f.access)).toMatchObject({ alg: 'HS256', typ: 'at+jwt' });
    expect(decodeProtectedHeader(f.access).kid).toMatch(/^hs-/);
    expect((await (await fetch(`${f.server.url}/oauth/jwks.json`)).json()).keys).toEqual([]);
  });

  it('accepts no credential, a valid access token and a claimed identity assertion', async () => {
    const r = requests(f.server);
    const plain = await r.search();
    expect(plain.status).toBe(200);
    const withToken = await r.search(`Bearer ${f.access}`);
    expect(withToken.status).toBe(200);
    // Same answer with or without a token: it grants nothing different.
    expect((await withToken.json()).results).toEqual((await plain.json()).results);
    expect((await r.search(`Bearer ${f.assertion}`)).status).toBe(200);
    expect((await r.search(`bearer ${f.access}`)).status).toBe(200);
    await expectAccepted(await r.mcp(`Bearer ${f.access}`), 'mcp access token');
    await expectAccepted(await r.mcp(`Bearer ${f.assertion}`), 'mcp assertion');
    // Another scheme is not a bearer credential: ignored.
    expect((await r.search('Basic cHVibGljOg==')).status).toBe(200);
  });

  it('rejects every bad bearer with 401 invalid_token on the read API and on POST /mcp', async () => {
    const iss = f.c.issuer;
    const kid = decodeProtectedHeader(f.access).kid!;
    const secret = new TextEncoder().encode(HS_SECRET);
    const attacker = await generateKeyPair('EdDSA');
    const now = Math.floor(Date.now() / 1000);
    // Sanity: correctly signed claims are accepted, so each rejection below is for its own reason.
    expect((await requests(f.server).search(`Bearer ${await sign(claims(iss), 'HS256', secret, kid)}`)).status).toBe(200);
    const bad: Record<string, string> = {
      expired: await sign(claims(iss, { iat: now - 7200, exp: now - 3600 }), 'HS256', secret, kid),
      tampered: tamper(f.access),
      'alg none': unsigned(claims(iss), kid),
      'wrong issuer': await sign(claims('https://evil.example'), 'HS256', secret, kid),
      'wrong audience': await sign(claims(iss, { aud: 'https://evil.example' }), 'HS256', secret, kid),
      'another secret': await sign(claims(iss), 'HS256', new TextEncoder().encode('some-other-secret-0123456789-abcdefghijklmn'), kid),
      'EdDSA by an attacker key': await sign(claims(iss), 'EdDSA', attacker.privateKey, kid),
      'refresh token': f.refresh,
      'unknown typ': await sign(claims(iss), 'HS256', secret, kid, 'JWT'),
      garbage: 'not-a-token',
    };
    const r = requests(f.server);
    for (const [label, token] of Object.entries(bad)) {
      await expectRejected(await r.search(`Bearer ${token}`), `search: ${label}`);
      await expectRejected(await r.mcp(`Bearer ${token}`), `mcp: ${label}`);
    }
    await expectRejected(await r.search('Bearer'), 'empty bearer');
  });

  it('never blocks the token endpoint with a stale bearer', async () => {
    const res = await fetch(`${f.server.url}/oauth/token`, {
      ...form({ grant_type: 'client_credentials' }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: 'Bearer expired.or.garbage' },
    });
    expect(res.status).toBe(200);
  });

  it('makes tokens fail after a restart with another secret (rotation)', async () => {
    const rotated = await startServer({ distDir: inject('distDir'), env: { ...RATE_ENV, SIGNING_SECRET: `${HS_SECRET}-rotated` } });
    try {
      await expectRejected(await requests(rotated).search(`Bearer ${f.access}`), 'old HS256 token after rotation');
      // The same secret after a restart keeps tokens valid.
      const same = await startServer({ distDir: inject('distDir'), env: { ...RATE_ENV, SIGNING_SECRET: HS_SECRET } });
      try {
        expect((await requests(same).search(`Bearer ${f.access}`)).status).toBe(200);
      } finally {
        await same.stop();
      }
    } finally {
      await rotated.stop();
    }
  });
});

describe('EdDSA (SIGNING_KEY)', () => {
  let f: Fixture;
  let publicPem: string;
  let publicX: Uint8Array;
  let privateKey: CryptoKey;
  beforeAll(async () => {
    const pair = await generateKeyPair('EdDSA', { extractable: true });
    privateKey = pair.privateKey;
    const { publicKey } = pair;
    const jwk = await exportJWK(privateKey);
    publicPem = await exportSPKI(publicKey);
    publicX = base64url.decode((await exportJWK(publicKey)).x!);
    f = await fixture({ SIGNING_KEY: JSON.stringify(jwk) });
  });
  afterAll(() => f?.server.stop());

  it('signs with EdDSA and publishes the public key, which verifies the token (oauth4webapi)', async () => {
    const header = decodeProtectedHeader(f.access);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt' });
    const jwks = await (await fetch(`${f.server.url}/oauth/jwks.json`)).json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: header.kid });
    expect(jwks.keys[0].d).toBeUndefined();
    const request = new Request(`${f.c.issuer}/api/search?q=bees`, { headers: { Authorization: `Bearer ${f.access}` } });
    const verified = await oauth.validateJwtAccessToken(f.c.as, request, f.c.issuer, f.c.options);
    expect(verified).toMatchObject({ iss: f.c.issuer, client_id: 'public', scope: SCOPE });
  });

  it('accepts valid credentials on the read API and POST /mcp', async () => {
    const r = requests(f.server);
    expect((await r.search(`Bearer ${f.access}`)).status).toBe(200);
    expect((await r.search(`Bearer ${f.assertion}`)).status).toBe(200);
    await expectAccepted(await r.mcp(`Bearer ${f.access}`), 'mcp');
  });

  it('rejects alg confusion (HS256 signed with the public key), alg none, expiry, tampering, other issuers and refresh tokens', async () => {
    // Sanity: the same key and claims, correctly signed, are accepted, so each rejection below is for its own reason.
    const control = await sign(claims(f.c.issuer), 'EdDSA', privateKey, decodeProtectedHeader(f.access).kid!);
    expect((await requests(f.server).search(`Bearer ${control}`)).status).toBe(200);
    const iss = f.c.issuer;
    const kid = decodeProtectedHeader(f.access).kid!;
    const now = Math.floor(Date.now() / 1000);
    const other = await generateKeyPair('EdDSA');
    const bad: Record<string, string> = {
      'HS256 keyed with the public PEM': await sign(claims(iss), 'HS256', new TextEncoder().encode(publicPem), kid),
      'HS256 keyed with the raw public key': await sign(claims(iss), 'HS256', publicX, kid),
      'alg none': unsigned(claims(iss), kid),
      expired: await sign(claims(iss, { iat: now - 7200, exp: now - 3600 }), 'EdDSA', privateKey, kid),
      'wrong issuer': await sign(claims('https://evil.example'), 'EdDSA', privateKey, kid),
      tampered: tamper(f.access),
      'another Ed25519 key': await sign(claims(iss), 'EdDSA', other.privateKey, kid),
      'refresh token': f.refresh,
    };
    const r = requests(f.server);
    for (const [label, token] of Object.entries(bad)) {
      await expectRejected(await r.search(`Bearer ${token}`), `search: ${label}`);
      await expectRejected(await r.mcp(`Bearer ${token}`), `mcp: ${label}`);
    }
  });

  it('makes earlier tokens fail after rotating to another key (PKCS#8 PEM this time)', async () => {
    const next = await generateKeyPair('EdDSA', { extractable: true });
    const rotated = await startServer({ distDir: inject('distDir'), env: { ...RATE_ENV, SIGNING_KEY: await exportPKCS8(next.privateKey) } });
    try {
      const jwks = await (await fetch(`${rotated.url}/oauth/jwks.json`)).json();
      expect(jwks.keys[0].kid).not.toBe(decodeProtectedHeader(f.access).kid);
      const r = requests(rotated);
      await expectRejected(await r.search(`Bearer ${f.access}`), 'access token after rotation');
      await expectRejected(await r.search(`Bearer ${f.assertion}`), 'assertion after rotation');
      const refresh = await fetch(`${rotated.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: f.refresh }));
      expect((await envelope(refresh)).code).toBe('invalid_grant');
      // The new key works.
      const fresh = await (await fetch(`${rotated.url}/oauth/token`, form({ grant_type: 'client_credentials' }))).json();
      expect((await r.search(`Bearer ${fresh.access_token}`)).status).toBe(200);
    } finally {
      await rotated.stop();
    }
  });
});

describe('no key configured (development)', () => {
  it('starts, warns in the log, and its tokens do not survive a restart', async () => {
    const env = { ...RATE_ENV, SIGNING_KEY: '', SIGNING_SECRET: '' };
    const first = await startServer({ distDir: inject('distDir'), env });
    let token: string;
    try {
      const res = await (await fetch(`${first.url}/oauth/token`, form({ grant_type: 'client_credentials' }))).json();
      token = res.access_token;
      expect((await requests(first).search(`Bearer ${token}`)).status).toBe(200);
      const warning = first.logs.find((l) => typeof l === 'object' && l.level === 'warn' && String(l.msg).includes('SIGNING_KEY'));
      expect(warning, JSON.stringify(first.logs)).toBeDefined();
    } finally {
      await first.stop();
    }
    const second = await startServer({ distDir: inject('distDir'), env });
    try {
      await expectRejected(await requests(second).search(`Bearer ${token}`), 'dev token after restart');
    } finally {
      await second.stop();
    }
  });
});
