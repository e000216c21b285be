import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { semanticArtifact } from '../../build/search/semantic.ts';

/** Related terms for /ask's question understanding (WordNet and the show's co-occurrence statistics, build time). */
export const GET: APIRoute = async () => Response.json(await semanticArtifact(getContent()));
