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
  const { shards } = await searchArtifacts(getContent());
  return shards.segments.flatMap((segment) => segment.first.map((_, n) => ({ params: { shard: `${segment.tag}-${n}` } })));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => {
  const { shards } = await searchArtifacts(getContent());
  const [, tag, n] = /^([0-9a-z]+)-(\d+)$/.exec(params.shard ?? '') ?? [];
  const segment = shards.segments.find((s) => s.tag === tag);
  if (!segment || Number(n) >= segment.first.length) return new Response('Not found', { status: 404 });
  return Response.json(segment.shards.get(Number(n)));
};
