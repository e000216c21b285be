import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../content/site.ts';
import { bulkDocumentsWrittenByIntegration, SEARCH_DOCUMENTS, type SearchDocument } from '../../build/bulk-documents.ts';

/**
 * /search/lunr-index.json, /search/passages.json and /search/semantic.json (what each holds: SEARCH_DOCUMENTS).
 * In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
 */
export const getStaticPaths = (() =>
  bulkDocumentsWrittenByIntegration() ? [] : Object.keys(SEARCH_DOCUMENTS).map((document) => ({ params: { document } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => Response.json(await SEARCH_DOCUMENTS[params.document as SearchDocument](getContent()));
