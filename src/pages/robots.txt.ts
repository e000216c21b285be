import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildRobotsTxt } from '../components/sitemap.ts';

/** /robots.txt: everything may be crawled; points at the sitemap and the feed. */
export const GET: APIRoute = () =>
  new Response(buildRobotsTxt(getContent().show), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
