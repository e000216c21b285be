import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildAuthMd } from '../build/discovery/auth-md.ts';

export const GET: APIRoute = () =>
  new Response(buildAuthMd(getContent()), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
