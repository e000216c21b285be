import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../content/site.ts';
import { buildChaptersJson } from '../../build/chapters.ts';
import type { LoadedEpisode } from '../../content/load.ts';

export const getStaticPaths = (() =>
  getContent()
    .episodes.filter((e) => e.chapters?.length)
    .map((episode) => ({ params: { id: String(episode.id) }, props: { episode } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(JSON.stringify(buildChaptersJson((props as { episode: LoadedEpisode }).episode)), {
    headers: { 'Content-Type': 'application/json+chapters' },
  });
