import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildRss } from '../build/rss.ts';

export const GET: APIRoute = () =>
  new Response(buildRss(getContent()), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
