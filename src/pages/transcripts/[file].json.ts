import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../content/site.ts';
import { transcriptJson } from '../../build/transcripts.ts';
import { transcriptJsonFile } from '../../../contract/schemas/transcript.ts';

/** Each transcript also as Podcasting 2.0 JSON at /transcripts/<name>.json (apps, and get_transcript, read it). */
export const getStaticPaths = (() => {
  const { episodes } = getContent();
  return episodes
    .filter((e) => e.hasSrt && e.srtFile)
    .map((e) => ({ params: { file: transcriptJsonFile(e.srtFile!).replace(/\.json$/, '') }, props: { id: e.id } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const episode = getContent().episodes.find((e) => e.id === (props as { id: number }).id)!;
  return new Response(JSON.stringify(transcriptJson(episode)), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
};
