/**
 * Astro content collections over the content model. The loaders call the same validator as `npm run check`,
 * so a bad content file fails the build with every problem listed, before any page is rendered.
 */
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { getContent } from './content/site.ts';

const episodes = defineCollection({
  loader: async () =>
    getContent().episodes.map(({ cues: _cues, file: _file, ...episode }) => ({ ...episode, id: String(episode.id), number: episode.id })),
  schema: z.looseObject({ number: z.number() }),
});

const show = defineCollection({
  loader: async () => [{ ...getContent().show, id: 'show' }],
  schema: z.looseObject({ title: z.string() }),
});

export const collections = { episodes, show };
