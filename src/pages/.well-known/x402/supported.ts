import type { APIRoute } from 'astro';
import { getContent } from '../../../content/site.ts';
import { buildX402Supported } from '../../../build/discovery/x402.ts';

export const GET: APIRoute = () => Response.json(buildX402Supported(getContent()));
