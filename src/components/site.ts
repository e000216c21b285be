/**
 * What every page derives from the content: addresses as the browser should follow them, and the structured
 * data (schema.org JSON-LD) search engines and podcast directories read.
 */
import type { LoadedEpisode, Show } from '../content/load.ts';
import { siteUrls, type SiteUrls } from '../build/urls.ts';
import { isoDuration } from './format.ts';

/**
 * An address of this site as a link inside the site: origin dropped, path kept. siteUrls() gives absolute
 * addresses (right for feeds, canonical links and Open Graph), but the pages must also work on whatever origin
 * serves them (a preview, a test server on a random port); anything off-site stays absolute.
 */
export function localHref(url: string, show: Pick<Show, 'siteUrl'>): string {
  const site = new URL(show.siteUrl);
  const target = new URL(url, site);
  if (target.origin !== site.origin) return target.href;
  return `${target.pathname}${target.search}${target.hash}`;
}

export interface PlatformLink {
  key: 'spotify' | 'apple' | 'amazon' | 'youtube';
  label: string;
  url: string;
}

const PLATFORM_LABELS: Record<PlatformLink['key'], string> = {
  apple: 'Apple Podcasts',
  spotify: 'Spotify',
  amazon: 'Amazon Music',
  youtube: 'YouTube',
};

/** The show's platform links, in a fixed order. */
export function showPlatforms(show: Show): PlatformLink[] {
  return (Object.keys(PLATFORM_LABELS) as PlatformLink['key'][])
    .filter((key) => show.platforms[key])
    .map((key) => ({ key, label: PLATFORM_LABELS[key], url: show.platforms[key]! }));
}

/** An episode's own platform links (the frontmatter's spotifyUrl, appleUrl, ...). */
export function episodePlatforms(episode: LoadedEpisode): PlatformLink[] {
  const urls: Record<PlatformLink['key'], string | undefined> = {
    apple: episode.appleUrl,
    spotify: episode.spotifyUrl,
    amazon: episode.amazonUrl,
    youtube: episode.youtubeUrl,
  };
  return (Object.keys(PLATFORM_LABELS) as PlatformLink['key'][])
    .filter((key) => urls[key])
    .map((key) => ({ key, label: PLATFORM_LABELS[key], url: urls[key]! }));
}

/** Newest first: by date, then by id (the feed's order). */
export function newestFirst(episodes: readonly LoadedEpisode[]): LoadedEpisode[] {
  return [...episodes].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id);
}

function seriesRef(show: Show, urls: SiteUrls) {
  return { '@type': 'PodcastSeries', name: show.title, url: urls.home };
}

/** schema.org PodcastSeries for the home page, with the site's search as a SearchAction. */
export function podcastSeriesLd(show: Show, episodes: readonly LoadedEpisode[]) {
  const urls = siteUrls(show);
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'PodcastSeries',
      '@id': `${urls.home}#podcast`,
      name: show.title,
      description: show.description,
      url: urls.home,
      image: urls.artwork,
      inLanguage: show.language,
      webFeed: urls.rss,
      author: { '@type': 'Organization', name: show.author },
      ...(show.copyright ? { copyrightNotice: show.copyright } : {}),
      ...(show.topics.length ? { keywords: show.topics.join(', ') } : {}),
      ...(Object.values(show.platforms).some(Boolean) ? { sameAs: Object.values(show.platforms).filter(Boolean) } : {}),
      numberOfEpisodes: episodes.length,
    },
    {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: show.title,
      url: urls.home,
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${urls.searchPage}?q={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    },
  ];
}

/** schema.org PodcastEpisode for an episode page. */
export function podcastEpisodeLd(show: Show, episode: LoadedEpisode) {
  const urls = siteUrls(show);
  const audio = urls.audio(episode);
  return {
    '@context': 'https://schema.org',
    '@type': 'PodcastEpisode',
    '@id': `${urls.episodePage(episode)}#episode`,
    name: episode.title,
    url: urls.episodePage(episode),
    episodeNumber: episode.id,
    ...(episode.desc ? { description: episode.desc } : {}),
    ...(episode.date ? { datePublished: episode.date } : {}),
    ...(episode.seconds !== undefined ? { timeRequired: isoDuration(episode.seconds) } : {}),
    inLanguage: show.language,
    image: urls.artwork,
    partOfSeason: { '@type': 'PodcastSeason', seasonNumber: episode.season, partOfSeries: seriesRef(show, urls) },
    partOfSeries: seriesRef(show, urls),
    ...(episode.topics?.length ? { keywords: episode.topics.join(', ') } : {}),
    ...(episode.guests?.length ? { contributor: episode.guests.map((name) => ({ '@type': 'Person', name })) } : {}),
    ...(audio
      ? {
          associatedMedia: {
            '@type': 'AudioObject',
            contentUrl: audio,
            encodingFormat: 'audio/mpeg',
            ...(episode.seconds !== undefined ? { duration: isoDuration(episode.seconds) } : {}),
          },
        }
      : {}),
  };
}

/** JSON for a <script type="application/ld+json">: "<" escaped so no text can close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Scripts written right to left, for a runtime whose Intl.Locale cannot say (getTextInfo is not everywhere). */
const RTL = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'iw', 'ks', 'ku-arab', 'ps', 'sd', 'syr', 'ug', 'ur', 'yi']);

/**
 * The writing direction of the show's language, for the page's `dir`: a show in Hebrew or Arabic set left to right
 * put its punctuation at the wrong end of every title and line.
 */
export function textDirection(tag: string): 'ltr' | 'rtl' {
  try {
    const locale = new Intl.Locale(tag) as Intl.Locale & { getTextInfo?: () => { direction?: string } };
    const direction = locale.getTextInfo?.().direction;
    if (direction === 'rtl' || direction === 'ltr') return direction;
  } catch {
    // A tag Intl does not parse: the list below decides.
  }
  const lower = tag.toLowerCase();
  return RTL.has(lower.split('-')[0]!) || RTL.has(lower.split('-').slice(0, 2).join('-')) ? 'rtl' : 'ltr';
}
