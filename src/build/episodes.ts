import type { LoadedEpisode } from '../content/load.ts';
import { EpisodeListSchema, type Episode } from '../../contract/schemas/episode.ts';

/** The contract's Episode: only its fields, in its order, validated before publishing. */
export function toContractEpisode(e: LoadedEpisode): Episode {
  const episode: Episode = {
    id: e.id,
    season: e.season,
    title: e.title,
    desc: e.desc,
    duration: e.duration,
    seconds: e.seconds,
    date: e.date,
    audioFile: e.audioFile,
    srtFile: e.srtFile,
    guid: e.guid,
    spotifyUrl: e.spotifyUrl,
    appleUrl: e.appleUrl,
    amazonUrl: e.amazonUrl,
    youtubeUrl: e.youtubeUrl,
    hasSrt: e.hasSrt,
    guests: e.guests,
    topics: e.topics,
    chapters: e.chapters,
  };
  return JSON.parse(JSON.stringify(episode)) as Episode;
}

/** /episodes.json: every episode, sorted by id ascending. */
export function buildEpisodesJson(episodes: LoadedEpisode[]): Episode[] {
  return EpisodeListSchema.parse([...episodes].sort((a, b) => a.id - b.id).map(toContractEpisode));
}
