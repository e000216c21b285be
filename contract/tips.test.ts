import { describe, expect, it } from 'vitest';
import { X402PaymentRequiredV1Schema, X402PaymentRequiredV2Schema } from './schemas/donate.ts';
import { resolveNetwork, tipOffer, tipSettingsProblems, toBaseUnits, x402Supported } from './tips.ts';

const urls = {
  base: 'https://p.example',
  donate: 'https://p.example/donate',
  supported: 'https://p.example/.well-known/x402/supported',
  discovery: 'https://p.example/.well-known/discovery/resources',
  docs: 'https://p.example/docs.md',
};
const WALLET = '0x1111111111111111111111111111111111111111';

describe('toBaseUnits', () => {
  it('converts decimal USDC amounts to 6-decimal base units exactly', () => {
    expect(toBaseUnits('1.00')).toBe('1000000');
    expect(toBaseUnits('0.01')).toBe('10000');
    expect(toBaseUnits('12')).toBe('12000000');
    expect(toBaseUnits('0.000001')).toBe('1');
    expect(() => toBaseUnits('0.0000001')).toThrow();
    expect(() => toBaseUnits('1e3')).toThrow();
  });
});

describe('networks', () => {
  it('maps names and CAIP-2 ids to chains and USDC contracts', () => {
    expect(resolveNetwork(undefined)?.caip2).toBe('eip155:84532');
    expect(resolveNetwork('base-sepolia')).toMatchObject({ caip2: 'eip155:84532', usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' });
    expect(resolveNetwork('base')).toMatchObject({ caip2: 'eip155:8453', usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' });
    expect(resolveNetwork('eip155:8453')?.name).toBe('base');
    expect(resolveNetwork('solana')).toBeUndefined();
  });

  it('reports unusable settings for the build', () => {
    expect(tipSettingsProblems({ network: 'base', walletAddress: WALLET })).toEqual([]);
    expect(tipSettingsProblems({ network: 'polygon' })[0]).toMatch(/not supported/);
    expect(tipSettingsProblems({ network: 'base', walletAddress: 'alice.eth' })[0]).toMatch(/not an EVM address/);
  });
});

describe('tipOffer', () => {
  it('builds x402 v2 and v1 requirements for Base mainnet', () => {
    const offer = tipOffer({ network: 'base', walletAddress: WALLET }, urls, 'Show');
    expect(offer.payable).toBe(true);
    const v2 = X402PaymentRequiredV2Schema.parse(offer.paymentRequiredV2);
    expect(v2.accepts[0]).toMatchObject({ scheme: 'exact', network: 'eip155:8453', amount: '1000000', payTo: WALLET, extra: { name: 'USD Coin', version: '2' } });
    expect(v2.resource.url).toBe(urls.donate);
    const v1 = X402PaymentRequiredV1Schema.parse(offer.paymentRequiredV1);
    expect(v1.accepts[0]).toMatchObject({ network: 'base', maxAmountRequired: '1000000', resource: urls.donate });
    expect(x402Supported({ network: 'base', walletAddress: WALLET }).kinds.map((k) => k.network)).toEqual(['eip155:8453', 'base']);
  });

  it('offers nothing payable without a valid wallet', () => {
    expect(tipOffer({ network: 'base-sepolia' }, urls, 'Show').payable).toBe(false);
    expect(tipOffer({ network: 'base-sepolia', walletAddress: 'nope' }, urls, 'Show').payable).toBe(false);
    expect(x402Supported({ network: 'base-sepolia' }).kinds).toEqual([]);
  });
});
