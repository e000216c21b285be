import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildLlmsTxt } from '../build/llms.ts';

export const GET: APIRoute = () =>
  new Response(buildLlmsTxt(getContent()), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
