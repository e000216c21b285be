/**
 * What the site-wide player needs to know about an episode, written into the page as a data attribute (JSON)
 * wherever an episode can be started: the player bar itself, an episode page, the home page's latest episode.
 * The player script reads it back (src/scripts/dock.ts); it never holds anything the page does not show.
 */
import type { LoadedEpisode, Show } from '../content/load.ts';
import { siteUrls } from '../build/urls.ts';
import { parseDuration } from '../../contract/duration.ts';
import { localHref } from './site.ts';

export interface PlayerEpisode {
  id: number;
  title: string;
  /** The episode page, as a path on this site. */
  url: string;
  /** The MP3, as the browser should fetch it. */
  audio: string;
  show: string;
  /** The cover art, as a path on this site (the lock screen shows it). */
  artwork: string;
  season: number;
  /** Chapter starts in seconds, ascending. */
  chapters: Array<{ start: number; title: string }>;
}

export function playerEpisode(show: Show, episode: LoadedEpisode): PlayerEpisode | undefined {
  const urls = siteUrls(show);
  const audio = urls.audio(episode);
  if (!audio) return undefined;
  return {
    id: episode.id,
    title: episode.title,
    url: localHref(urls.episodePage(episode), show),
    audio: localHref(audio, show),
    show: show.title,
    artwork: localHref(urls.artwork, show),
    season: episode.season,
    chapters: (episode.chapters ?? [])
      .map((c) => ({ start: parseDuration(c.start) ?? 0, title: c.title }))
      .sort((a, b) => a.start - b.start),
  };
}
