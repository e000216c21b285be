/**
 * The tip terms as data, from the show's `tips` settings: what POST /donate answers (x402 v2 and v1 requirements,
 * the MPP-style Payment challenge, the body) and what /.well-known/x402/supported and
 * /.well-known/discovery/resources publish at build time. Pure functions, shared by the handler and the build.
 */

export const X402_SUPPORTED_PATH = '/.well-known/x402/supported';
export const X402_DISCOVERY_PATH = '/.well-known/discovery/resources';

export interface NetworkInfo {
  /** The x402 v1 / config name. */
  name: string;
  /** CAIP-2 chain id (x402 v2). */
  caip2: string;
  chainId: number;
  label: string;
  /** The USDC contract on that network. */
  usdc: string;
  /** The token's EIP-712 domain name and version, which exact-scheme clients sign with. */
  eip712: { name: string; version: string };
}

export const NETWORKS: Record<string, NetworkInfo> = {
  'base-sepolia': {
    name: 'base-sepolia',
    caip2: 'eip155:84532',
    chainId: 84532,
    label: 'Base Sepolia (testnet)',
    usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    eip712: { name: 'USDC', version: '2' },
  },
  base: {
    name: 'base',
    caip2: 'eip155:8453',
    chainId: 8453,
    label: 'Base',
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    eip712: { name: 'USD Coin', version: '2' },
  },
};

/** The contract's advertised terms. */
export const TIP = {
  protocols: ['x402', 'mpp'] as Array<'x402' | 'mpp'>,
  scheme: 'stablecoin' as const,
  asset: 'USDC' as const,
  decimals: 6,
  minAmount: '0.01',
  suggestedAmount: '1.00',
  currency: 'USD' as const,
  required: false as const,
  defaultNetwork: 'base-sepolia',
  /** x402's scheme for a fixed amount signed with EIP-3009. */
  x402Scheme: 'exact',
  maxTimeoutSeconds: 300,
};

export interface TipSettings {
  walletAddress?: string;
  network?: string;
  url?: string;
}

export interface TipAddresses {
  base: string;
  donate: string;
  supported: string;
  discovery: string;
  docs: string;
}

export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A network by config name ("base-sepolia", "base") or CAIP-2 id ("eip155:84532"). */
export function resolveNetwork(value: string | undefined): NetworkInfo | undefined {
  const key = (value ?? TIP.defaultNetwork).trim().toLowerCase();
  return NETWORKS[key] ?? Object.values(NETWORKS).find((n) => n.caip2 === key);
}

/** Problems with the tip settings, for the build to stop on (the handler degrades to "not set up" instead). */
export function tipSettingsProblems(tips: TipSettings): string[] {
  const problems: string[] = [];
  if (!resolveNetwork(tips.network)) {
    problems.push(`tips.network "${tips.network}" is not supported; use one of: ${Object.keys(NETWORKS).join(', ')} (or ${Object.values(NETWORKS).map((n) => n.caip2).join(', ')})`);
  }
  if (tips.walletAddress && !EVM_ADDRESS.test(tips.walletAddress)) {
    problems.push(`tips.walletAddress "${tips.walletAddress}" is not an EVM address (0x followed by 40 hex digits)`);
  }
  return problems;
}

/** "1.00" USDC → "1000000" (base units, 6 decimals), exactly, without floating point. */
export function toBaseUnits(amount: string, decimals = TIP.decimals): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new Error(`not a decimal amount: ${amount}`);
  const fraction = (match[2] ?? '').padEnd(decimals, '0');
  if (fraction.length > decimals) throw new Error(`${amount} has more than ${decimals} decimals`);
  return (BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction || '0')).toString();
}

export interface TipOffer {
  /** True when a wallet is configured on a supported network: x402 and MPP are offered. */
  payable: boolean;
  network?: NetworkInfo;
  wallet?: string;
  paymentRequiredV2?: Record<string, unknown>;
  paymentRequiredV1?: Record<string, unknown>;
  mppRequest?: Record<string, unknown>;
  terms?: Record<string, unknown>;
}

const DESCRIPTION = (title: string) => `Voluntary tip for ${title}. Nothing on this service requires payment.`;

export function tipOffer(tips: TipSettings, urls: TipAddresses, title: string): TipOffer {
  const network = resolveNetwork(tips.network);
  const wallet = tips.walletAddress && EVM_ADDRESS.test(tips.walletAddress) ? tips.walletAddress : undefined;
  if (!network || !wallet) return { payable: false, network };
  const amount = toBaseUnits(TIP.suggestedAmount);
  const description = DESCRIPTION(title);
  const extra = { name: network.eip712.name, version: network.eip712.version };
  const v2Requirement = {
    scheme: TIP.x402Scheme,
    network: network.caip2,
    amount,
    asset: network.usdc,
    payTo: wallet,
    maxTimeoutSeconds: TIP.maxTimeoutSeconds,
    extra,
  };
  return {
    payable: true,
    network,
    wallet,
    paymentRequiredV2: {
      x402Version: 2,
      error: `Optional tip: any amount from ${TIP.minAmount} USDC; ${TIP.suggestedAmount} suggested.`,
      resource: { url: urls.donate, description, mimeType: 'application/json' },
      accepts: [v2Requirement],
    },
    paymentRequiredV1: {
      x402Version: 1,
      error: `Optional tip: any amount from ${TIP.minAmount} USDC; ${TIP.suggestedAmount} suggested.`,
      accepts: [
        {
          scheme: TIP.x402Scheme,
          network: network.name,
          maxAmountRequired: amount,
          resource: urls.donate,
          description,
          mimeType: 'application/json',
          payTo: wallet,
          maxTimeoutSeconds: TIP.maxTimeoutSeconds,
          asset: network.usdc,
          extra,
        },
      ],
    },
    mppRequest: {
      amount,
      currency: network.usdc,
      recipient: wallet,
      methodDetails: { network: network.caip2, chainId: network.chainId, asset: TIP.asset, minAmount: toBaseUnits(TIP.minAmount) },
    },
    terms: {
      protocols: TIP.protocols,
      scheme: TIP.scheme,
      asset: TIP.asset,
      network: network.name,
      caip2: network.caip2,
      assetAddress: network.usdc,
      recipient: wallet,
      minAmount: TIP.minAmount,
      suggestedAmount: TIP.suggestedAmount,
      currency: TIP.currency,
      required: TIP.required,
      facilitator: urls.supported,
      discovery: urls.discovery,
    },
  };
}

/** /.well-known/x402/supported: the payment kinds this service advertises (none without a wallet). */
export function x402Supported(tips: TipSettings) {
  const network = resolveNetwork(tips.network);
  const payable = Boolean(network && tips.walletAddress && EVM_ADDRESS.test(tips.walletAddress));
  return {
    kinds:
      payable && network
        ? [
            { x402Version: 2, scheme: TIP.x402Scheme, network: network.caip2 },
            { x402Version: 1, scheme: TIP.x402Scheme, network: network.name },
          ]
        : [],
    extensions: [] as string[],
    signers: {} as Record<string, string[]>,
  };
}

/** /.well-known/discovery/resources: the one payable resource, POST /donate, in the x402 Bazaar list shape. */
export function x402DiscoveryResources(tips: TipSettings, urls: TipAddresses, title: string, lastUpdated: number) {
  const offer = tipOffer(tips, urls, title);
  const items = offer.payable
    ? [
        {
          resource: urls.donate,
          type: 'http' as const,
          x402Version: 2,
          accepts: (offer.paymentRequiredV2!.accepts as unknown[]) as Array<Record<string, unknown>>,
          lastUpdated,
          metadata: {
            method: 'POST',
            category: 'tip',
            provider: title,
            description: DESCRIPTION(title),
            minAmount: TIP.minAmount,
            suggestedAmount: TIP.suggestedAmount,
            currency: TIP.currency,
            required: false,
          },
        },
      ]
    : [];
  return { x402Version: 2 as const, items, pagination: { limit: 20, offset: 0, total: items.length } };
}
