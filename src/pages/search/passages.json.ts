import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { searchArtifacts } from '../../build/search/artifacts.ts';

/** Where the transcript passages are: one file per episode, /search/passages/<id>.json. */
export const GET: APIRoute = async () => Response.json((await searchArtifacts(getContent())).passagesIndex);
