import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildSitemap } from '../components/sitemap.ts';

/** /sitemap.xml: the home page, search and every episode page (made from the content, not by crawling the build). */
export const GET: APIRoute = () =>
  new Response(buildSitemap(getContent()), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
