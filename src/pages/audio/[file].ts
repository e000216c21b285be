import type { APIRoute, GetStaticPaths } from 'astro';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getContent } from '../../content/site.ts';

/** Bundled MP3s are published at /audio/<audioFile> unless the show keeps its audio elsewhere (audioBaseUrl). */
export const getStaticPaths = (() => {
  const { show, episodes, dirs } = getContent();
  if (show.audioBaseUrl) return [];
  return episodes
    .filter((e) => e.audioFile && existsSync(join(dirs.audio, e.audioFile)))
    .map((e) => ({ params: { file: e.audioFile! }, props: { path: join(dirs.audio, e.audioFile!), type: e.audioType } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(readFileSync((props as { path: string; type: string }).path), { headers: { 'Content-Type': (props as { type: string }).type } });
