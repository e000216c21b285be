import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../../content/site.ts';
import { serviceEpisode } from '../../../build/service-data.ts';
import { siteUrls } from '../../../build/urls.ts';
import { bulkDocumentsWrittenByIntegration } from '../../../build/bulk-documents.ts';
import type { LoadedEpisode } from '../../../content/load.ts';

/** An episode's record, as /service.json lists it (contract/schemas/search-passages.ts, the layout's `records`). */
// In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
export const getStaticPaths = (() =>
  bulkDocumentsWrittenByIntegration()
    ? []
    : getContent().episodes.map((episode) => ({ params: { id: String(episode.id) }, props: { episode } }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  Response.json(serviceEpisode(siteUrls(getContent().show), (props as { episode: LoadedEpisode }).episode));
