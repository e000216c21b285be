import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildDocsMd } from '../build/docs.ts';
import { docsExtras } from '../build/docs-extras.ts';

export const GET: APIRoute = () =>
  new Response(buildDocsMd(getContent(), docsExtras(getContent())), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
