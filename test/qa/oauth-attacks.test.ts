/**
 * The OAuth attack matrix against one real server (HS256 with a known secret, so the test can forge correctly
 * signed tokens): redirect URIs an attacker chooses (RFC 9700 §4.1), codes and refresh tokens replayed, raced
 * and revoked (RFC 6749 §4.1.2, RFC 9700 §4.14), tokens that live too long. Every refusal is the contract's status
 * and envelope; nothing is redirected to a URI the service does not trust. It runs on every host the project
 * supports: npm start, the Cloudflare preview (where a code's single use is a Durable Object) and Bun.
 */
import { get as httpGet } from 'node:http';
import * as oauth from 'oauth4webapi';
import { SignJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { RunningServer } from '../helpers/server.ts';
import { HOSTS, startHost } from '../helpers/hosts.ts';
import { RATE_ENV, SCOPE, authorize, envelope, form, oauthClient, pkceAuthorization, type OAuthClient } from '../oauth/helpers.ts';

const SECRET = 'oauth-attacks-secret-0123456789-abcdefghijklm';
let server: RunningServer;
let c: OAuthClient;
const url = (path: string) => `${server.url}${path}`;


const register = (redirect_uris: string[]) =>
  fetch(url('/oauth/register'), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris }) });

async function authorizeTo(redirect_uri: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  const u = new URL(url('/oauth/authorize'));
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: 'public', redirect_uri, code_challenge: challenge, code_challenge_method: 'S256', state: 'st', ...extra })) {
    u.searchParams.set(k, v);
  }
  return fetch(u, { redirect: 'manual', headers });
}

async function expectNotRedirected(res: Response, label: string) {
  expect(res.status, label).toBe(400);
  expect(res.headers.get('location'), label).toBeNull();
  expect((await envelope(res)).code, label).toBe('invalid_redirect_uri');
}

const bearer = (token: string) => fetch(url('/api/search?q=bees'), { headers: { Authorization: `Bearer ${token}` } });

async function redeem(a: Awaited<ReturnType<typeof pkceAuthorization>>) {
  return fetch(url('/oauth/token'), form({ grant_type: 'authorization_code', code: a.params.get('code')!, redirect_uri: a.redirectUri, code_verifier: a.verifier, client_id: 'public' }));
}

describe.each(HOSTS)('%s host', (host) => {
  beforeAll(async () => {
    server = await startHost(host, { distDir: inject('distDir'), env: { ...RATE_ENV, SIGNING_SECRET: SECRET } });
    c = await oauthClient(server);
  });
  afterAll(() => server?.stop());

  describe('redirect URIs (RFC 9700 §4.1, RFC 8252)', () => {
    it('never sends a code or an error to a URI that is neither loopback, registered nor configured', async () => {
      for (const uri of ['https://evil.example/cb', 'com.evil.app:/cb', 'https://app.example/cb', 'http://evil.example/cb', 'HTTPS://evil.example/cb', 'https://127.0.0.1.evil.example/cb', 'https://localhost.evil.example/cb']) {
        await expectNotRedirected(await authorizeTo(uri), uri);
        // A problem that would otherwise travel back to the client is not sent there either.
        await expectNotRedirected(await authorizeTo(uri, { code_challenge_method: 'plain' }), `${uri} (bad PKCE)`);
      }
    });

    it('answers a browser with an HTML error page of its own, escaping what the request carried', async () => {
      const res = await authorizeTo('https://evil.example/<script>alert(1)</script>', {}, { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('invalid_redirect_uri');
      expect(html).not.toContain('<script>');
      expect(html).not.toMatch(/href="https:\/\/evil/);
    });

    it('redirects to loopback URIs on any port without registration', async () => {
      for (const uri of ['http://127.0.0.1:1/cb', 'http://127.0.0.1:65535/cb', 'http://[::1]:43210/x', 'http://localhost:9/cb']) {
        const res = await authorizeTo(uri);
        expect(res.status, uri).toBe(302);
        const location = new URL(res.headers.get('location')!);
        expect(location.href.startsWith(uri), uri).toBe(true);
        expect(location.searchParams.get('code')).toBeTruthy();
      }
    });

    it('redirects to a registered URI matched exactly, and to nothing near it', async () => {
      const registered = 'https://app.example/oauth/cb';
      await expectNotRedirected(await authorizeTo(registered), 'before registration');
      expect((await register([registered, 'com.example.listener:/oauth'])).status).toBe(201);
      expect((await authorizeTo(registered)).status).toBe(302);
      expect((await authorizeTo('com.example.listener:/oauth')).status).toBe(302);
      for (const near of [
        'https://app.example/oauth/cb/',
        'https://app.example/oauth/CB',
        'https://app.example/oauth/cb?x=1',
        'https://app.example:8443/oauth/cb',
        'https://APP.example/oauth/cb',
        'https://app.example/oauth/cb/../cb',
        'https://app.example@evil.example/oauth/cb',
        'https://evil.example/oauth/cb?https://app.example/oauth/cb',
        'com.example.listener:/oauth/x',
      ]) {
        await expectNotRedirected(await authorizeTo(near), near);
      }
    });

    it("redirects to a URI listed in the show's config without registration", async () => {
      const res = await authorizeTo('https://app.deepfield.example/oauth/callback');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(/^https:\/\/app\.deepfield\.example\/oauth\/callback\?code=/);
    });

    it('a browser is not sent on to a URI only its registrant vouches for: a page names it and links to it (RFC 9700 §4.11.2)', async () => {
      const BROWSER = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
      const phishing = 'https://phish.example/login';
      expect((await register([phishing])).status).toBe(201);
      const verifier = oauth.generateRandomCodeVerifier();
      const u = new URL(url('/oauth/authorize'));
      for (const [k, v] of Object.entries({ response_type: 'code', client_id: 'public', redirect_uri: phishing, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 'st' })) {
        u.searchParams.set(k, v);
      }
      const page = await fetch(u, { redirect: 'manual', headers: BROWSER });
      expect(page.status).toBe(200);
      expect(page.headers.get('location')).toBeNull();
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await page.text();
      expect(html).toContain('Continue to phish.example?');
      expect(html).toContain('<code>https://phish.example/login</code>');
      const links = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&#38;', '&'));
      expect(links).toHaveLength(2);
      const onward = new URL(links[0]!);
      expect(`${onward.origin}${onward.pathname}`).toBe(phishing);
      expect(onward.searchParams.get('state')).toBe('st');
      expect(links[1]).toBe(`${c.issuer}/`);
      // The code in the link is an ordinary one: the app that registered the URI redeems it.
      const redeemed = await fetch(url('/oauth/token'), form({ grant_type: 'authorization_code', code: onward.searchParams.get('code')!, redirect_uri: phishing, code_verifier: verifier, client_id: 'public' }));
      expect(redeemed.status).toBe(200);

      // Fetch Metadata alone marks a navigation (through node:http: fetch sends its own Sec-Fetch-Mode, cors); an error
      // for the registered URI waits for the person too.
      u.searchParams.set('code_challenge_method', 'plain');
      const failed = await new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
        httpGet(u, { headers: { 'Sec-Fetch-Mode': 'navigate', Accept: '*/*' } }, (res) => {
          let body = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
        }).on('error', reject);
      });
      expect(failed.status).toBe(200);
      expect(failed.location).toBeUndefined();
      const failedHtml = failed.body;
      expect(failedHtml).toContain('code_challenge_method must be S256.');
      expect(failedHtml).toMatch(/href="https:\/\/phish\.example\/login\?error=invalid_request&#38;/);

      // Accept alone marks a browser too, in any case (media types are case-insensitive).
      expect((await authorizeTo(phishing, {}, { Accept: 'TEXT/HTML' })).status).toBe(200);

      // An app fetching the endpoint itself is redirected at once; so is a browser to a URI the operator listed or
      // to a loopback one.
      expect((await authorizeTo(phishing)).status).toBe(302);
      for (const trusted of ['https://app.deepfield.example/oauth/callback', 'http://127.0.0.1:53682/cb']) {
        const res = await authorizeTo(trusted, {}, BROWSER);
        expect(res.status, trusted).toBe(302);
        expect(res.headers.get('location'), trusted).toMatch(/\?code=/);
      }
    });

    it('refuses to register what it would never redirect to', async () => {
      for (const uri of ['http://evil.example/cb', 'javascript:alert(1)', 'data:text/html,x', 'https://app.example/cb#f', 'file:///etc/passwd']) {
        const res = await register([uri]);
        expect(res.status, uri).toBe(400);
        expect((await envelope(res)).code).toBe('invalid_redirect_uri');
      }
    });
  });

  describe('authorization codes are single-use (RFC 6749 §4.1.2, RFC 9700 §4.5)', () => {
    it('a replayed code fails with invalid_grant and revokes the tokens the first redemption got', async () => {
      const a = await pkceAuthorization(c);
      const first = await redeem(a);
      expect(first.status).toBe(200);
      const tokens = (await first.json()) as { access_token: string; refresh_token: string };
      expect((await bearer(tokens.access_token)).status).toBe(200);

      const replay = await redeem(a);
      expect(await envelope(replay)).toMatchObject({ status: 400, code: 'invalid_grant' });
      expect(replay.headers.get('cache-control')).toBe('no-store');

      const after = await bearer(tokens.access_token);
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect((await envelope(after)).code).toBe('invalid_token');
      const refresh = await fetch(url('/oauth/token'), form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }));
      expect(await envelope(refresh)).toMatchObject({ status: 400, code: 'invalid_grant' });
    });

    it('of twenty concurrent redemptions of one code exactly one succeeds, and its tokens are then revoked', async () => {
      const a = await pkceAuthorization(c);
      const answers = await Promise.all(Array.from({ length: 20 }, () => redeem(a)));
      const ok = answers.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      for (const r of answers.filter((x) => x.status !== 200)) expect(await envelope(r)).toMatchObject({ status: 400, code: 'invalid_grant' });
      const { access_token } = (await ok[0]!.json()) as { access_token: string };
      expect((await bearer(access_token)).status).toBe(401);
    });
  });

  describe('refresh tokens and revocation', () => {
    it('a refresh token used twice revokes the whole grant', async () => {
      const a = await pkceAuthorization(c);
      const tokens = (await (await redeem(a)).json()) as { access_token: string; refresh_token: string };
      const next = (await (await fetch(url('/oauth/token'), form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }))).json()) as { access_token: string; refresh_token: string };
      expect((await bearer(next.access_token)).status).toBe(200);
      const stolen = await fetch(url('/oauth/token'), form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }));
      expect(await envelope(stolen)).toMatchObject({ status: 400, code: 'invalid_grant' });
      expect((await bearer(next.access_token)).status).toBe(401);
      expect((await bearer(tokens.access_token)).status).toBe(401);
      expect((await fetch(url('/oauth/token'), form({ grant_type: 'refresh_token', refresh_token: next.refresh_token }))).status).toBe(400);
    });

    it('a revoked access token or assertion is refused as a bearer; /oauth/revoke still answers 200 empty', async () => {
      const cc = (await (await fetch(url('/oauth/token'), form({ grant_type: 'client_credentials' }))).json()) as { access_token: string };
      const claim = (await (await fetch(url('/oauth/claim'), form({ identity_type: 'identity_assertion', scope: SCOPE }))).json()) as { identity_assertion: string };
      for (const token of [cc.access_token, claim.identity_assertion]) {
        expect((await bearer(token)).status).toBe(200);
        const res = await fetch(url('/oauth/revoke'), form({ token }));
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('');
        expect((await bearer(token)).status).toBe(401);
      }
      const exchange = await fetch(url('/oauth/token'), form({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: claim.identity_assertion }));
      expect(await envelope(exchange)).toMatchObject({ status: 400, code: 'invalid_grant' });
    });
  });

  describe('token lifetimes (the contract: one hour)', () => {
    const key = new TextEncoder().encode(SECRET);
    const forge = (overrides: JWTPayload, typ = 'at+jwt') => {
      const now = Math.floor(Date.now() / 1000);
      const payload = { iss: c.issuer, sub: 'attacker', aud: c.issuer, iat: now, exp: now + 3600, jti: crypto.randomUUID(), scope: SCOPE, client_id: 'public', ...overrides };
      return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ }).sign(key);
    };

    it('accepts a correctly signed token of the normal lifetime (the forger is right about everything else)', async () => {
      expect((await bearer(await forge({}))).status).toBe(200);
    });

    it('refuses correctly signed tokens that live longer than their kind allows, or were issued in the future', async () => {
      const now = Math.floor(Date.now() / 1000);
      const year = 365 * 24 * 3600;
      const cases: Array<[string, JWTPayload, string?]> = [
        ['access token, exp ten years ahead', { exp: now + 10 * year }],
        // iat given: forge() reads the clock again, a second later when a case before this one crossed a second.
        ['access token, exp 3601 s after iat', { iat: now, exp: now + 3601 }],
        ['access token, iat and exp both ten years ahead', { iat: now + 10 * year, exp: now + 10 * year + 60 }],
        ['access token, iat back-dated to widen the window', { iat: now - 10 * year, exp: now + 10 * year }],
        ['identity assertion, exp a day ahead', { exp: now + 86_400 }, 'oauth-id-jag+jwt'],
      ];
      for (const [label, overrides, typ] of cases) {
        const res = await bearer(await forge(overrides, typ));
        expect(res.status, label).toBe(401);
        expect((await envelope(res)).code, label).toBe('invalid_token');
      }
      const refresh = await forge({ exp: now + 30 * 86_400, gid: 'g' }, 'rt+jwt');
      expect(await envelope(await fetch(url('/oauth/token'), form({ grant_type: 'refresh_token', refresh_token: refresh })))).toMatchObject({ status: 400, code: 'invalid_grant' });
    });

    it('issues exactly one hour', async () => {
      const res = await (await fetch(url('/oauth/token'), form({ grant_type: 'client_credentials' }))).json();
      expect(res.expires_in).toBe(3600);
    });
  });

  describe('the authorization endpoint itself', () => {
    it('answers response_type other than code, and unknown clients, without redirecting', async () => {
      const a = await authorize(c, { response_type: 'token', client_id: 'public', redirect_uri: 'http://127.0.0.1:1/cb' });
      expect(await envelope(a)).toMatchObject({ status: 400, code: 'unsupported_response_type' });
      const b = await authorize(c, { response_type: 'code', client_id: 'evil', redirect_uri: 'http://127.0.0.1:1/cb' });
      expect(b.status).toBe(400);
      expect(b.headers.get('location')).toBeNull();
    });

    it('echoes what it refuses shortened, however long the value sent', async () => {
      // A query string stays under the server's 16 KB for the request line and headers, a form body under 64 KB.
      const inUrl = 'x'.repeat(8_000);
      const long = 'x'.repeat(30_000);
      const answers = [
        await authorize(c, { response_type: inUrl, client_id: 'public', redirect_uri: 'http://127.0.0.1:1/cb' }),
        await authorize(c, { response_type: 'code', client_id: inUrl, redirect_uri: 'http://127.0.0.1:1/cb' }),
        await fetch(url('/oauth/token'), form({ grant_type: long })),
        await fetch(url('/oauth/token'), form({ grant_type: 'client_credentials', scope: `${long} ${long}1` })),
        await fetch(url('/oauth/claim'), form({ identity_type: long })),
      ];
      for (const res of answers) {
        const text = await res.text();
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(text.length, text.slice(0, 200)).toBeLessThan(2000);
        expect(JSON.stringify(JSON.parse(text))).toContain(JSON.stringify(`"${'x'.repeat(40)}…"`).slice(1, -1));
      }
    });
  });
});
