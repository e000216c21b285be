import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { searchArtifacts } from '../../../build/search/artifacts.ts';
import { bulkDocumentsWrittenByIntegration } from '../../../build/bulk-documents.ts';

/** What /ask reads of chunk c of an episode's passages (contract/schemas/search-passages.ts, PassageTermsChunk). */
// In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
export const getStaticPaths = (async () =>
  bulkDocumentsWrittenByIntegration()
    ? []
    : [...(await searchArtifacts(getContent())).passageTerms].flatMap(([id, chunks]) =>
        chunks.map((_, c) => ({ params: { id: String(id), chunk: String(c) } })),
      )) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) =>
  Response.json((await searchArtifacts(getContent())).passageTerms.get(Number(params.id))?.[Number(params.chunk)]);
