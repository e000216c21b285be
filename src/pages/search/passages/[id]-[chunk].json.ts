import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { searchArtifacts } from '../../../build/search/artifacts.ts';
import { bulkDocumentsWrittenByIntegration } from '../../../build/bulk-documents.ts';

/** Chunk c of an episode's transcript passages (passages numbered from 0 as the index's postings refer to them). */
// In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
export const getStaticPaths = (async () =>
  bulkDocumentsWrittenByIntegration()
    ? []
    : [...(await searchArtifacts(getContent())).passages].flatMap(([id, chunks]) =>
        chunks.map((_, c) => ({ params: { id: String(id), chunk: String(c) } })),
      )) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) =>
  Response.json((await searchArtifacts(getContent())).passages.get(Number(params.id))?.[Number(params.chunk)]);
