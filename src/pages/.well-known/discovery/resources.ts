import type { APIRoute } from 'astro';
import { getContent } from '../../../content/site.ts';
import { buildX402DiscoveryResources } from '../../../build/discovery/x402.ts';

export const GET: APIRoute = () => Response.json(buildX402DiscoveryResources(getContent()));
