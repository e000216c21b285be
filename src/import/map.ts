/**
 * A parsed feed (feedsmith's RSS object) → what the content model takes: the show's podcast.yaml values and, per item,
 * the episode frontmatter, the show notes as Markdown and what has to be fetched (transcript, chapters).
 * Pure: no I/O. Every fact the feed does not hold and the content model needs is filled with a stated default and a
 * note, so the imported show passes `npm run check` and the editor sees what to fill in.
 */
import type { RssFeed } from 'feedsmith';
import { z } from 'zod';
import type { Chapter } from '../../contract/schemas/episode.ts';
import { formatDuration } from '../../contract/duration.ts';
import { MAX_DURATION_SECONDS } from '../../contract/schemas/common.ts';
import { podcastGuid } from '../content/load.ts';
import { markdownToHtml, markdownToText } from '../content/markdown.ts';
import { ITUNES_CATEGORIES } from '../content/itunes-categories.ts';
import { chaptersFromPodlove } from './chapters.ts';
import { notesToMarkdown } from './notes.ts';
import { pickTranscript, type TranscriptFormat } from './transcripts.ts';

export type ParsedFeed = RssFeed.Feed<string>;
export type FeedItem = NonNullable<ParsedFeed['items']>[number];

export const DEFAULT_SITE_URL = 'http://localhost:4321';
export const PLACEHOLDER_EMAIL = 'owner@example.invalid';

export interface ImportedEpisode {
  /** 1-based position of the item in the feed (document order), for messages. */
  position: number;
  /** How messages name the item: item 3 "Title". */
  label: string;
  guid: string;
  /** itunes:episode (or podcast:episode) when the feed numbers the item. */
  number: number | undefined;
  slug: string;
  /** Frontmatter values taken from the feed (no id, srtFile or chapters from a URL: those come later). */
  fields: Record<string, unknown>;
  body: string;
  enclosureUrl: string;
  transcript: { url: string; format: TranscriptFormat } | null;
  chaptersUrl: string | null;
  /** Podlove Simple Chapters written in the feed itself. */
  inlineChapters: Chapter[];
}

export interface MappedFeed {
  show: Record<string, unknown>;
  episodes: ImportedEpisode[];
  /** Defaults used where the feed lacked something the content model needs. */
  notes: string[];
}

const email = z.email();
const uuid = z.uuid();
const isHttpUrl = (s: unknown): s is string => typeof s === 'string' && /^https?:\/\/[^\s]+$/i.test(s) && URL.canParse(s);
const oneLine = (s: string | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

export function itemLabel(item: FeedItem, position: number): string {
  const title = oneLine(item.title ?? item.itunes?.title);
  return title ? `item ${position} "${title.length > 60 ? `${title.slice(0, 57)}...` : title}"` : `item ${position}`;
}

/** The item's guid as the feed writes it; the enclosure URL for an item without one (as podcast apps do). */
export function itemGuid(item: FeedItem): string | undefined {
  const guid = item.guid?.value?.trim();
  return guid || item.enclosures?.find((e) => e.url)?.url?.trim() || undefined;
}

/** URL-safe ASCII slug from a title: "18.03.2022 – Langsame Nachrichten" → "18-03-2022-langsame-nachrichten". */
export function slugify(title: string, max = 60): string {
  const ascii = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (ascii.length <= max) return ascii || 'episode';
  const cut = ascii.slice(0, max);
  return (cut.includes('-') ? cut.slice(0, cut.lastIndexOf('-')) : cut) || 'episode';
}

const ZONES: Record<string, number> = { GMT: 0, UT: 0, UTC: 0, Z: 0, EST: -300, EDT: -240, CST: -360, CDT: -300, MST: -420, MDT: -360, PST: -480, PDT: -420 };

/**
 * An RSS pubDate (RFC 822, or ISO 8601 as some feeds write) → ISO 8601 in the offset the feed wrote it in, so the
 * day is the one the show published on: "Thu, 28 Sep 2023 16:20:00 -0500" → "2023-09-28T16:20:00-05:00".
 */
export function pubDateToIso(raw: string | undefined): string | undefined {
  if (!raw?.trim()) return undefined;
  const text = raw.trim();
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  let offset = 0;
  const numeric = /([+-])(\d{2}):?(\d{2})$/.exec(text);
  const named = /\b([A-Z]{1,3})$/.exec(text);
  if (numeric && /\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*[+-]\d{2}:?\d{2}$/.test(text)) {
    offset = (numeric[1] === '-' ? -1 : 1) * (Number(numeric[2]) * 60 + Number(numeric[3]));
  } else if (named && named[1]! in ZONES) {
    offset = ZONES[named[1]!]!;
  }
  const local = new Date(ms + offset * 60_000).toISOString().replace(/\.000Z$/, 'Z');
  if (!offset) return local;
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local.slice(0, -1)}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Language tag the content model accepts ("EN-us" → "en-us"); undefined when there is none. */
function language(raw: string | undefined): string | undefined {
  const tag = raw?.trim().replace(/_/g, '-');
  if (!tag) return undefined;
  const [primary, ...rest] = tag.split('-');
  const normal = [primary!.toLowerCase(), ...rest].join('-');
  return /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(normal) ? normal : undefined;
}

const PLATFORMS = {
  show: {
    spotify: /^https:\/\/open\.spotify\.com\/show\//,
    apple: /^https:\/\/podcasts\.apple\.com\/.*\/id\d+(?:$|[/?](?!.*[?&]i=))/,
    amazon: /^https:\/\/music\.amazon\.[a-z.]+\/podcasts\/[^/]+\/?(?:$|[?#])/,
    youtube: /^https:\/\/(?:www\.)?youtube\.com\/(?:@|channel\/|c\/|playlist\?)/,
  },
  episode: {
    spotifyUrl: /^https:\/\/open\.spotify\.com\/episode\//,
    appleUrl: /^https:\/\/podcasts\.apple\.com\/.*[?&]i=\d+/,
    amazonUrl: /^https:\/\/music\.amazon\.[a-z.]+\/podcasts\/[^/]+\/[^/]+\/[^/?#]+/,
    youtubeUrl: /^https:\/\/(?:(?:www\.)?youtube\.com\/watch\?|youtu\.be\/)/,
  },
} as const;

/** The links a text holds: href attributes and bare URLs. */
function linksIn(text: string | undefined): string[] {
  if (!text) return [];
  const hrefs = [...text.matchAll(/href\s*=\s*["']([^"']+)["']/gi)].map((m) => m[1]!);
  const bare = [...text.matchAll(/https?:\/\/[^\s"'<>)\]]+/gi)].map((m) => m[0]!);
  return [...hrefs, ...bare].map((u) => u.replace(/&amp;/g, '&').replace(/[.,;]+$/, ''));
}

function platformLinks<K extends string>(candidates: Array<string | undefined>, patterns: Record<K, RegExp>): Partial<Record<K, string>> {
  const found: Partial<Record<K, string>> = {};
  for (const url of candidates) {
    if (!isHttpUrl(url)) continue;
    for (const [key, pattern] of Object.entries(patterns) as Array<[K, RegExp]>) {
      if (!found[key] && pattern.test(url)) found[key] = url;
    }
  }
  return found;
}

type Person = { display?: string; role?: string; group?: string };
function people(list: Person[] | undefined): { hosts: string[]; guests: string[] } {
  const hosts = new Set<string>();
  const guests = new Set<string>();
  for (const p of list ?? []) {
    const name = oneLine(p.display);
    if (!name) continue;
    // The namespace's defaults: role "host" in group "cast".
    const role = (p.role ?? 'host').toLowerCase();
    if (role === 'guest') guests.add(name);
    else if (role === 'host' || role === 'co-host') hosts.add(name);
  }
  return { hosts: [...hosts], guests: [...guests] };
}

/**
 * A feed's HTML notes as Markdown, or nothing with a note when they cannot be read: HTML nested a few thousand
 * levels deep overflows the stack of the converters (turndown's DOM, marked), and one item must not fail the import.
 */
function readableNotes(raw: string, label: string, notes: string[], check = (markdown: string) => void markdownToText(markdown)): string {
  try {
    const markdown = notesToMarkdown(raw);
    check(markdown);
    return markdown;
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    notes.push(`${label}: its notes are nested too deeply to read (${err.message}); left out`);
    return '';
  }
}

/** source: where the feed was read from (a URL, or a file: then only the feed's own atom:link rel="self" names its address). */
export function mapShow(feed: ParsedFeed, notes: string[], source?: string): Record<string, unknown> {
  const it = feed.itunes ?? {};
  const title = oneLine(feed.title || it.title) || 'Untitled show';
  if (!oneLine(feed.title || it.title)) notes.push('podcast.yaml: the feed has no title; wrote "Untitled show"');
  const rawDescription = feed.description || it.summary || it.subtitle || '';
  let description = markdownToText(readableNotes(rawDescription, 'podcast.yaml: the description', notes));
  if (!description) {
    description = title;
    notes.push('podcast.yaml: the feed has no description; wrote the title');
  }
  const author = oneLine(it.author) || oneLine(feed.managingEditor?.name) || oneLine(it.owner?.name) || title;
  const ownerEmail = [it.owner?.email, feed.managingEditor?.email, feed.webMaster?.email]
    .map((e) => e?.trim())
    .find((e) => e && email.safeParse(e).success);
  if (!ownerEmail) notes.push(`podcast.yaml: the feed has no owner email; wrote ${PLACEHOLDER_EMAIL}, replace it`);
  const lang = language(feed.language);
  if (!lang) notes.push(`podcast.yaml: the feed has no usable language${feed.language ? ` ("${feed.language}")` : ''}; wrote "en"`);

  let categories = (it.categories ?? [])
    .filter((c) => c.text?.trim())
    .map((c) => ({ category: c.text!.trim(), subcategories: (c.categories ?? []).map((s) => s.text?.trim()).filter((s): s is string => !!s) }));
  if (!categories.length) {
    const plain = [...new Set((feed.categories ?? []).map((c) => c.name?.trim()).filter((c): c is string => !!c))];
    categories = plain.map((category) => ({ category, subcategories: [] }));
  }
  categories = appleCategories(categories, notes);
  if (!categories.length) {
    categories = [{ category: 'Society & Culture', subcategories: [] }];
    notes.push('podcast.yaml: the feed has no category; wrote "Society & Culture", change it');
  }

  const artwork = [it.image, feed.image?.url].find(isHttpUrl);
  if (!artwork) notes.push('podcast.yaml: the feed has no artwork; wrote /artwork.png (the bundled one)');
  const platforms = platformLinks(
    [feed.link, ...(feed.atom?.links ?? []).map((l) => l.href), ...linksIn(rawDescription)],
    PLATFORMS.show,
  );
  const show: Record<string, unknown> = {
    title,
    description,
    author,
    owner: { name: oneLine(it.owner?.name) || author, email: ownerEmail ?? PLACEHOLDER_EMAIL },
    language: lang ?? 'en',
    ...(feed.copyright?.trim() ? { copyright: oneLine(feed.copyright) } : {}),
    type: it.type === 'serial' ? 'serial' : 'episodic',
    explicit: it.explicit ?? false,
    categories,
    artwork: artwork ?? '/artwork.png',
    platforms,
    hosts: people(feed.podcast?.persons).hosts,
    // The owner's choice: a locked feed may not be imported elsewhere without them (the owner email confirms a move).
    ...(feed.podcast?.locked?.value === true ? { locked: true } : {}),
  };
  if (show.locked) notes.push(`podcast.yaml: the feed is locked (podcast:locked yes${feed.podcast?.locked?.owner ? `, owner ${feed.podcast.locked.owner}` : ''}): only its owner may move it; the new feed stays locked`);
  const guid = feed.podcast?.guid?.trim();
  if (guid && uuid.safeParse(guid).success) show.guid = guid;
  else {
    // A show keeps its podcast:guid for life, whatever its address: one the feed does not name is its old feed URL's
    // (the namespace's rule), pinned here. Left to the new address, every episode would look new to the apps.
    const self = (feed.atom?.links ?? []).find((l) => l.rel === 'self' && isHttpUrl(l.href?.trim()))?.href?.trim() ?? (isHttpUrl(source) ? source : undefined);
    if (self) {
      show.guid = podcastGuid(self);
      notes.push(`podcast.yaml: the feed names no podcast:guid; wrote ${show.guid as string}, the one its address ${self} gives, so podcast apps know the show at its new address`);
    } else notes.push('podcast.yaml: the feed names no podcast:guid nor its own address; its guid will follow siteUrl, so set guid before the site moves');
  }
  return show;
}

const EPISODE_TYPES = new Set(['full', 'trailer', 'bonus']);
const positiveInt = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined);

export function mapItem(item: FeedItem, position: number, showExplicit: boolean, notes: string[]): ImportedEpisode {
  const label = itemLabel(item, position);
  const it = item.itunes ?? {};
  const title = oneLine(item.title || it.title) || `Episode ${position}`;
  if (!oneLine(item.title || it.title)) notes.push(`${label}: no title; wrote "${title}"`);
  const pubDate = pubDateToIso(item.pubDate);
  if (!pubDate) notes.push(`${label}: no readable pubDate${item.pubDate ? ` ("${item.pubDate}")` : ''}; dated today`);
  const enclosure = item.enclosures!.find((e) => e.url)!;
  const fields: Record<string, unknown> = {
    season: positiveInt(it.season) ?? positiveInt(item.podcast?.season?.number) ?? 1,
    title,
    date: (pubDate ?? new Date().toISOString()).slice(0, 10),
    ...(pubDate ? { pubDate } : {}),
  };
  const seconds = typeof it.duration === 'number' && it.duration > 0 ? Math.round(it.duration) : undefined;
  if (seconds && seconds <= MAX_DURATION_SECONDS) fields.duration = formatDuration(seconds);
  else if (seconds) notes.push(`${label}: its itunes:duration is past ${MAX_DURATION_SECONDS / 3600} hours; left out`);
  fields.audioUrl = enclosure.url!.trim();
  if (positiveInt(enclosure.length) !== undefined || enclosure.length === 0) fields.audioLength = enclosure.length;
  if (enclosure.type && /^[\w.+-]+\/[\w.+-]+$/.test(enclosure.type.trim())) fields.audioType = enclosure.type.trim();
  // The episode's own artwork (itunes:image on the item), when it has one.
  if (isHttpUrl(it.image)) fields.image = it.image.trim();
  fields.guid = itemGuid(item);
  if (!item.guid?.value?.trim()) notes.push(`${label}: no guid; used the enclosure URL`);

  const rawNotes = item.content?.encoded || item.description || it.summary || '';
  const platforms = platformLinks([item.link, ...linksIn(rawNotes)], PLATFORMS.episode);
  Object.assign(fields, platforms);
  const { hosts, guests } = people(item.podcast?.persons);
  if (guests.length) fields.guests = guests;
  if (hosts.length) fields.hosts = hosts;
  if (it.episodeType && EPISODE_TYPES.has(it.episodeType)) fields.episodeType = it.episodeType;
  if (typeof it.explicit === 'boolean' && it.explicit !== showExplicit) fields.explicit = it.explicit;

  const transcript = pickTranscript(
    (item.podcast?.transcripts ?? []).filter((t): t is typeof t & { url: string } => isHttpUrl(t.url)),
  );
  const chaptersUrl = isHttpUrl(item.podcast?.chapters?.url) ? item.podcast!.chapters!.url! : null;
  return {
    position,
    label,
    guid: fields.guid as string,
    number: positiveInt(it.episode) ?? positiveInt(item.podcast?.episode?.number),
    slug: slugify(title),
    fields,
    // As the content check will read them: as text and as HTML.
    body: readableNotes(rawNotes, label, notes, (markdown) => void (markdownToText(markdown), markdownToHtml(markdown))),
    enclosureUrl: fields.audioUrl as string,
    transcript: transcript ? { url: transcript.url, format: transcript.format } : null,
    chaptersUrl,
    inlineChapters: chaptersFromPodlove(item.psc?.chapters as Array<{ start?: string; title?: string }> | undefined),
  };
}

/**
 * Episode numbers: the feed's itunes:episode when the numbered items' numbers are all different (items without one
 * get the numbers after the highest, oldest first); when the feed repeats numbers (a new count every season), every
 * item is numbered by its place in the feed, oldest first, so the numbers stay the same when new episodes arrive.
 */
export function assignNumbers(episodes: ImportedEpisode[], notes: string[]): Map<ImportedEpisode, number> {
  const time = (e: ImportedEpisode) => Date.parse(String(e.fields.pubDate ?? `${e.fields.date}T00:00:00Z`));
  // Feeds list the newest first: at equal times the later item in the feed is the older one.
  const oldestFirst = [...episodes].sort((a, b) => time(a) - time(b) || b.position - a.position);
  const ids = new Map<ImportedEpisode, number>();
  const numbered = episodes.filter((e) => e.number !== undefined);
  const distinct = new Set(numbered.map((e) => e.number)).size === numbered.length;
  if (numbered.length && distinct) {
    for (const e of numbered) ids.set(e, e.number!);
    let next = Math.max(...numbered.map((e) => e.number!));
    for (const e of oldestFirst) if (!ids.has(e)) ids.set(e, ++next);
    return ids;
  }
  if (numbered.length) notes.push('the feed repeats itunes:episode numbers (a count per season); episodes are numbered by date, oldest first');
  oldestFirst.forEach((e, i) => ids.set(e, i + 1));
  return ids;
}

/**
 * Categories Apple no longer lists (the 2019 revision renamed and split several), to the ones that replaced them,
 * so an older feed's categories pass the content check instead of failing the import.
 */
const LEGACY_CATEGORIES: Record<string, { category: string; subcategory?: string }> = {
  'News & Politics': { category: 'News', subcategory: 'Politics' },
  'Games & Hobbies': { category: 'Leisure', subcategory: 'Hobbies' },
  'Science & Medicine': { category: 'Science' },
  'Sports & Recreation': { category: 'Sports' },
  'Government & Organizations': { category: 'Government' },
  'Tech News': { category: 'News', subcategory: 'Tech News' },
  Medicine: { category: 'Health & Fitness', subcategory: 'Medicine' },
};

/** The feed's categories as Apple lists them today: legacy names mapped, unknown ones dropped with a note. */
function appleCategories(categories: Array<{ category: string; subcategories: string[] }>, notes: string[]) {
  const out: Array<{ category: string; subcategories: string[] }> = [];
  for (const { category, subcategories } of categories) {
    const legacy = LEGACY_CATEGORIES[category];
    const name = legacy?.category ?? category;
    const known = ITUNES_CATEGORIES[name];
    if (!known) {
      notes.push(`podcast.yaml: "${category}" is not an Apple Podcasts category; left out`);
      continue;
    }
    if (legacy) notes.push(`podcast.yaml: the feed's category "${category}" is now "${name}${legacy.subcategory ? ` / ${legacy.subcategory}` : ''}" in Apple's list`);
    const subs = [...(legacy?.subcategory ? [legacy.subcategory] : []), ...subcategories].filter((sub, i, all) => known.includes(sub) && all.indexOf(sub) === i);
    const existing = out.find((c) => c.category === name);
    if (existing) existing.subcategories = [...new Set([...existing.subcategories, ...subs])];
    else out.push({ category: name, subcategories: subs });
  }
  return out;
}
