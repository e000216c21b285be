import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { buildProtectedResourceMetadata } from '../../build/discovery/oauth.ts';

export const GET: APIRoute = () => Response.json(buildProtectedResourceMetadata(getContent()));
