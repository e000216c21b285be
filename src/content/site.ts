import { loadContentOrThrow, type LoadedContent } from './load.ts';

let cached: LoadedContent | undefined;

/** The validated content, read once per build process (every page and document shares it). */
export function getContent(): LoadedContent {
  cached ??= loadContentOrThrow(process.env.CONTENT_DIR || 'content');
  return cached;
}
