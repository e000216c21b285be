import type { APIRoute } from 'astro';
import { getContent } from '../content/site.ts';
import { buildEpisodesJson } from '../build/episodes.ts';

export const GET: APIRoute = () => Response.json(buildEpisodesJson(getContent().episodes));
