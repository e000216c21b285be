import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildAgentsMd } from '../build/docs.ts';
import { docsExtras } from '../build/docs-extras.ts';

export const GET: APIRoute = () =>
  new Response(buildAgentsMd(getContent(), docsExtras(getContent())), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
