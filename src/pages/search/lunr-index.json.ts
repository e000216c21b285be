import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { searchArtifacts } from '../../build/search/artifacts.ts';

/**
 * The top of the search index (public: offline apps load it with lunr.Index.load): a Lunr index of the episodes'
 * metadata, and in `layout` where the transcript shards and the passages are (contract/schemas/search-passages.ts).
 */
export const GET: APIRoute = async () => Response.json((await searchArtifacts(getContent())).top);
