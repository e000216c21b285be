import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../content/site.ts';
import { buildRss } from '../build/rss.ts';
import { RSS_PATH } from '../build/urls.ts';
import { bulkDocumentsWrittenByIntegration } from '../build/bulk-documents.ts';

/**
 * /rss.xml, the podcast feed. In `astro build` the bulk-documents integration writes it on its per-episode thread
 * (src/build/bulk-documents.ts showDocuments), so this route lists no path there; `astro dev` serves it from here.
 */
export const getStaticPaths = (() =>
  bulkDocumentsWrittenByIntegration() ? [] : [{ params: { feed: RSS_PATH.slice(1, -'.xml'.length) } }]) satisfies GetStaticPaths;

export const GET: APIRoute = () =>
  new Response(buildRss(getContent()), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
