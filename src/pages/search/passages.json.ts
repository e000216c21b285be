import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { searchArtifacts } from '../../build/search/artifacts.ts';

/** Where the transcript passages are: in chunks per episode, /search/passages/<id>/<chunk>.json. */
export const GET: APIRoute = async () => Response.json((await searchArtifacts(getContent())).passagesIndex);
