/**
 * bearerAuth() as createApp composes it, in process: tokens minted by the service's own token endpoint,
 * attack tokens built with jose, and a probe route that shows what the middleware put in ctx.auth.
 */
import { readServiceEnv } from '../env.ts';
import { SignJWT, base64url, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { DataStore } from '../data.ts';
import { json } from '../errors.ts';
import type { Logger, Route } from '../types.ts';
import { routes as oauthRoutes } from './routes.ts';

const ISSUER = 'https://podcast.example';
const SCOPE = 'read:episodes read:transcripts search:episodes';
const silent: Logger = { info() {}, warn() {}, error() {} };

const service = {
  version: '1.0.0',
  generated_at: '2026-01-01T00:00:00.000Z',
  show: {
    title: 'Test Show',
    description: 'd',
    author: 'a',
    language: 'en',
    siteUrl: ISSUER,
    artwork: `${ISSUER}/a.png`,
    topics: [],
    platforms: {},
    tips: { network: 'base-sepolia' },
  },
  urls: {},
  episodes: [],
};

const probe: Route = { path: '/probe', methods: { GET: (_req, ctx) => json({ auth: ctx.auth ?? null }), POST: (_req, ctx) => json({ auth: ctx.auth ?? null }) } };

function app(vars: Record<string, string>) {
  const data = new DataStore(async (path) => (path === '/service.json' ? Response.json(service) : new Response(null, { status: 404 })));
  const a = createApp({
    env: readServiceEnv({ ...vars, LOG_LEVEL: 'silent' }),
    data,
    log: silent,
    routes: [probe, ...oauthRoutes],
  });
  return (path: string, init?: RequestInit) => a.fetch(new Request(`http://127.0.0.1${path}`, init), { clientIp: '127.0.0.1' });
}

const formPost = (body: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(body),
});

function claims(overrides: JWTPayload = {}): JWTPayload {
  const now = Math.floor(Date.now() / 1000);
  return { iss: ISSUER, sub: 'x', aud: ISSUER, iat: now, exp: now + 3600, jti: crypto.randomUUID(), scope: SCOPE, client_id: 'public', ...overrides };
}

async function expect401(res: Response, label: string) {
  expect(res.status, label).toBe(401);
  expect(res.headers.get('www-authenticate'), label).toMatch(/^Bearer realm="https:\/\/podcast\.example", error="invalid_token", error_description="[^"]+", resource_metadata=/);
  expect((await res.json()).error.code, label).toBe('invalid_token');
}

describe('bearerAuth()', () => {
  it('passes requests without Authorization or with another scheme, and sets ctx.auth for valid tokens', async () => {
    const fetchApp = app({ SIGNING_SECRET: 'unit-secret-0123456789-abcdefghijklmnopqrstu' });
    expect(await (await fetchApp('/probe')).json()).toEqual({ auth: null });
    expect(await (await fetchApp('/probe', { headers: { Authorization: 'Basic cHVibGljOg==' } })).json()).toEqual({ auth: null });

    const token = await (await fetchApp('/oauth/token', formPost({ grant_type: 'client_credentials', scope: 'search:episodes' }))).json();
    const withToken = await fetchApp('/probe', { headers: { Authorization: `Bearer ${token.access_token}` } });
    expect(await withToken.json()).toEqual({ auth: { sub: 'public', scope: 'search:episodes', client_id: 'public' } });

    const claim = await (await fetchApp('/oauth/claim', formPost({ identity_type: 'identity_assertion' }))).json();
    const withAssertion = await (await fetchApp('/probe', { method: 'POST', headers: { Authorization: `Bearer ${claim.identity_assertion}` } })).json();
    expect(withAssertion.auth.sub).toBe(claim.subject);
  });

  it('rejects attack tokens under HS256', async () => {
    const secret = 'unit-secret-0123456789-abcdefghijklmnopqrstu';
    const fetchApp = app({ SIGNING_SECRET: secret });
    const key = new TextEncoder().encode(secret);
    const good = await (await fetchApp('/oauth/token', formPost({ grant_type: 'client_credentials' }))).json();
    const kid = JSON.parse(new TextDecoder().decode(base64url.decode(good.access_token.split('.')[0]))).kid;
    const sign = (p: JWTPayload, alg = 'HS256', k: CryptoKey | Uint8Array = key, typ = 'at+jwt') => new SignJWT(p).setProtectedHeader({ alg, kid, typ }).sign(k);
    expect((await fetchApp('/probe', { headers: { Authorization: `Bearer ${await sign(claims())}` } })).status).toBe(200);
    // RFC 9068 §4: "at+jwt" or "application/at+jwt", in any case.
    for (const typ of ['application/at+jwt', 'AT+JWT']) {
      expect((await fetchApp('/probe', { headers: { Authorization: `Bearer ${await sign(claims(), 'HS256', key, typ)}` } })).status, typ).toBe(200);
    }
    const noIat = await fetchApp('/probe', { headers: { Authorization: `Bearer ${await sign({ ...claims(), iat: undefined })}` } });
    expect(noIat.headers.get('www-authenticate')).toContain('lacks the iat claim');

    const now = Math.floor(Date.now() / 1000);
    // A refresh token needs a code flow (test/oauth covers it); a correctly signed rt+jwt stands in for it here.
    const refreshToken = await sign(claims(), 'HS256', key, 'rt+jwt');
    const [h, p, s] = good.access_token.split('.');
    const body = JSON.parse(new TextDecoder().decode(base64url.decode(p)));
    const tampered = `${h}.${base64url.encode(JSON.stringify({ ...body, scope: 'everything' }))}.${s}`;
    const none = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt' }))}.${base64url.encode(JSON.stringify(claims()))}.`;
    const attacker = await generateKeyPair('EdDSA');
    const cases: Record<string, string> = {
      expired: await sign(claims({ iat: now - 7200, exp: now - 3600 })),
      tampered,
      'alg none': none,
      'wrong issuer': await sign(claims({ iss: 'https://evil.example' })),
      'EdDSA token': await sign(claims(), 'EdDSA', attacker.privateKey),
      'refresh token': refreshToken,
      'no exp': await new SignJWT({ ...claims(), exp: undefined }).setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' }).sign(key),
      'missing client_id': await sign({ ...claims(), client_id: undefined }),
    };
    for (const [label, token] of Object.entries(cases)) {
      await expect401(await fetchApp('/probe', { headers: { Authorization: `Bearer ${token}` } }), label);
    }
    await expect401(await fetchApp('/probe', { headers: { Authorization: 'Bearer a b' } }), 'two tokens');
    // The authorization server and its metadata are exempt: a stale token never blocks getting a new one.
    expect((await fetchApp('/oauth/token', formPost({ grant_type: 'client_credentials' }, { Authorization: `Bearer ${tampered}` }))).status).toBe(200);
    expect((await fetchApp('/oauth/jwks.json', { headers: { Authorization: `Bearer ${tampered}` } })).status).toBe(200);
  });

  it('the token endpoint: one client per request, a 401 challenge for the Basic scheme used, resources without fragments', async () => {
    const fetchApp = app({ SIGNING_SECRET: 'unit-secret-0123456789-abcdefghijklmnopqrstu' });
    const basic = (user: string) => ({ Authorization: `Basic ${btoa(`${user}:x`)}` });
    expect((await fetchApp('/oauth/token', formPost({ grant_type: 'client_credentials' }, basic('public')))).status).toBe(200);
    const evil = await fetchApp('/oauth/token', formPost({ grant_type: 'client_credentials', client_id: 'public' }, basic('evil')));
    expect(evil.status).toBe(401);
    expect(evil.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
    expect((await evil.json()).error.code).toBe('invalid_client');
    const two = await fetchApp('/oauth/token', formPost({ grant_type: 'client_credentials', client_id: 'other' }, basic('public')));
    expect(two.status).toBe(400);
    const fragment = await fetchApp('/oauth/token', formPost({ grant_type: 'client_credentials', resource: `${ISSUER}/#frag` }));
    expect(fragment.status).toBe(400);
    expect((await fragment.json()).error.code).toBe('invalid_target');
  });

  it('rejects HS256 tokens keyed with the public key under EdDSA (alg confusion)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
    const fetchApp = app({ SIGNING_KEY: JSON.stringify(await exportJWK(privateKey)) });
    const jwks = await (await fetchApp('/oauth/jwks.json')).json();
    const kid = jwks.keys[0].kid;
    const pub = await exportJWK(publicKey);
    const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' }).sign(base64url.decode(pub.x!));
    await expect401(await fetchApp('/probe', { headers: { Authorization: `Bearer ${forged}` } }), 'alg confusion');
    const real = await new SignJWT(claims()).setProtectedHeader({ alg: 'EdDSA', kid, typ: 'at+jwt' }).sign(privateKey);
    expect((await fetchApp('/probe', { headers: { Authorization: `Bearer ${real}` } })).status).toBe(200);
  });
});
