import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { searchArtifacts } from '../../../build/search/artifacts.ts';

/** An episode's transcript passages, numbered from 0 as the index's postings refer to them. */
export const getStaticPaths = (async () =>
  [...(await searchArtifacts(getContent())).passages.keys()].map((id) => ({ params: { id: String(id) } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => Response.json((await searchArtifacts(getContent())).passages.get(Number(params.id)));
