/** GET /status: the health snapshot, from what the build made (no content is read here). */
import { json } from './errors.ts';
import type { Route } from './types.ts';
import { StatusResponseSchema, type StatusResponse } from '../contract/schemas/status.ts';

export const routes: Route[] = [
  {
    path: '/status',
    cors: true,
    methods: {
      GET: async (_req, ctx) => {
        const service = await ctx.data.service();
        const latest = service.episodes.at(-1);
        const body: StatusResponse = {
          status: 'ok',
          name: service.show.title,
          description: service.show.description,
          version: service.version,
          contentType: 'podcast',
          language: service.show.language,
          episodeCount: service.episodes.length,
          latestEpisode: latest ? { id: latest.id, title: latest.title, datePublished: latest.date ?? '' } : null,
          generated_at: service.generated_at,
        };
        return json(StatusResponseSchema.parse(body), { headers: { 'Cache-Control': 'no-cache' } });
      },
    },
  },
];
