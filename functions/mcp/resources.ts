/**
 * resources/list, resources/templates/list and resources/read: the show, every episode, its transcript (text with
 * timestamps, paged) and its chapters as podcast:// resources, plus the player UI (ui://) for MCP Apps hosts. All of
 * it is read from what the build published (ctx.data), like the tools.
 */
import type { ListResourcesResult, ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceData, ServiceEpisode } from '../../contract/schemas/service-data.ts';
import type { RequestContext } from '../types.ts';
import { quoteInput } from '../errors.ts';
import { RPC_ERROR, RpcError, type Params } from '../../contract/mcp/protocol.ts';
import {
  RESOURCES_PAGE_SIZE,
  RESOURCE_TEMPLATES,
  decodeCursor,
  encodeCursor,
  parseResourceUri,
  uris,
} from '../../contract/mcp/resources.ts';
import { formatTimestamp, parseDuration } from '../../contract/duration.ts';
import { PLAYER_URI } from '../../contract/mcp/app.ts';
import { playerResource, playerResourceEntry } from './app.ts';
import { cueLine, loadCues, pageCues } from './transcript.ts';

/** MCP's "Resource not found" code (resources/read of an address that does not exist). */
export const RESOURCE_NOT_FOUND = -32002;

export const hasTranscript = (e: ServiceEpisode) => Boolean(e.transcript && e.srtFile && e.hasSrt !== false);
const hasChapters = (e: ServiceEpisode) => Boolean(e.chapters?.length);

/** Every direct resource, in the order resources/list pages through them: the show, the player, then episodes newest first. */
export function allResources(service: ServiceData, ctx: RequestContext): Resource[] {
  const out: Resource[] = [
    {
      uri: uris.show(),
      name: 'show',
      title: service.show.title,
      description: `The show: ${oneLine(service.show.description)} With its links (RSS feed, platforms, website) and its episodes, newest first.`,
      mimeType: 'application/json',
    },
    playerResourceEntry(service, ctx),
  ];
  for (const e of [...service.episodes].sort((a, b) => b.id - a.id)) {
    const label = `#${e.id} ${e.title}`;
    out.push({
      uri: uris.episode(e.id),
      name: `episode-${e.id}`,
      title: label,
      description: `Episode ${label}${e.date ? ` (${e.date})` : ''}: details and links.`,
      mimeType: 'application/json',
    });
    if (hasTranscript(e)) {
      out.push({
        uri: uris.transcript(e.id),
        name: `episode-${e.id}-transcript`,
        title: `Transcript of ${label}`,
        description: `What was said in ${label}, one timestamped line per cue; long transcripts continue on ?page=2 and on.`,
        mimeType: 'text/plain',
      });
    }
    if (hasChapters(e)) {
      out.push({
        uri: uris.chapters(e.id),
        name: `episode-${e.id}-chapters`,
        title: `Chapters of ${label}`,
        description: `The ${e.chapters!.length} chapters of ${label}, with start times and links.`,
        mimeType: 'application/json',
      });
    }
  }
  return out;
}

export async function listResources(params: Params, ctx: RequestContext): Promise<ListResourcesResult> {
  const offset = params.cursor === undefined ? 0 : decodeCursor(params.cursor);
  const all = allResources(await ctx.data.service(), ctx);
  if (offset === undefined || offset > all.length) {
    throw new RpcError(RPC_ERROR.invalidParams, 'Invalid cursor: pass back the nextCursor of the previous resources/list answer, or no cursor for the first page.');
  }
  const resources = all.slice(offset, offset + RESOURCES_PAGE_SIZE);
  const next = offset + resources.length;
  return next < all.length ? { resources, nextCursor: encodeCursor(next) } : { resources };
}

export async function listResourceTemplates(params: Params) {
  if (params.cursor !== undefined) {
    throw new RpcError(RPC_ERROR.invalidParams, 'Invalid cursor: resources/templates/list has a single page; call it without a cursor.');
  }
  return { resourceTemplates: RESOURCE_TEMPLATES };
}

export async function readResource(params: Params, ctx: RequestContext): Promise<ReadResourceResult> {
  const uri = params.uri;
  if (typeof uri !== 'string' || !uri) {
    throw new RpcError(RPC_ERROR.invalidParams, 'params.uri is required: the address of the resource to read (see resources/list and resources/templates/list).');
  }
  if (uri === PLAYER_URI) return playerResource(ctx);
  const parsed = parseResourceUri(uri);
  const service = await ctx.data.service();
  if (!parsed) throw notFound(uri, 'This server publishes podcast://show, podcast://episodes/{id}, podcast://episodes/{id}/transcript{?page} and podcast://episodes/{id}/chapters.');
  if (parsed.kind === 'show') {
    const { show, urls } = service;
    const episodes = [...service.episodes]
      .sort((a, b) => b.id - a.id)
      .map((e) => ({ id: e.id, title: e.title, date: e.date, season: e.season, uri: uris.episode(e.id), url: e.url }));
    return json(uri, { ...show, rss: urls.rss, website: urls.home, episodes });
  }
  const episode = service.episodes.find((e) => e.id === parsed.id);
  if (!episode) {
    const ids = service.episodes.map((e) => e.id);
    throw notFound(uri, ids.length ? `Episode numbers go from ${Math.min(...ids)} to ${Math.max(...ids)}.` : 'The podcast has no episodes yet.');
  }
  switch (parsed.kind) {
    case 'episode':
      return json(uri, episode);
    case 'chapters': {
      if (!hasChapters(episode)) throw notFound(uri, `Episode ${episode.id} has no chapters.`);
      const chapters = episode.chapters!.map((c) => {
        const start = parseDuration(c.start) ?? 0;
        return { start, timestamp: formatTimestamp(start), title: c.title, url: atMoment(episode.url, start) };
      });
      return json(uri, { id: episode.id, title: episode.title, url: episode.url, chapters });
    }
    case 'transcript':
      return transcriptPage(uri, episode, parsed.page, ctx);
  }
}

async function transcriptPage(uri: string, episode: ServiceEpisode, page: number, ctx: RequestContext): Promise<ReadResourceResult> {
  if (!hasTranscript(episode)) throw notFound(uri, `Episode ${episode.id} has no transcript; podcast://episodes/${episode.id} describes it.`);
  const pages = pageCues(await loadCues(ctx.data, episode));
  if (page > Math.max(pages.length, 1)) throw notFound(uri, `The transcript of episode ${episode.id} has ${pages.length} page${pages.length === 1 ? '' : 's'}.`);
  const cues = pages[page - 1] ?? [];
  const span = cues.length ? ` (${formatTimestamp(cues[0]!.start)}–${formatTimestamp(cues.at(-1)!.end)})` : '';
  const next = page < pages.length ? uris.transcript(episode.id, page + 1) : undefined;
  const text = [
    `Transcript of #${episode.id} ${episode.title}, page ${page} of ${pages.length}${span}.`,
    `Episode page: ${episode.url} (add ?t=SECONDS to open it at a moment).`,
    '',
    ...cues.map(cueLine),
    '',
    next ? `The transcript continues on page ${page + 1} of ${pages.length}: read ${next}` : 'End of the transcript.',
  ].join('\n');
  return {
    contents: [
      {
        uri,
        mimeType: 'text/plain',
        text,
        _meta: { page, pages: pages.length, ...(next ? { next } : {}) },
      },
    ],
  };
}

export function atMoment(url: string, seconds: number): string {
  const u = new URL(url);
  if (seconds > 0) u.searchParams.set('t', String(Math.floor(seconds)));
  return u.toString();
}

function json(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] };
}

function notFound(uri: string, hint: string): RpcError {
  return new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${quoteInput(uri)}. ${hint}`, { uri });
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
