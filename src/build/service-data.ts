/**
 * /service.json: what the request handlers need besides the episodes and the search index, computed once at
 * build time so that no handler reads content or config: the show, its addresses and each episode's URLs.
 */
import type { LoadedContent, LoadedEpisode } from '../content/load.ts';
import { siteUrls, type SiteUrls } from './urls.ts';
import { toContractEpisode } from './episodes.ts';
import { ServiceDataSchema, ServiceEpisodeSchema, type ServiceData, type ServiceEpisode } from '../../contract/schemas/service-data.ts';
import pkg from '../../package.json' with { type: 'json' };

/**
 * Made once per content: /service.json, the AI catalog and the MCP server card each read it, and at 1,000 episodes
 * validating every episode's record took ~190 ms of a rebuild's main thread each time. One build's documents then
 * share one generated_at.
 */
const made = new WeakMap<LoadedContent, ServiceData>();

export function buildServiceData(content: LoadedContent, generatedAt?: Date): ServiceData {
  if (generatedAt) return serviceData(content, generatedAt);
  let data = made.get(content);
  if (!data) made.set(content, (data = serviceData(content, new Date())));
  return data;
}

function serviceData(content: LoadedContent, generatedAt: Date): ServiceData {
  const { show, episodes } = content;
  const urls = siteUrls(show);
  return ServiceDataSchema.parse({
    version: pkg.version,
    generated_at: generatedAt.toISOString(),
    show: {
      title: show.title,
      description: show.description,
      author: show.author,
      language: show.language,
      siteUrl: show.siteUrl,
      artwork: urls.artwork,
      topics: show.topics,
      whenToRecommend: show.whenToRecommend,
      platforms: show.platforms,
      tips: show.tips,
      oauth: { redirectUris: show.oauth.redirectUris },
    },
    urls: {
      home: urls.home,
      rss: urls.rss,
      episodes: urls.episodesJson,
      searchIndex: urls.searchIndexJson,
      lunrIndex: urls.lunrIndex,
      passages: urls.passages,
      llms: urls.llms,
      docs: urls.docsMd,
      agents: urls.agentsMd,
      auth: urls.authMd,
      openapi: urls.openapi,
      apiCatalog: urls.apiCatalog,
      mcp: urls.mcp,
      serverCard: urls.serverCard,
      search: urls.search,
      ask: urls.ask,
      status: urls.status,
      donate: urls.donate,
    },
    episodes: episodes.map((e) => serviceEpisodeFields(e, urls)),
  });
}

/**
 * An episode's record on its own (/search/records/<id>.json, for readers without /service.json): the same object
 * as its element of /service.json's episodes.
 */
export function serviceEpisode(urls: SiteUrls, episode: LoadedEpisode): ServiceEpisode {
  return ServiceEpisodeSchema.parse(serviceEpisodeFields(episode, urls));
}

function serviceEpisodeFields(e: LoadedEpisode, urls: SiteUrls) {
  return {
    ...toContractEpisode(e),
    url: urls.episodePage(e),
    audio: urls.audio(e),
    audioBytes: e.audioBytes ?? undefined,
    transcript: urls.transcript(e),
    chaptersUrl: urls.chapters(e),
  };
}
