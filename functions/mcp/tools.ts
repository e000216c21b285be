/**
 * What each registered tool does. Every tool reads what the build published (ctx.data), never content files.
 * An outcome is either data (the structuredContent, checked against the tool's output schema by the caller) with
 * a readable text, or a message for a tool error the model can act on (unknown id, no transcript, ...).
 */
import { ApiError } from '../errors.ts';
import type { ServiceData, ServiceEpisode } from '../../contract/schemas/service-data.ts';
import type { RequestContext } from '../types.ts';
import { askEpisodes, searchEpisodes } from '../search/service.ts';
import { isQuestion } from '../search/ask-understanding.ts';
import { formatTimestamp } from '../../contract/duration.ts';
import type { ToolInput, ToolName, ToolOutput } from '../../contract/mcp/tools.ts';
import { uris } from '../../contract/mcp/resources.ts';
import { cueLine, cuesInWindow, loadCues, pageCues, toSeconds } from './transcript.ts';
import { playerItem, playerMeta } from './app.ts';

export type ToolOutcome<N extends ToolName> =
  | { ok: true; data: ToolOutput<N>; text: string; /** The result's _meta (the player's data). */ meta?: Record<string, unknown> }
  | { ok: false; message: string };
type Implementation<N extends ToolName> = (args: ToolInput<N>, ctx: RequestContext) => Promise<ToolOutcome<N>>;

const fail = (message: string) => ({ ok: false, message }) as const;

export const IMPLEMENTATIONS: { [N in ToolName]: Implementation<N> } = {
  async search_episodes({ query, limit }, ctx) {
    let page;
    try {
      // A question is understood as /ask understands it; keywords rank exactly as /api/search.
      page = isQuestion(query) ? await askEpisodes(ctx.data, { query, limit }) : await searchEpisodes(ctx.data, { query, limit, offset: 0 });
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) return fail(`${err.message}${err.hint ? ` ${err.hint}` : ''}`);
      throw err;
    }
    const { results, total } = page;
    const text = results.length
      ? `${total} episode${total === 1 ? '' : 's'} match "${query}"${total > results.length ? `; the best ${results.length}` : ''}:\n\n` +
        results
          .map((r, i) => {
            const when = [r.date, r.duration].filter(Boolean).join(', ');
            const lines = [`${i + 1}. #${r.id} ${r.title}${when ? ` (${when})` : ''}: ${r.url}`];
            if (r.snippet) lines.push(`   ${r.timestamp ? `at ${r.timestamp}: ` : ''}"${r.snippet}"`);
            // A question's other candidate moments in the episode (/ask's `moments`), after the best one.
            for (const m of r.moments?.slice(1) ?? []) lines.push(`   also at ${m.timestamp}: ${m.url}${m.snippet ? ` "${m.snippet}"` : ''}`);
            return lines.join('\n');
          })
          .join('\n')
      : `No episode matches "${query}". Try fewer or other words, or browse with list_episodes.`;
    // The player opens at the best moments (MCP Apps hosts); up to three, the best one loaded.
    const service = await ctx.data.service();
    const items = await Promise.all(
      results
        .slice(0, 3)
        .map((r) => ({ r, episode: service.episodes.find((e) => e.id === r.id) }))
        .filter((x) => x.episode)
        .map(({ r, episode }) => playerItem(episode!, r.start ?? 0, ctx)),
    );
    return { ok: true, data: { query, count: results.length, total, results }, text, ...(items.length ? { meta: playerMeta(items) } : {}) };
  },

  async get_episode({ id }, ctx) {
    const service = await ctx.data.service();
    const episode = service.episodes.find((e) => e.id === id);
    if (!episode) return fail(unknownEpisode(id, service));
    return { ok: true, data: episode, text: describeEpisode(episode), meta: playerMeta([await playerItem(episode, 0, ctx)]) };
  },

  async get_latest_episode(_args, ctx) {
    const episode = (await ctx.data.service()).episodes.at(-1);
    if (!episode) return fail('The podcast has no episodes yet.');
    return { ok: true, data: episode, text: `The latest episode:\n\n${describeEpisode(episode)}`, meta: playerMeta([await playerItem(episode, 0, ctx)]) };
  },

  async list_episodes({ season, limit, offset }, ctx) {
    const service = await ctx.data.service();
    const all = service.episodes.filter((e) => season === undefined || e.season === season).sort((a, b) => b.id - a.id);
    const episodes = all.slice(offset, offset + limit);
    const data = { total: all.length, count: episodes.length, offset, limit, has_more: offset + episodes.length < all.length, season, episodes };
    const scope = season === undefined ? '' : ` in season ${season}`;
    let text: string;
    if (!all.length) {
      const seasons = [...new Set(service.episodes.map((e) => e.season))].sort((a, b) => a - b);
      text = `No episodes${scope}. Seasons: ${seasons.join(', ') || 'none yet'}.`;
    } else if (!episodes.length) {
      text = `There are ${all.length} episodes${scope}; offset ${offset} is past the last one.`;
    } else {
      text =
        `Episodes ${offset + 1}–${offset + episodes.length} of ${all.length}${scope}, newest first:\n\n` +
        episodes.map((e) => `#${e.id} ${e.title} (season ${e.season}${e.date ? `, ${e.date}` : ''}): ${e.url}`).join('\n') +
        (data.has_more ? `\n\nMore: call list_episodes with offset ${offset + episodes.length}.` : '');
    }
    return { ok: true, data, text };
  },

  async subscribe_via_rss(_args, ctx) {
    const service = await ctx.data.service();
    const rss = service.urls.rss ?? `${service.show.siteUrl}/rss.xml`;
    const website = service.urls.home ?? `${service.show.siteUrl}/`;
    const platforms = service.show.platforms;
    const instruction = `To follow ${service.show.title}, paste ${rss} into your podcast app's "add by URL" (or "follow RSS feed") option, or open it on one of the platforms listed.`;
    const names = { spotify: 'Spotify', apple: 'Apple Podcasts', amazon: 'Amazon Music', youtube: 'YouTube' } as const;
    const links = (Object.keys(names) as Array<keyof typeof names>).filter((k) => platforms[k]).map((k) => `- ${names[k]}: ${platforms[k]}`);
    const text = [instruction, '', `RSS feed: ${rss}`, ...(links.length ? ['', 'Also on:', ...links] : []), '', `Website: ${website}`].join('\n');
    return { ok: true, data: { title: service.show.title, rss, website, platforms, instruction }, text };
  },

  async get_transcript({ id, start, end }, ctx) {
    const service = await ctx.data.service();
    const episode = service.episodes.find((e) => e.id === id);
    if (!episode) return fail(unknownEpisode(id, service));
    if (!episode.transcript || !episode.srtFile || episode.hasSrt === false) {
      return fail(`Episode ${id} ("${episode.title}") has no transcript. Its description is available through get_episode.`);
    }
    const from = toSeconds(start) ?? 0;
    const to = toSeconds(end);
    if (to !== undefined && to <= from) return fail(`end (${formatTimestamp(to)}) must be after start (${formatTimestamp(from)}).`);
    const inWindow = cuesInWindow(await loadCues(ctx.data, episode), from, to);
    // One answer holds one page of lines at most; the rest is a call away (start = next_start).
    const page = pageCues(inWindow)[0] ?? [];
    const rest = inWindow[page.length];
    const cues = page.map((c) => ({ start: c.start, end: c.end, timestamp: formatTimestamp(c.start), text: c.text }));
    const window = start === undefined && end === undefined ? '' : ` from ${formatTimestamp(from)}${to === undefined ? '' : ` to ${formatTimestamp(to)}`}`;
    const more = rest
      ? `\n\nThe transcript continues (${inWindow.length - page.length} more cue${inWindow.length - page.length === 1 ? '' : 's'}): call get_transcript with id ${id} and start ${rest.start}` +
        `${to === undefined ? '' : ` and end ${to}`} for the next part, or read the resource ${uris.transcript(id)} page by page.`
      : '';
    const text = cues.length
      ? `Transcript of #${id} ${episode.title}${window} (${cues.length} cue${cues.length === 1 ? '' : 's'}${rest ? ` of ${inWindow.length}` : ''}; the full SRT is ${episode.transcript}):\n\n` +
        page.map(cueLine).join('\n') +
        more
      : `Nothing is said in #${id} ${episode.title}${window}${episode.duration ? ` (the episode is ${episode.duration} long)` : ''}.`;
    return {
      ok: true,
      data: {
        id,
        title: episode.title,
        url: episode.url,
        transcript: episode.transcript,
        start: from,
        end: to ?? null,
        count: cues.length,
        has_more: rest !== undefined,
        next_start: rest ? rest.start : null,
        cues,
      },
      text,
    };
  },
};

function unknownEpisode(id: number, service: ServiceData): string {
  const ids = service.episodes.map((e) => e.id);
  const range = ids.length ? ` Episode numbers go from ${Math.min(...ids)} to ${Math.max(...ids)}.` : ' The podcast has no episodes yet.';
  return `No episode has id ${id}.${range} Call list_episodes or search_episodes to find one.`;
}

function describeEpisode(e: ServiceEpisode): string {
  const facts = [`season ${e.season}`, e.date, e.duration].filter(Boolean).join(', ');
  const lines = [`#${e.id} ${e.title} (${facts})`];
  if (e.desc) lines.push('', e.desc);
  if (e.guests?.length) lines.push('', `Guests: ${e.guests.join(', ')}`);
  if (e.topics?.length) lines.push(`Topics: ${e.topics.join(', ')}`);
  if (e.chapters?.length) lines.push('', 'Chapters:', ...e.chapters.map((c) => `  ${c.start} ${c.title}`));
  lines.push('', `Episode page: ${e.url}`);
  if (e.audio) lines.push(`Audio: ${e.audio}`);
  lines.push(e.transcript ? `Transcript: ${e.transcript}` : 'Transcript: none');
  const platforms = [
    ['Spotify', e.spotifyUrl],
    ['Apple Podcasts', e.appleUrl],
    ['Amazon Music', e.amazonUrl],
    ['YouTube', e.youtubeUrl],
  ].filter(([, url]) => url);
  if (platforms.length) lines.push(`Also on: ${platforms.map(([n, u]) => `${n} ${u}`).join(' · ')}`);
  return lines.join('\n');
}
