import { z } from 'zod';

/** x402 v2 PaymentRequirements (an element of accepts[]). */
export const X402RequirementsV2Schema = z.object({
  scheme: z.string(),
  network: z.string().regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, { message: 'must be a CAIP-2 chain id' }),
  amount: z.string().regex(/^\d+$/),
  asset: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.int().positive(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** x402 v2 PaymentRequired, base64-encoded in the PAYMENT-REQUIRED header. */
export const X402PaymentRequiredV2Schema = z.object({
  x402Version: z.literal(2),
  error: z.string().optional(),
  resource: z.object({ url: z.url(), description: z.string().optional(), mimeType: z.string().optional() }),
  accepts: z.array(X402RequirementsV2Schema).min(1),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type X402PaymentRequiredV2 = z.infer<typeof X402PaymentRequiredV2Schema>;

/** x402 v1 PaymentRequirements. */
export const X402RequirementsV1Schema = z.object({
  scheme: z.string(),
  network: z.string(),
  maxAmountRequired: z.string().regex(/^\d+$/),
  resource: z.url(),
  description: z.string(),
  mimeType: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.int().positive(),
  asset: z.string(),
  extra: z.record(z.string(), z.unknown()).optional(),
});

/** x402 v1 body shape, carried as JSON in X-Payment-Required. */
export const X402PaymentRequiredV1Schema = z.object({
  x402Version: z.literal(1),
  error: z.string().optional(),
  accepts: z.array(X402RequirementsV1Schema).min(1),
});

export const TipTermsSchema = z.object({
  protocols: z.array(z.enum(['x402', 'mpp'])),
  scheme: z.literal('stablecoin'),
  asset: z.literal('USDC'),
  network: z.string(),
  caip2: z.string(),
  assetAddress: z.string(),
  recipient: z.string(),
  minAmount: z.string(),
  suggestedAmount: z.string(),
  currency: z.literal('USD'),
  required: z.literal(false),
  facilitator: z.url(),
  discovery: z.url(),
});

export const PaymentMethodSchema = z.looseObject({
  type: z.enum(['x402', 'mpp', 'external']),
  description: z.string().optional(),
  url: z.url().optional(),
});

/** The body of POST /donate (always 402). */
export const DonateResponseSchema = z.object({
  title: z.string(),
  paymentMethods: z.array(PaymentMethodSchema),
  description: z.string().optional(),
  docs: z.url().optional(),
  configured: z.boolean(),
  terms: TipTermsSchema.optional(),
});
export type DonateResponse = z.infer<typeof DonateResponseSchema>;

/** /.well-known/x402/supported: the x402 facilitator "supported" shape. */
export const X402SupportedSchema = z.object({
  kinds: z.array(z.object({ x402Version: z.int(), scheme: z.string(), network: z.string(), extra: z.record(z.string(), z.unknown()).optional() })),
  extensions: z.array(z.string()),
  signers: z.record(z.string(), z.array(z.string())),
});

/** /.well-known/discovery/resources: the x402 Bazaar list shape. */
export const X402DiscoveryResourcesSchema = z.object({
  x402Version: z.literal(2),
  items: z.array(
    z.object({
      resource: z.url(),
      type: z.literal('http'),
      x402Version: z.int(),
      accepts: z.array(X402RequirementsV2Schema),
      lastUpdated: z.int(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  pagination: z.object({ limit: z.int(), offset: z.int(), total: z.int() }),
});
