/**
 * /service.json: what the request handlers need besides the episodes and the search index, computed once at
 * build time so that no handler reads content or config: the show, its addresses and each episode's URLs.
 */
import type { LoadedContent } from '../content/load.ts';
import { siteUrls } from './urls.ts';
import { toContractEpisode } from './episodes.ts';
import { ServiceDataSchema, type ServiceData } from '../../contract/schemas/service-data.ts';
import pkg from '../../package.json' with { type: 'json' };

export function buildServiceData(content: LoadedContent, generatedAt = new Date()): ServiceData {
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
    episodes: episodes.map((e) => ({
      ...toContractEpisode(e),
      url: urls.episodePage(e),
      audio: urls.audio(e),
      audioBytes: e.audioBytes ?? undefined,
      transcript: urls.transcript(e),
      chaptersUrl: urls.chapters(e),
    })),
  });
}
