import type { APIRoute, GetStaticPaths } from 'astro';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getContent } from '../../content/site.ts';

/** Each transcript is published as-is at /transcripts/<srtFile>, the stable URL the feed and the API point at. */
export const getStaticPaths = (() => {
  const { episodes, dirs } = getContent();
  return episodes
    .filter((e) => e.hasSrt && e.srtFile)
    .map((e) => ({ params: { file: e.srtFile! }, props: { path: join(dirs.transcripts, e.srtFile!) } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(readFileSync((props as { path: string }).path), {
    headers: { 'Content-Type': 'application/x-subrip; charset=utf-8' },
  });
