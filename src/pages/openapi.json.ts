import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildOpenApi } from '../build/discovery/openapi.ts';

export const GET: APIRoute = () => Response.json(buildOpenApi(getContent()));
