import { z } from 'zod';
import { EpisodeSchema } from './episode.ts';

/** An episode as the handlers need it: the contract's fields plus its absolute addresses. */
export const ServiceEpisodeSchema = EpisodeSchema.extend({
  url: z.url(),
  audio: z.url().optional(),
  audioBytes: z.int().optional(),
  transcript: z.url().nullable(),
  chaptersUrl: z.url().optional(),
});
export type ServiceEpisode = z.infer<typeof ServiceEpisodeSchema>;

/** /service.json, written by the build (src/build/service-data.ts) and read once per process by the handlers. */
export const ServiceDataSchema = z.object({
  version: z.string(),
  generated_at: z.iso.datetime(),
  show: z.object({
    title: z.string(),
    description: z.string(),
    author: z.string(),
    language: z.string(),
    siteUrl: z.url(),
    artwork: z.url(),
    topics: z.array(z.string()),
    whenToRecommend: z.string().optional(),
    platforms: z.object({
      spotify: z.url().optional(),
      apple: z.url().optional(),
      amazon: z.url().optional(),
      youtube: z.url().optional(),
    }),
    tips: z.object({ walletAddress: z.string().optional(), network: z.string(), url: z.url().optional() }),
    /** Redirect URIs content/podcast.yaml trusts without registration (functions/oauth/redirects.ts). */
    oauth: z.object({ redirectUris: z.array(z.string()) }).optional(),
  }),
  urls: z.record(z.string(), z.url()),
  /** Sorted by id ascending. */
  episodes: z.array(ServiceEpisodeSchema),
});
export type ServiceData = z.infer<typeof ServiceDataSchema>;

/**
 * What the request path checks of /service.json when it loads it: everything but the episodes, and the first and
 * last episode. The build wrote it from this schema (test/documents checks the whole); parsing every episode cost
 * ~140 ms of the first search at N = 1,000 (bench/).
 */
export function trustedServiceData(json: unknown): ServiceData {
  const data = ServiceDataSchema.extend({ episodes: z.array(z.unknown()) }).parse(json);
  if (data.episodes.length) {
    ServiceEpisodeSchema.parse(data.episodes[0]);
    ServiceEpisodeSchema.parse(data.episodes.at(-1));
  }
  return data as ServiceData;
}
