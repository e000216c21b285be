import type { LoadedEpisode, Show } from '../content/load.ts';

/** Where Vite writes the licences of the packages the browser scripts bundle (astro.config.mjs, build.license). */
export const LICENSES_PATH = '/licenses.md';

/** The podcast feed (src/build/rss.ts). */
export const RSS_PATH = '/rss.xml';

/** Every public address the build writes, in one place, so documents, pages and handlers agree. */
export function siteUrls(show: Show) {
  const base = show.siteUrl;
  const abs = (path: string) => `${base}${path}`;
  const audioBase = show.audioBaseUrl ? show.audioBaseUrl.replace(/\/+$/, '') : abs('/audio');
  return {
    base,
    abs,
    home: abs('/'),
    rss: abs(RSS_PATH),
    episodesJson: abs('/episodes.json'),
    searchIndexJson: abs('/search-index.json'),
    lunrIndex: abs('/search/lunr-index.json'),
    passages: abs('/search/passages.json'),
    serviceJson: abs('/service.json'),
    llms: abs('/llms.txt'),
    agentsMd: abs('/AGENTS.md'),
    docsMd: abs('/docs.md'),
    authMd: abs('/auth.md'),
    licenses: abs(LICENSES_PATH),
    openapi: abs('/openapi.json'),
    apiCatalog: abs('/.well-known/api-catalog'),
    mcp: abs('/mcp'),
    serverCard: abs('/.well-known/mcp/server-card.json'),
    search: abs('/api/search'),
    ask: abs('/ask'),
    status: abs('/status'),
    donate: abs('/donate'),
    searchPage: abs('/search/'),
    artwork: /^https?:\/\//.test(show.artwork) ? show.artwork : abs(show.artwork.startsWith('/') ? show.artwork : `/${show.artwork}`),
    episodePage: (e: Pick<LoadedEpisode, 'slug'>) => abs(`/episodes/${e.slug}/`),
    /** A linked audioUrl as it is; a bundled audioFile under the show's audio base. */
    audio: (e: Pick<LoadedEpisode, 'audioFile'> & { audioUrl?: string }) =>
      e.audioUrl ?? (e.audioFile ? `${audioBase}/${e.audioFile}` : undefined),
    transcript: (e: Pick<LoadedEpisode, 'srtFile' | 'hasSrt'>) => (e.srtFile && e.hasSrt ? abs(`/transcripts/${e.srtFile}`) : null),
    chapters: (e: Pick<LoadedEpisode, 'id' | 'chapters'>) => (e.chapters?.length ? abs(`/chapters/${e.id}.json`) : undefined),
  };
}
export type SiteUrls = ReturnType<typeof siteUrls>;
