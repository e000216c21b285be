import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { searchArtifacts } from '../../../build/search/artifacts.ts';

/** Shard n of the transcript index: a serialized Lunr index of the terms in its range (see lunr-index.json). */
export const getStaticPaths = (async () =>
  (await searchArtifacts(getContent())).shards.map((_, n) => ({ params: { n: String(n) } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => Response.json((await searchArtifacts(getContent())).shards[Number(params.n)]);
