/**
 * The cacheKey of a prerendered page for Astro's incremental build (experimental.incrementalBuild in
 * astro.config.mjs): a page whose key and whose code (Astro hashes the page's module graph) are both unchanged
 * since the last build is copied from Astro's cache instead of rendered again. Rendering every episode page again
 * was the largest part of a one-episode rebuild (~11 s of ~26 s of prerendering at 1,000 episodes).
 *
 * The key is a digest of every value the page reads from the content, so anything a listener would see change
 * renders it again: the episode itself, the show, a neighbour's title, the footer's year.
 */
import { createHash } from 'node:crypto';

export function pageKey(...inputs: unknown[]): string {
  const hash = createHash('sha1');
  for (const input of inputs) hash.update(JSON.stringify(input) ?? 'undefined').update('\0');
  return hash.digest('base64url');
}

type Keyed = { cues?: unknown; file?: unknown; transcript?: { format: string; digest?: string } | null };

/**
 * An episode as its pages show it, for a key: without where its files are on the editor's disk (`file`, the
 * transcript's path: for messages and the build's own reads, never shown), so the same content built from
 * another folder (a CI checkout, the bench's copy) keys alike; and, for the pages other than its own (a card in
 * a list), without its transcript's cues, which only its own page renders. Its own page's key holds the
 * transcript's digest in place of the cues it names (src/content/load.ts): serializing a 1,000-episode show's
 * cues for the keys was ~0.7-1 s of a rebuild's main thread, the digest is made while the transcript is read.
 */
export function shown<E extends Keyed>(episode: E, options: { cues: boolean }): Record<string, unknown> {
  // The fields by name: destructuring `...rest` would read `cues`, which a thread may make only on demand (src/content/load.ts).
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(episode)) if (key !== 'cues' && key !== 'file' && key !== 'transcript') rest[key] = episode[key as keyof E];
  const { transcript } = episode;
  return { ...rest, transcript: transcript ? transcript.format : null, ...(options.cues ? { cues: transcript?.digest ?? episode.cues } : {}) };
}

const cards = new WeakMap<object, string>();

/**
 * An episode as a card in a list shows it (shown without its cues), as a key made once per episode: a list page's key
 * names its cards by these instead of serializing each card's episode again for every page it is on (at 1,284
 * episodes ~2,000 list pages of 24 cards, ~0.5 s of a rebuild's main thread). Content is not changed once loaded,
 * so the episode object names the same card for the whole build.
 */
export function cardKey<E extends Keyed>(episode: E): string {
  let key = cards.get(episode);
  if (key === undefined) cards.set(episode, (key = pageKey(shown(episode, { cues: false }))));
  return key;
}
