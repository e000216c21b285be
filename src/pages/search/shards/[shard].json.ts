import { basename } from 'node:path';
import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { searchArtifacts } from '../../../build/search/artifacts.ts';
import { bulkDocumentsWrittenByIntegration } from '../../../build/bulk-documents.ts';

/**
 * Shard n of a segment of the transcript index (/search/shards/<segment>-<n>.json): a serialized Lunr index of the
 * segment's terms in its range (see lunr-index.json). In `astro build` the bulk-documents integration writes them
 * (src/build/bulk-documents.ts).
 */
export const getStaticPaths = (async () => {
  if (bulkDocumentsWrittenByIntegration()) return [];
  return [...(await shardsByName()).keys()].map((shard) => ({ params: { shard } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const shard = (await shardsByName()).get(params.shard ?? '');
  return shard ? Response.json(shard()) : new Response('Not found', { status: 404 });
};

/** Every shard of every segment, by the name its path gives it ("<segment>-<n>"). */
async function shardsByName() {
  const { shards } = await searchArtifacts(getContent());
  return new Map(
    shards.segments.flatMap((segment) => segment.first.map((_, n) => [basename(segment.shardPath(n), '.json'), () => segment.shards.get(n)] as const)),
  );
}
