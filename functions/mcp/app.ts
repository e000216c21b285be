/**
 * The player UI resource (ui://podcast/player.html) and the data a tool result hands it: the moment to play and the
 * transcript lines around it. See contract/mcp/app.ts for the protocol and the page itself.
 */
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { ServiceData, ServiceEpisode } from '../../contract/schemas/service-data.ts';
import type { RequestContext } from '../types.ts';
import { formatTimestamp } from '../../contract/duration.ts';
import { identityFromService } from '../../contract/mcp/documents.ts';
import {
  MCP_APP_MIME_TYPE,
  PLAYER_META_KEY,
  PLAYER_SCRIPT,
  PLAYER_STYLE,
  PLAYER_URI,
  playerHtml,
  type PlayerItem,
} from '../../contract/mcp/app.ts';
import { cuesAround } from './transcript.ts';

/** Lines shown before and after the moment. */
const LINES_BEFORE = 2;
const LINES_AFTER = 5;

/** The origins the player's audio comes from: the site, and wherever the episodes' audio is hosted. */
export function mediaOrigins(service: ServiceData, siteUrl?: string): string[] {
  const origins = new Set<string>();
  for (const url of [siteUrl, service.show.siteUrl, ...service.episodes.map((e) => e.audio)]) {
    if (!url) continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      /* not a URL: nothing to allow */
    }
  }
  return [...origins];
}

/** The _meta.ui a host reads to sandbox the player: no network, media from these origins, a border. */
function uiMeta(service: ServiceData, ctx: RequestContext) {
  const origins = mediaOrigins(service, ctx.env.siteUrl);
  return { ui: { csp: { resourceDomains: origins, connectDomains: [] }, prefersBorder: true } };
}

export function playerResourceEntry(service: ServiceData, ctx: RequestContext): Resource {
  return {
    uri: PLAYER_URI,
    name: 'player',
    title: `${service.show.title} player`,
    description: 'A small audio player for MCP Apps hosts: opens an episode at the moment a tool found, with the transcript lines around it.',
    mimeType: MCP_APP_MIME_TYPE,
    _meta: uiMeta(service, ctx),
  };
}

export async function playerResource(ctx: RequestContext): Promise<ReadResourceResult> {
  const service = await ctx.data.service();
  const id = identityFromService(service, ctx.env.siteUrl);
  const [scriptHash, styleHash] = await Promise.all([sha256(PLAYER_SCRIPT), sha256(PLAYER_STYLE)]);
  const text = playerHtml({ title: id.title, lang: id.language, scriptHash, styleHash, mediaOrigins: mediaOrigins(service, ctx.env.siteUrl) });
  return { contents: [{ uri: PLAYER_URI, mimeType: MCP_APP_MIME_TYPE, text, _meta: uiMeta(service, ctx) }] };
}

let hashes: Map<string, Promise<string>> | undefined;
/** A CSP source for an inline script or style: 'sha256-<base64>' of its exact text. */
export function sha256(text: string): Promise<string> {
  hashes ??= new Map();
  let hash = hashes.get(text);
  if (!hash) {
    hash = crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then((buf) => `sha256-${btoa(String.fromCharCode(...new Uint8Array(buf)))}`);
    hashes.set(text, hash);
  }
  return hash;
}

/** One moment for the player: the episode at `start`, with the transcript lines around it (none without a transcript). */
export async function playerItem(episode: ServiceEpisode, start: number, ctx: RequestContext): Promise<PlayerItem> {
  let lines: PlayerItem['lines'] = [];
  if (episode.transcript && episode.srtFile && episode.hasSrt !== false) {
    const { cues, at } = await cuesAround(ctx.data, episode, start, LINES_BEFORE, LINES_AFTER);
    lines = cues.map((c, i) => ({
      start: c.start,
      timestamp: formatTimestamp(c.start),
      text: c.text,
      ...(i === at ? { current: true } : {}),
    }));
  }
  const url = new URL(episode.url);
  if (start > 0) url.searchParams.set('t', String(Math.floor(start)));
  return {
    id: episode.id,
    title: episode.title,
    url: url.toString(),
    ...(episode.audio ? { audio: episode.audio } : {}),
    start,
    timestamp: formatTimestamp(start),
    lines,
  };
}

/** The tool result _meta that carries the player's data. */
export function playerMeta(items: PlayerItem[]): Record<string, unknown> {
  return { [PLAYER_META_KEY]: { items } };
}
