import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildServiceData } from '../build/service-data.ts';

export const GET: APIRoute = () => Response.json(buildServiceData(getContent()));
