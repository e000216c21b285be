import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../content/site.ts';
import { bulkDocumentsWrittenByIntegration, SEARCH_INDEX_PATH } from '../build/bulk-documents.ts';
import { buildSearchIndexJson } from '../build/search/search-index-document.ts';

/**
 * The contract's /search-index.json (SearchIndex: episode id → title, description and transcript text). In `astro
 * build` the bulk-documents integration writes it with the bulk documents (src/build/bulk-documents.ts
 * showDocuments, its gzip made from pieces kept per episode), so this route lists no path there. Serialized with
 * JSON.stringify rather than Response.json, whose own serializer took a third longer for these 58 MB at 1,000
 * hour-long episodes.
 */
export const getStaticPaths = (() =>
  bulkDocumentsWrittenByIntegration() ? [] : [{ params: { document: SEARCH_INDEX_PATH.slice(1, -'.json'.length) } }]) satisfies GetStaticPaths;

export const GET: APIRoute = () =>
  new Response(JSON.stringify(buildSearchIndexJson(getContent().episodes)), { headers: { 'content-type': 'application/json' } });
