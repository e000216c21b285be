import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { searchArtifacts } from '../../build/search/artifacts.ts';

/** The serialized Lunr index (public: offline apps load it with lunr.Index.load). */
export const GET: APIRoute = async () => Response.json((await searchArtifacts(getContent())).index);
