import { z } from 'zod';

/**
 * /.well-known/ai-catalog.json: an AI Catalog (ai-catalog.org, specVersion 1.0) listing the MCP server card, the
 * discovery document the MCP server-card draft (SEP-2127) points agents to.
 */
export const AiCatalogSchema = z.object({
  specVersion: z.string().regex(/^\d+\.\d+$/),
  host: z
    .object({
      displayName: z.string(),
      identifier: z.string().optional(),
      documentationUrl: z.url().optional(),
      logoUrl: z.url().optional(),
    })
    .optional(),
  entries: z.array(
    z.object({
      identifier: z.string().min(1),
      type: z.string().min(1),
      url: z.url(),
      displayName: z.string().optional(),
      description: z.string().optional(),
      tags: z.array(z.string()).optional(),
      version: z.string().optional(),
      updatedAt: z.iso.datetime().optional(),
      publisher: z.object({ identifier: z.string(), displayName: z.string() }).optional(),
    }),
  ),
});
export type AiCatalog = z.infer<typeof AiCatalogSchema>;
