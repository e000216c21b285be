import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { buildApiCatalog } from '../../build/discovery/api-catalog.ts';

/** No file extension: the server answers it as application/linkset+json (RFC 9727). */
export const GET: APIRoute = () =>
  new Response(JSON.stringify(buildApiCatalog(getContent())), { headers: { 'Content-Type': 'application/linkset+json' } });
