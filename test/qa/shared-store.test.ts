/**
 * Single use across processes: two servers sharing a signing secret and one real redis-server, one on each
 * long-running host (npm start's Node, and Bun), so each runtime's Redis client is exercised. A code redeemed at
 * one is refused at the other (and the tokens the first got are revoked everywhere); a refresh token and a
 * revocation hold across both; a redirect URI registered at one is trusted by the other. With Redis killed both
 * keep answering (no 5xx) and still refuse a replay in the process that saw the first use; when Redis is back
 * they share again.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import * as oauth from 'oauth4webapi';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { startHost } from '../helpers/hosts.ts';
import { startRedis, stopRedis } from '../helpers/redis.ts';
import { freePort, waitForLog } from '../pipeline/util.ts';
import { RATE_ENV, envelope, form } from '../oauth/helpers.ts';

const SECRET = 'shared-store-secret-0123456789-abcdefghijklmn';
let redisPort: number;
let redis: ChildProcess | undefined;
let a: RunningServer;
let b: RunningServer;

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  const env = { ...RATE_ENV, SIGNING_SECRET: SECRET, REDIS_URL: `redis://127.0.0.1:${redisPort}` };
  [a, b] = await Promise.all([startServer({ distDir: inject('distDir'), env }), startHost('bun', { distDir: inject('distDir'), env })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await stopRedis(redis, 'SIGTERM');
});

async function code(server: RunningServer, redirectUri = 'http://127.0.0.1:8765/cb') {
  const verifier = oauth.generateRandomCodeVerifier();
  const u = new URL(`${server.url}/oauth/authorize`);
  const params = { response_type: 'code', client_id: 'public', redirect_uri: redirectUri, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  const res = await fetch(u, { redirect: 'manual' });
  expect(res.status, await res.clone().text()).toBe(302);
  return { code: new URL(res.headers.get('location')!).searchParams.get('code')!, verifier, redirectUri };
}

const redeem = (server: RunningServer, c: { code: string; verifier: string; redirectUri: string }) =>
  fetch(`${server.url}/oauth/token`, form({ grant_type: 'authorization_code', code: c.code, redirect_uri: c.redirectUri, code_verifier: c.verifier, client_id: 'public' }));
const bearer = (server: RunningServer, token: string) => fetch(`${server.url}/api/search?q=bees`, { headers: { Authorization: `Bearer ${token}` } });

describe('two processes (Node and Bun), one Redis, one signing secret', () => {
  it('redeem a code once in the whole deployment; the replay at the other process revokes the first tokens everywhere', async () => {
    const c = await code(a);
    const first = await redeem(a, c);
    expect(first.status).toBe(200);
    const tokens = (await first.json()) as { access_token: string; refresh_token: string };
    expect((await bearer(b, tokens.access_token)).status).toBe(200);

    expect(await envelope(await redeem(b, c))).toMatchObject({ status: 400, code: 'invalid_grant' });
    for (const s of [a, b]) expect((await bearer(s, tokens.access_token)).status).toBe(401);
    expect((await fetch(`${b.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }))).status).toBe(400);
  });

  it('let exactly one of concurrent redemptions at both processes succeed', async () => {
    const c = await code(b);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => redeem(i % 2 ? a : b, c)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(answers.filter((r) => r.status === 400)).toHaveLength(9);
  });

  it('rotate refresh tokens across processes, and a reuse at the other process revokes the grant', async () => {
    const tokens = (await (await redeem(a, await code(a))).json()) as { refresh_token: string };
    const next = (await (await fetch(`${a.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }))).json()) as { access_token: string };
    expect((await bearer(b, next.access_token)).status).toBe(200);
    expect((await fetch(`${b.url}/oauth/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }))).status).toBe(400);
    expect((await bearer(a, next.access_token)).status).toBe(401);
  });

  it('revoke at one process, refused at the other', async () => {
    const { access_token } = (await (await fetch(`${a.url}/oauth/token`, form({ grant_type: 'client_credentials' }))).json()) as { access_token: string };
    expect((await bearer(b, access_token)).status).toBe(200);
    expect((await fetch(`${b.url}/oauth/revoke`, form({ token: access_token }))).status).toBe(200);
    expect((await bearer(a, access_token)).status).toBe(401);
  });

  it('trust a redirect URI registered at the other process', async () => {
    const uri = `https://app-${crypto.randomUUID()}.example/cb`;
    const before = await fetch(`${b.url}/oauth/authorize?response_type=code&client_id=public&redirect_uri=${encodeURIComponent(uri)}`, { redirect: 'manual' });
    expect(before.status).toBe(400);
    const reg = await fetch(`${a.url}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [uri] }) });
    expect(reg.status).toBe(201);
    await code(b, uri);
  });

  it('survive Redis dying: no 5xx, a replay in the same process still refused; shared again when Redis is back', async () => {
    const fromA = a.logs.length;
    const fromB = b.logs.length;
    const redeemedBefore = await code(a);
    expect((await redeem(a, redeemedBefore)).status).toBe(200);
    await stopRedis(redis, 'SIGKILL');
    redis = undefined;

    // Still answered: a fresh flow works, a replay in the process that saw the first use is refused.
    const c = await code(a);
    expect((await redeem(a, c)).status).toBe(200);
    expect((await redeem(a, c)).status).toBe(400);
    expect((await redeem(a, redeemedBefore)).status).toBe(400);
    for (const s of [a, b]) expect((await fetch(`${s.url}/status`)).status).toBe(200);
    await waitForLog(a, (e) => e.msg === 'rate limit store unavailable; counting in this process until Redis is back', fromA);
    for (const s of [a, b]) expect(s.logs.slice(s === a ? fromA : fromB).some((l) => typeof l === 'object' && Number(l.status) >= 500)).toBe(false);

    redis = await startRedis(redisPort);
    await waitForLog(a, (e) => e.msg === 'rate limit store reconnected', fromA, 20_000);
    await waitForLog(b, (e) => e.msg === 'rate limit store reconnected', fromB, 20_000);
    const again = await code(b);
    expect((await redeem(b, again)).status).toBe(200);
    expect((await redeem(a, again)).status).toBe(400);
  });
});
