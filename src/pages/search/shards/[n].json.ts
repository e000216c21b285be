import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { searchArtifacts } from '../../../build/search/artifacts.ts';
import { bulkDocumentsWrittenByIntegration } from '../../../build/bulk-documents.ts';

/** Shard n of the transcript index: a serialized Lunr index of the terms in its range (see lunr-index.json). */
// In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
export const getStaticPaths = (async () => {
  if (bulkDocumentsWrittenByIntegration()) return [];
  const { shards } = await searchArtifacts(getContent());
  return Array.from({ length: shards.length }, (_, n) => ({ params: { n: String(n) } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => Response.json((await searchArtifacts(getContent())).shards.get(Number(params.n)));
