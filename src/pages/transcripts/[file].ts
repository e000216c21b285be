import type { APIRoute, GetStaticPaths } from 'astro';
import { getContent } from '../../content/site.ts';
import { renderTranscript, transcriptFiles, type TranscriptExt } from '../../build/transcripts.ts';
import { bulkDocumentsWrittenByIntegration } from '../../build/bulk-documents.ts';

/**
 * Each transcript at stable URLs the feed, the page and the API point at: /transcripts/<srtFile> (SubRip, the
 * editor's own file when it is one) and the same stem as .vtt (WebVTT) and .json (Podcasting 2.0 JSON).
 */
export const getStaticPaths = (() => {
  // In `astro build` the bulk-documents integration writes them (src/build/bulk-documents.ts).
  if (bulkDocumentsWrittenByIntegration()) return [];
  const { episodes } = getContent();
  return episodes.flatMap((e) =>
    e.transcript
      ? transcriptFiles(e).map((f) => ({ params: { file: f.file }, props: { source: e.transcript!, ext: f.ext, type: f.type } }))
      : [],
  );
}) satisfies GetStaticPaths;

interface Props {
  source: { path: string; format: 'srt' | 'vtt' };
  ext: TranscriptExt;
  type: string;
}

export const GET: APIRoute = ({ props }) => {
  const { source, ext, type } = props as Props;
  return new Response(renderTranscript(source, ext), { headers: { 'Content-Type': `${type}; charset=utf-8` } });
};
