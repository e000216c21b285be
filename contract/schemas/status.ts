import { z } from 'zod';

export const StatusResponseSchema = z.object({
  status: z.literal('ok'),
  name: z.string(),
  description: z.string().optional(),
  version: z.string().optional(),
  contentType: z.string().optional(),
  language: z.string().optional(),
  episodeCount: z.int().nonnegative().optional(),
  latestEpisode: z
    .object({ id: z.int(), title: z.string(), datePublished: z.string() })
    .nullable()
    .optional(),
  generated_at: z.iso.datetime().optional(),
});
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
