import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../content/site.ts';
import { buildChaptersJson } from '../../build/chapters.ts';
import { bulkDocumentsWrittenByIntegration } from '../../build/bulk-documents.ts';
import type { LoadedEpisode } from '../../content/load.ts';

// In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
export const getStaticPaths = (() =>
  bulkDocumentsWrittenByIntegration()
    ? []
    : getContent()
        .episodes.filter((e) => e.chapters?.length)
        .map((episode) => ({ params: { id: String(episode.id) }, props: { episode } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(JSON.stringify(buildChaptersJson((props as { episode: LoadedEpisode }).episode)), {
    headers: { 'Content-Type': 'application/json+chapters' },
  });
