import type { APIRoute } from 'astro';
import { getContent } from '../../content/site.ts';
import { searchArtifacts } from '../../build/search/artifacts.ts';

/** The transcript passages the Lunr index refers to: episode, start/end seconds and cues with start times. */
export const GET: APIRoute = async () => Response.json((await searchArtifacts(getContent())).passages);
