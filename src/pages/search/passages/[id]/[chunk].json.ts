import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../../content/site.ts';
import { searchArtifacts } from '../../../../build/search/artifacts.ts';

/** Chunk c of an episode's transcript passages (passages numbered from 0 as the index's postings refer to them). */
export const getStaticPaths = (async () =>
  [...(await searchArtifacts(getContent())).passages].flatMap(([id, chunks]) =>
    chunks.map((_, c) => ({ params: { id: String(id), chunk: String(c) } })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) =>
  Response.json((await searchArtifacts(getContent())).passages.get(Number(params.id))?.[Number(params.chunk)]);
