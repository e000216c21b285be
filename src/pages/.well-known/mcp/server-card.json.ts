import type { APIRoute } from 'astro';
import { getContent } from '../../../content/site.ts';
import { buildServiceData } from '../../../build/service-data.ts';
import { buildServerCard, identityFromService } from '../../../../contract/mcp/documents.ts';

/** The MCP server card, from the same tool registry tools/list answers with and the same show data as /service.json. */
export const GET: APIRoute = () => Response.json(buildServerCard(identityFromService(buildServiceData(getContent()))));
