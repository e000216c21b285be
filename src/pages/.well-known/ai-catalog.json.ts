import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { buildServiceData } from '../../build/service-data.ts';
import { buildAiCatalog, identityFromService } from '../../../contract/mcp/documents.ts';

/** The AI Catalog that points agents at the MCP server card (server-card draft discovery). */
export const GET: APIRoute = () => {
  const service = buildServiceData(getContent());
  return Response.json(buildAiCatalog(identityFromService(service), service.show.topics, service.generated_at));
};
