import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildSearchIndexJson } from '../build/search/artifacts.ts';

/** The contract's SearchIndex: episode id → title, description and transcript text. */
export const GET: APIRoute = () => Response.json(buildSearchIndexJson(getContent().episodes));
