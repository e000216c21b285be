/**
 * POST /donate against the real server: always 402, with headers real x402 clients read (checked with the x402
 * project's own decoder and schemas), an MPP-style Payment challenge and the contract's body; and without a wallet.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { PaymentRequiredV1Schema, PaymentRequiredV2Schema, PaymentRequirementsV2Schema } from '@x402/core/schemas';
import { base64url } from 'jose';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { buildSite } from '../helpers/build.ts';
import { DonateResponseSchema, X402DiscoveryResourcesSchema, X402SupportedSchema } from '../../contract/schemas/donate.ts';

const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';

/** RFC 8288 Link header → rel → target. */
function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>\s*;\s*rel="?([^";]+)"?/.exec(part.trim());
    if (m) for (const rel of m[2]!.split(/\s+/)) out[rel] = m[1]!;
  }
  return out;
}

/** auth-params of a challenge: name="value", ... */
function challengeParams(header: string): Record<string, string> {
  return Object.fromEntries([...header.matchAll(/([a-z_]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('with a wallet (the sample podcast)', () => {
  let server: RunningServer;
  let site: string;
  let wallet: string;
  const local = (url: string) => url.replace(site, server.url);

  beforeAll(async () => {
    server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
    const service = await (await fetch(`${server.url}/service.json`)).json();
    site = service.show.siteUrl;
    wallet = service.show.tips.walletAddress;
    expect(wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
  afterAll(() => server?.stop());

  it('always answers 402, whatever the body', async () => {
    for (const init of [{}, { body: '{"amount":"5"}', headers: { 'Content-Type': 'application/json' } }, { body: 'x', headers: { 'Content-Type': 'text/plain' } }]) {
      const res = await fetch(`${server.url}/donate`, { method: 'POST', ...init });
      expect(res.status).toBe(402);
    }
    const get = await fetch(`${server.url}/donate`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
  });

  it('carries x402 v2 in PAYMENT-REQUIRED that the x402 client library reads', async () => {
    const res = await fetch(`${server.url}/donate`, { method: 'POST' });
    const header = res.headers.get('payment-required')!;
    expect(header).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const decoded = PaymentRequiredV2Schema.parse(decodePaymentRequiredHeader(header));
    const body = await res.json();
    const viaClient = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((name) => res.headers.get(name), body);
    expect(viaClient).toEqual(decoded);
    expect(decoded.x402Version).toBe(2);
    expect(decoded.resource.url).toBe(`${site}/donate`);
    expect(decoded.accepts).toHaveLength(1);
    expect(decoded.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'eip155:84532',
      amount: '1000000', // 1.00 USDC, 6 decimals
      asset: BASE_SEPOLIA_USDC,
      payTo: wallet,
      extra: { name: 'USDC', version: '2' },
    });
    expect(decoded.accepts[0]!.maxTimeoutSeconds).toBeGreaterThan(0);
  });

  it('carries the x402 v1 requirements as JSON in X-Payment-Required', async () => {
    const res = await fetch(`${server.url}/donate`, { method: 'POST' });
    const v1 = PaymentRequiredV1Schema.parse(JSON.parse(res.headers.get('x-payment-required')!));
    expect(v1.x402Version).toBe(1);
    expect(v1.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'base-sepolia',
      maxAmountRequired: '1000000',
      resource: `${site}/donate`,
      payTo: wallet,
      asset: BASE_SEPOLIA_USDC,
    });
  });

  it('names network and asset in a Payment challenge whose request decodes to the terms', async () => {
    const res = await fetch(`${server.url}/donate`, { method: 'POST' });
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Payment /);
    const p = challengeParams(challenge);
    expect(p).toMatchObject({ network: 'base-sepolia', asset: 'USDC', intent: 'charge' });
    expect(p.id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(p.realm).toBe(new URL(site).host);
    const request = JSON.parse(new TextDecoder().decode(base64url.decode(p.request!)));
    expect(request).toMatchObject({ amount: '1000000', currency: BASE_SEPOLIA_USDC, recipient: wallet });
  });

  it('links rel=payment and rel=x402-supported, and the documents they point at exist', async () => {
    const res = await fetch(`${server.url}/donate`, { method: 'POST' });
    const rels = links(res.headers.get('link'));
    expect(rels.payment).toBeTruthy();
    expect(rels['x402-supported']).toBe(`${site}/.well-known/x402/supported`);
    const supported = X402SupportedSchema.parse(await (await fetch(local(rels['x402-supported']!))).json());
    expect(supported.kinds).toContainEqual({ x402Version: 2, scheme: 'exact', network: 'eip155:84532' });
    const discovery = X402DiscoveryResourcesSchema.parse(await (await fetch(local(rels['x402-discovery']!))).json());
    expect(discovery.items.map((i) => i.resource)).toEqual([`${site}/donate`]);
    expect(discovery.items[0]!.accepts.map((a) => PaymentRequirementsV2Schema.parse(a).payTo)).toEqual([wallet]);
  });

  it('describes the terms in the body: x402, mpp and external methods, 0.01 minimum, 1.00 suggested, USD, not required', async () => {
    const res = await fetch(`${server.url}/donate`, { method: 'POST' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = DonateResponseSchema.parse(await res.json());
    expect(body.title).toMatch(/Tip/);
    expect(body.paymentMethods.map((m) => m.type)).toEqual(['x402', 'mpp', 'external']);
    expect(body.docs).toBe(`${site}/docs.md`);
    expect(body.description).toMatch(/voluntary/i);
    expect(body.terms).toMatchObject({
      protocols: ['x402', 'mpp'],
      scheme: 'stablecoin',
      asset: 'USDC',
      network: 'base-sepolia',
      recipient: wallet,
      minAmount: '0.01',
      suggestedAmount: '1.00',
      currency: 'USD',
      required: false,
      facilitator: `${site}/.well-known/x402/supported`,
      discovery: `${site}/.well-known/discovery/resources`,
    });
    expect(body.paymentMethods.find((m) => m.type === 'external')!.url).toMatch(/^https:\/\//);
  });
});

describe('without a wallet', () => {
  let server: RunningServer;
  let contentDir: string;

  beforeAll(async () => {
    // The sample content with the wallet removed (the tip page stays).
    contentDir = mkdtempSync(join(tmpdir(), 'no-wallet-'));
    cpSync(resolve(import.meta.dirname, '../../content'), contentDir, { recursive: true });
    const config = parse(readFileSync(join(contentDir, 'podcast.yaml'), 'utf8'));
    delete config.tips.walletAddress;
    writeFileSync(join(contentDir, 'podcast.yaml'), stringify(config));
    const distDir = await buildSite({ name: 'no-wallet', env: { CONTENT_DIR: contentDir, TIP_WALLET_ADDRESS: '' } });
    server = await startServer({ distDir, env: { RATE_LIMIT_MAX: '100000' } });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(contentDir, { recursive: true, force: true });
  });

  it('still answers 402, with the external method only and a clear message', async () => {
    const res = await fetch(`${server.url}/donate`, { method: 'POST' });
    expect(res.status).toBe(402);
    expect(res.headers.get('payment-required')).toBeNull();
    expect(res.headers.get('x-payment-required')).toBeNull();
    expect(links(res.headers.get('link'))['x402-supported']).toMatch(/\/\.well-known\/x402\/supported$/);
    const body = DonateResponseSchema.parse(await res.json());
    expect(body.paymentMethods.map((m) => m.type)).toEqual(['external']);
    expect(body.description).toMatch(/not set up/);
    expect(body.terms).toBeUndefined();
    const supported = X402SupportedSchema.parse(await (await fetch(`${server.url}/.well-known/x402/supported`)).json());
    expect(supported.kinds).toEqual([]);
  });
});
