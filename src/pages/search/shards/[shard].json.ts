import { basename } from 'node:path';
import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { searchArtifacts } from '../../../build/search/artifacts.ts';
import { bulkDocumentsWrittenByIntegration } from '../../../build/bulk-documents.ts';
import { contentTypeFor } from '../../../../contract/http-policy.ts';

/**
 * Shard n of a segment of the transcript index (/search/shards/<segment>-<n>.json): a serialized Lunr index of the
 * segment's terms in its range (see lunr-index.json); and the segment's vocabulary files
 * (<segment>-v<bucket>.json). In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
 */
export const getStaticPaths = (async () => {
  if (bulkDocumentsWrittenByIntegration()) return [];
  return [...(await shardsByName()).keys()].map((shard) => ({ params: { shard } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const json = (await shardsByName()).get(params.shard ?? '');
  return json ? new Response(json(), { headers: { 'Content-Type': contentTypeFor('.json') } }) : new Response('Not found', { status: 404 });
};

/** Every file of every segment, by the name its path gives it ("<segment>-<n>", "<segment>-v<bucket>"). */
async function shardsByName() {
  const { shards } = await searchArtifacts(getContent());
  return new Map(shards.segments.flatMap((segment) => segment.files().map(([path, json]) => [basename(path, '.json'), json] as const)));
}
