/**
 * The MCP resource registry: which podcast:// addresses exist, their templates, and how a transcript is paged.
 * Pure functions, no I/O: the handlers (functions/mcp/resources.ts) read the data, the documents (documents.ts)
 * publish the templates, and both agree because both read this file.
 */
import type { ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';

export const SCHEME = 'podcast:';

/**
 * A transcript page (resources/read) and a get_transcript answer hold at most this many characters of
 * "[HH:MM:SS] text" lines: about 2,500 tokens, so one long episode never floods a context window.
 */
export const TRANSCRIPT_PAGE_CHARS = 10_000;

/** resources/list answers this many resources per page; nextCursor leads to the rest. */
export const RESOURCES_PAGE_SIZE = 25;

export const uris = {
  show: () => 'podcast://show',
  episode: (id: number) => `podcast://episodes/${id}`,
  transcript: (id: number, page = 1) => `podcast://episodes/${id}/transcript${page > 1 ? `?page=${page}` : ''}`,
  chapters: (id: number) => `podcast://episodes/${id}/chapters`,
};

/** resources/templates/list: every address with a parameter, as RFC 6570 templates. */
export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'podcast://episodes/{id}',
    name: 'episode',
    title: 'An episode',
    description: 'One episode by its number: title, date, duration, description, guests, topics, chapters and its links (JSON).',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'podcast://episodes/{id}/transcript{?page}',
    name: 'episode-transcript',
    title: "An episode's transcript",
    description:
      `What was said in an episode, one "[HH:MM:SS] Speaker: words" line per cue, in pages of at most ${TRANSCRIPT_PAGE_CHARS} ` +
      'characters. Page 1 has no ?page; each page ends by naming the next one.',
    mimeType: 'text/plain',
  },
  {
    uriTemplate: 'podcast://episodes/{id}/chapters',
    name: 'episode-chapters',
    title: "An episode's chapters",
    description: "An episode's chapters: start (seconds and HH:MM:SS), title, and a link that opens the episode at that moment (JSON).",
    mimeType: 'application/json',
  },
];

export type ParsedUri =
  | { kind: 'show' }
  | { kind: 'episode'; id: number }
  | { kind: 'transcript'; id: number; page: number }
  | { kind: 'chapters'; id: number };

/** A podcast:// address → what it names; undefined for anything this server does not publish. */
export function parseResourceUri(uri: string): ParsedUri | undefined {
  if (uri === uris.show()) return { kind: 'show' };
  const m = /^podcast:\/\/episodes\/([1-9]\d{0,8})(?:\/(transcript|chapters))?(?:\?page=([1-9]\d{0,5}))?$/.exec(uri);
  if (!m) return undefined;
  const id = Number(m[1]);
  if (m[3] !== undefined && m[2] !== 'transcript') return undefined;
  if (m[2] === 'transcript') return { kind: 'transcript', id, page: m[3] === undefined ? 1 : Number(m[3]) };
  if (m[2] === 'chapters') return { kind: 'chapters', id };
  return { kind: 'episode', id };
}

/** resources/list cursors are opaque to clients: the offset of the next page, base64url-encoded. */
export function encodeCursor(offset: number): string {
  return btoa(`o:${offset}`).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

export function decodeCursor(cursor: unknown): number | undefined {
  if (typeof cursor !== 'string') return undefined;
  try {
    const m = /^o:(\d{1,7})$/.exec(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Splits items (transcript lines) into pages of at most `budget` characters each, counting a newline per line.
 * A single line longer than the budget gets a page of its own rather than being cut. Returns index ranges.
 */
export function paginate(lengths: number[], budget = TRANSCRIPT_PAGE_CHARS): Array<{ from: number; to: number }> {
  const pages: Array<{ from: number; to: number }> = [];
  let from = 0;
  let used = 0;
  for (let i = 0; i < lengths.length; i++) {
    const size = lengths[i]! + 1;
    if (i > from && used + size > budget) {
      pages.push({ from, to: i });
      from = i;
      used = 0;
    }
    used += size;
  }
  if (from < lengths.length) pages.push({ from, to: lengths.length });
  return pages;
}
