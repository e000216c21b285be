import { z } from 'zod';

const Link = z.object({ href: z.url(), type: z.string().optional(), title: z.string().optional() });

/** RFC 9727 api-catalog, served as application/linkset+json. */
export const ApiCatalogSchema = z.object({
  linkset: z.array(
    z.object({
      anchor: z.url(),
      'service-desc': z.array(Link).optional(),
      'service-doc': z.array(Link).optional(),
      'service-meta': z.array(Link).optional(),
      status: z.array(Link).optional(),
      related: z.array(Link).optional(),
    }),
  ),
});
export type ApiCatalog = z.infer<typeof ApiCatalogSchema>;
