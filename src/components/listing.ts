/**
 * The episode list as static pages, so it scales to thousands of episodes and works without JavaScript:
 * every listing (all episodes, one season, one guest, one topic), newest or oldest first (see ordersOf), cut
 * into pages of PAGE_SIZE. Addresses, under /episodes/:
 *
 *   /episodes/                         all, newest first, page 1
 *   /episodes/page/2/                  page 2
 *   /episodes/oldest/ ...              oldest first (and /episodes/oldest/page/2/)
 *   /episodes/season/2/ ...            one season (…/oldest/, …/page/N/ likewise)
 *   /episodes/guest/ines-duarte/ ...   one guest (newest first only, …/page/N/)
 *   /episodes/topic/food-science/ ...  one topic (likewise)
 *   /episodes/guests/, /episodes/topics/   every guest and topic, with counts
 *
 * The pages are fixed runs of PAGE_SIZE episodes counted from the oldest, and the newest run takes the remainder
 * (PAGE_SIZE to 2 × PAGE_SIZE − 1 episodes), in both orders: newest first, page 1 is that newest run; oldest first,
 * it is the last page. So a new episode changes one page of each listing it is in (and the total, which only that
 * page shows), not every page after it: a rebuild renders those again and keeps the rest (their cache keys,
 * src/pages/episodes/[...path].astro, do not change), and a CDN's copies of the older pages stay right. Every
 * PAGE_SIZE episodes a listing gains a page, and its pages are renumbered once.
 *
 * Pure functions: the pages (src/pages/episodes/[...path].astro) and their tests share them.
 */
export const PAGE_SIZE = 24;
/** Single-segment addresses the listings use under /episodes/, which no episode's slug may take. */
export const RESERVED_SLUGS = ['oldest', 'guests', 'topics', 'page', 'season', 'guest', 'topic'];

export interface ListableEpisode {
  id: number;
  slug: string;
  season: number;
  date?: string;
  guests?: string[];
  topics?: string[];
}

export type Filter = { kind: 'all' } | { kind: 'season'; value: number } | { kind: 'guest' | 'topic'; value: string; label: string };
export type Order = 'newest' | 'oldest';

export interface ListPage<E> {
  /** The rest parameter of [...path].astro: undefined for /episodes/ itself. */
  path: string | undefined;
  filter: Filter;
  order: Order;
  page: number;
  pages: number;
  /** The listing's number of episodes, on the page of its newest run only: the one page a new episode changes. */
  total: number | undefined;
  /** The 1-based chronological numbers (oldest first) of this page's oldest and newest episodes; 0 and 0 when empty. */
  from: number;
  to: number;
  episodes: E[];
}

/**
 * "Inès Duarte" → "ines-duarte": a stable, readable address segment. Latin accents go (the decomposed form's
 * U+0300–036F); other scripts' marks stay, recomposed: a Japanese voicing mark (が), a Devanagari vowel sign (ि) is
 * part of the letter, where cutting it had left "か-っこう" of "がっこう".
 */
export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'x'
  );
}

export function byDate<E extends ListableEpisode>(episodes: readonly E[], order: Order): E[] {
  const newest = [...episodes].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id);
  return order === 'newest' ? newest : newest.reverse();
}

/** The address segment of a listing (without /episodes/ and without the page), '' for all episodes. */
export function filterPath(filter: Filter): string {
  if (filter.kind === 'all') return '';
  if (filter.kind === 'season') return `season/${filter.value}/`;
  return `${filter.kind}/${slugify(filter.value)}/`;
}

/** The site path of one page of a listing. */
export function listHref(filter: Filter, order: Order = 'newest', page = 1): string {
  const rest = `${filterPath(filter)}${order === 'oldest' ? 'oldest/' : ''}${page > 1 ? `page/${page}/` : ''}`;
  return `/episodes/${rest}`;
}

export interface Facet {
  value: string;
  label: string;
  count: number;
  href: string;
}

/** Every guest or topic, with how many episodes it has, most episodes first, then by name. */
export function facets(episodes: readonly ListableEpisode[], kind: 'guest' | 'topic'): Facet[] {
  const bySlug = new Map<string, Facet>();
  for (const e of episodes) {
    const values = new Set((kind === 'guest' ? e.guests : e.topics) ?? []);
    const slugs = new Set<string>();
    for (const label of values) {
      const slug = slugify(label);
      if (slugs.has(slug)) continue;
      slugs.add(slug);
      const f = bySlug.get(slug) ?? { value: slug, label, count: 0, href: listHref({ kind, value: label, label }) };
      f.count++;
      bySlug.set(slug, f);
    }
  }
  return [...bySlug.values()].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

const seasonsOf = new WeakMap<readonly ListableEpisode[], readonly number[]>();

/**
 * The show's seasons, ascending: made once per list of episodes, as every list page shows them (at 2,000 episodes
 * ~3,000 pages each went through every episode again: 4 s of a build, growing with the square of the show).
 */
export function seasons(episodes: readonly ListableEpisode[]): readonly number[] {
  let found = seasonsOf.get(episodes);
  if (!found) seasonsOf.set(episodes, (found = [...new Set(episodes.map((e) => e.season))].sort((a, b) => a - b)));
  return found;
}

/**
 * Whether a listing's page shows the season chips: all episodes and each season, where they choose among that
 * listing's own filters. A guest's or a topic's page links to the whole list instead (its "All episodes" link), so
 * it does not change when a season opens: on a long-running show there are thousands of those pages, each of them
 * was rendered again for every new season, and each carried one chip per season (the bench's 2,000 episodes in 40
 * seasons: 3.4 KB of a guest's 10.5 KB page, twice the share at 1,000).
 */
export function showsSeasonChips(filter: Filter): boolean {
  return filter.kind === 'all' || filter.kind === 'season';
}

/**
 * The orders a listing is published in: all episodes and seasons both ways; a guest's or a topic's few
 * episodes newest first only (on a long-running show there are thousands of them: half the pages).
 */
export function ordersOf(filter: Filter): Order[] {
  return filter.kind === 'all' || filter.kind === 'season' ? ['newest', 'oldest'] : ['newest'];
}

/**
 * The episodes of each listing, in the order given, grouped in one pass: selecting them per filter (every episode
 * tested against every guest and topic) grew with episodes × listings, seconds at 1,000 episodes.
 */
function selector<E extends ListableEpisode>(episodes: readonly E[]): (filter: Filter) => E[] {
  const bySeason = new Map<number, E[]>();
  const bySlug = { guest: new Map<string, E[]>(), topic: new Map<string, E[]>() };
  const add = <K>(map: Map<K, E[]>, key: K, e: E) => {
    const list = map.get(key);
    if (list) list.push(e);
    else map.set(key, [e]);
  };
  for (const e of episodes) {
    add(bySeason, e.season, e);
    for (const kind of ['guest', 'topic'] as const) {
      const slugs = new Set(((kind === 'guest' ? e.guests : e.topics) ?? []).map(slugify));
      for (const slug of slugs) add(bySlug[kind], slug, e);
    }
  }
  return (filter) => {
    if (filter.kind === 'all') return [...episodes];
    if (filter.kind === 'season') return bySeason.get(filter.value) ?? [];
    return bySlug[filter.kind].get(slugify(filter.value)) ?? [];
  };
}

/** Every page of every listing. */
export function listPages<E extends ListableEpisode>(episodes: readonly E[], pageSize = PAGE_SIZE): ListPage<E>[] {
  const clash = episodes.find((e) => RESERVED_SLUGS.includes(e.slug));
  if (clash) throw new Error(`The episode slug "${clash.slug}" is an address the episode list uses; rename its file.`);
  const filters: Filter[] = [
    { kind: 'all' },
    ...seasons(episodes).map((value): Filter => ({ kind: 'season', value })),
    ...facets(episodes, 'guest').map((f): Filter => ({ kind: 'guest', value: f.label, label: f.label })),
    ...facets(episodes, 'topic').map((f): Filter => ({ kind: 'topic', value: f.label, label: f.label })),
  ];
  const select = selector(episodes);
  const out: ListPage<E>[] = [];
  for (const filter of filters) {
    const chronological = byDate(select(filter), 'oldest');
    const count = chronological.length;
    const pages = Math.max(1, Math.floor(count / pageSize));
    for (const order of ordersOf(filter)) {
      for (let page = 1; page <= pages; page++) {
        const run = order === 'oldest' ? page - 1 : pages - page;
        const newestRun = run === pages - 1;
        const start = run * pageSize;
        const runEpisodes = chronological.slice(start, newestRun ? count : start + pageSize);
        const href = listHref(filter, order, page);
        const path = href.replace(/^\/episodes\//, '').replace(/\/$/, '') || undefined;
        out.push({
          path,
          filter,
          order,
          page,
          pages,
          total: newestRun ? count : undefined,
          from: runEpisodes.length ? start + 1 : 0,
          to: start + runEpisodes.length,
          episodes: order === 'newest' ? runEpisodes.reverse() : runEpisodes,
        });
      }
    }
  }
  return out;
}

/**
 * The page numbers a pager shows: the first, the last, and two either side of the current one; undefined
 * marks a gap ("…").
 */
export function pagerNumbers(page: number, pages: number, around = 2): Array<number | undefined> {
  const shown = new Set([1, pages]);
  for (let p = page - around; p <= page + around; p++) if (p >= 1 && p <= pages) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: Array<number | undefined> = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1]! > 1) out.push(undefined);
    out.push(p);
  });
  return out;
}

/** A listing's heading. */
export function listTitle(filter: Filter): string {
  if (filter.kind === 'all') return 'All episodes';
  if (filter.kind === 'season') return `Season ${filter.value}`;
  return filter.kind === 'guest' ? `Episodes with ${filter.label}` : `Episodes about ${filter.label}`;
}

/**
 * What a list page says it holds: its episodes' numbers counted from the listing's first episode, which do not
 * change as episodes are added, and the listing's total only where it holds the newest run.
 */
export function listSummary(page: Pick<ListPage<unknown>, 'from' | 'to' | 'total'>, format: (n: number) => string = String): string {
  if (page.to === 0) return 'No episodes.';
  const range = `Episodes ${format(page.from)}–${format(page.to)}`;
  return page.total === undefined ? range : `${range} of ${format(page.total)}`;
}
