/**
 * POST /donate: the optional tip. Always 402 Payment Required; nothing is ever behind it. With a wallet configured
 * the answer carries what x402 (v2 in PAYMENT-REQUIRED, v1 in X-Payment-Required) and MPP (a Payment challenge in
 * WWW-Authenticate) clients read, plus a JSON body for people and agents. Without one it still answers 402, with
 * the external tip page if there is one, and says plainly that tipping is not set up.
 */
import { base64url } from 'jose';
import { json } from '../errors.ts';
import type { Handler } from '../types.ts';
import { TIP, X402_DISCOVERY_PATH, X402_SUPPORTED_PATH, tipOffer, type TipAddresses, type TipOffer } from '../../contract/tips.ts';

export const postDonate: Handler = async (_request, ctx) => {
  const service = await ctx.data.service();
  const base = (ctx.env.siteUrl ?? service.show.siteUrl).replace(/\/+$/, '');
  const urls: TipAddresses = {
    base,
    donate: `${base}/donate`,
    supported: `${base}${X402_SUPPORTED_PATH}`,
    discovery: `${base}${X402_DISCOVERY_PATH}`,
    docs: `${base}/docs.md`,
  };
  const title = service.show.title;
  const tips = service.show.tips;
  const offer = tipOffer(tips, urls, title);

  const headers = new Headers({ 'Cache-Control': 'no-store' });
  headers.set(
    'Link',
    [
      `<${tips.url ?? urls.donate}>; rel="payment"`,
      `<${urls.supported}>; rel="x402-supported"`,
      `<${urls.discovery}>; rel="x402-discovery"`,
      `<${urls.docs}>; rel="help"`,
    ].join(', '),
  );
  if (offer.payable) {
    headers.set('WWW-Authenticate', await paymentChallenge(offer, urls, title));
    headers.set('PAYMENT-REQUIRED', base64Json(offer.paymentRequiredV2));
    headers.set('X-Payment-Required', asciiJson(offer.paymentRequiredV1));
  }

  const paymentMethods: Array<Record<string, unknown>> = [];
  if (offer.payable) {
    const n = offer.network!;
    const common = {
      scheme: TIP.scheme,
      asset: TIP.asset,
      network: n.name,
      recipient: offer.wallet,
      minAmount: TIP.minAmount,
      suggestedAmount: TIP.suggestedAmount,
      currency: TIP.currency,
      required: TIP.required,
    };
    paymentMethods.push({
      type: 'x402',
      description: `Pay with an x402 client: read the PAYMENT-REQUIRED header (x402 v2; v1 in X-Payment-Required), sign a USDC transfer on ${n.label} and repeat the request.`,
      ...common,
      x402Version: 2,
      caip2: n.caip2,
      assetAddress: n.usdc,
      accepts: offer.paymentRequiredV2!.accepts,
      facilitator: urls.supported,
      discovery: urls.discovery,
    });
    paymentMethods.push({
      type: 'mpp',
      description: 'Pay with a Machine Payments Protocol client: answer the Payment challenge in WWW-Authenticate.',
      ...common,
      caip2: n.caip2,
      assetAddress: n.usdc,
      intent: 'charge',
    });
  }
  if (tips.url) {
    paymentMethods.push({ type: 'external', url: tips.url, description: 'Tip on the podcast\'s tip page, in a browser.' });
  }

  const description = offer.payable
    ? `Tipping is voluntary and nothing here is behind a paywall. Send any amount from ${TIP.minAmount} USDC (${TIP.suggestedAmount} suggested) on ${offer.network!.label} to ${offer.wallet}${tips.url ? ', or use the tip page' : ''}.`
    : tips.url
      ? `Tipping by wallet is not set up for this podcast; tips are welcome on its tip page: ${tips.url}. Nothing here requires payment.`
      : 'Tipping is not set up for this podcast: no wallet address or tip page is configured. Nothing here requires payment.';

  return json(
    {
      title: `Tip ${title}`,
      paymentMethods,
      description,
      docs: urls.docs,
      configured: paymentMethods.length > 0,
      ...(offer.terms ? { terms: offer.terms } : {}),
    },
    { status: 402, headers },
  );
};

/**
 * An RFC 7235 challenge in the Payment scheme (the IETF draft MPP uses): id binds the parameters, request is the
 * base64url JSON of amount, currency (the USDC contract) and recipient; network and asset are named outright.
 */
async function paymentChallenge(offer: TipOffer, urls: TipAddresses, title: string): Promise<string> {
  const request = base64url.encode(asciiJson(offer.mppRequest));
  const realm = new URL(urls.base).host;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${realm}|evm|charge|${request}`)));
  const id = base64url.encode(digest.slice(0, 16));
  const params: Record<string, string> = {
    id,
    realm,
    method: 'evm',
    intent: 'charge',
    network: offer.network!.name,
    asset: TIP.asset,
    description: ascii(`Voluntary tip for ${title} (minimum ${TIP.minAmount}, suggested ${TIP.suggestedAmount} ${TIP.asset})`),
    request,
  };
  return `Payment ${Object.entries(params).map(([k, v]) => `${k}="${v.replace(/[\\"]/g, '')}"`).join(', ')}`;
}

/** Header values must be Latin-1; JSON escapes keep them ASCII. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function ascii(text: string): string {
  return text.normalize('NFKD').replace(/[^\x20-\x7e]/g, '');
}

function base64Json(value: unknown): string {
  return btoa(asciiJson(value));
}
