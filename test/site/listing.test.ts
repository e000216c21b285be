/**
 * The pure parts of the listener features: the paged, filtered episode list (src/components/listing.ts) and the
 * positions remembered for resume (src/scripts/positions.ts).
 */
import { describe, expect, it } from 'vitest';
import { facets, listHref, listPages, listSummary, pagerNumbers, seasons, showsSeasonChips, slugify, type ListPage } from '../../src/components/listing.ts';
import { getPosition, isFinished, resumePoint, savePosition, STORAGE_KEY } from '../../src/scripts/positions.ts';

const episode = (id: number, season: number, guests: string[], topics: string[]) => ({
  id,
  slug: `${String(id).padStart(3, '0')}-ep`,
  season,
  date: `2025-01-${String(id).padStart(2, '0')}`,
  guests,
  topics,
});

describe('episode listings', () => {
  const episodes = Array.from({ length: 30 }, (_, i) => episode(i + 1, i < 20 ? 1 : 2, [i % 2 ? 'Inès Duarte' : 'Kai Nakamura'], ['food science', i % 3 ? 'baking' : 'tides']));

  it('gives the seasons ascending, made once per list of episodes (every list page shows them)', () => {
    const mixed = [episode(1, 3, [], []), episode(2, 1, [], []), episode(3, 3, [], []), episode(4, 2, [], [])];
    const found = seasons(mixed);
    expect(found).toEqual([1, 2, 3]);
    expect(seasons(mixed)).toBe(found);
    // Another list is another show's (or a later build's): its own seasons.
    expect(seasons(mixed.slice(0, 2))).toEqual([1, 3]);
    expect(seasons(episodes)).toEqual([1, 2]);
  });

  it('shows the season chips on the whole list and the seasons only, not on each guest and topic', () => {
    const shown = new Map(listPages(episodes, 12).map((p) => [p.filter.kind, showsSeasonChips(p.filter)]));
    expect(Object.fromEntries(shown)).toEqual({ all: true, season: true, guest: false, topic: false });
  });

  it('cuts every listing into pages, both orders, with stable addresses', () => {
    const pages = listPages(episodes, 12);
    const all = pages.filter((p) => p.filter.kind === 'all' && p.order === 'newest');
    // 30 episodes in runs of 12 from the oldest: the newest run takes the remainder (18).
    expect(all.map((p) => p.path)).toEqual([undefined, 'page/2']);
    expect(all[0]!.episodes.map((e) => e.id)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13]);
    expect([all[0]!.from, all[0]!.to, all[0]!.total]).toEqual([13, 30, 30]);
    expect(all[1]!.episodes.map((e) => e.id)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect([all[1]!.from, all[1]!.to, all[1]!.total]).toEqual([1, 12, undefined]);
    const oldest = pages.filter((p) => p.filter.kind === 'all' && p.order === 'oldest');
    expect(oldest.map((p) => p.path)).toEqual(['oldest', 'oldest/page/2']);
    expect(oldest[0]!.episodes.map((e) => e.id)).toEqual(all[1]!.episodes.map((e) => e.id).reverse());
    expect(oldest[1]!.total).toBe(30);
    const season2 = pages.filter((p) => p.filter.kind === 'season' && p.filter.value === 2 && p.order === 'newest');
    expect(season2.map((p) => p.path)).toEqual(['season/2']);
    expect(season2[0]!.total).toBe(10);
    const guest = pages.find((p) => p.path === 'guest/ines-duarte')!;
    expect(guest.total).toBe(15);
    expect(guest.episodes.every((e) => e.guests.includes('Inès Duarte'))).toBe(true);
    expect(pages.find((p) => p.path === 'topic/food-science/page/2')?.episodes.length).toBe(12);
    // A guest's or a topic's episodes are published newest first only.
    expect(pages.some((p) => p.path?.startsWith('topic/') && p.order === 'oldest')).toBe(false);
    expect(pages.some((p) => p.path === 'season/2/oldest')).toBe(true);
    // Every address is unique, and every episode of a listing is on exactly one of its pages.
    expect(new Set(pages.map((p) => p.path)).size).toBe(pages.length);
    expect(all.flatMap((p) => p.episodes.map((e) => e.id)).sort((a, b) => a - b)).toEqual(episodes.map((e) => e.id));
    expect(listPages([], 12).map((p) => [p.path, p.episodes.length, p.from, p.to, p.total])).toEqual([
      [undefined, 0, 0, 0, 0],
      ['oldest', 0, 0, 0, 0],
    ]);
  });

  it('changes one page of each listing a new episode is in, until the listing gains a page', () => {
    const key = (p: ListPage<ReturnType<typeof episode>>) => JSON.stringify({ ...p, episodes: p.episodes.map((e) => e.id) });
    const before = new Map(listPages(episodes, 12).map((p) => [p.path, key(p)]));
    const added = [...episodes, episode(31, 2, ['Kai Nakamura'], ['tides'])];
    const changed = listPages(added, 12).filter((p) => before.get(p.path) !== key(p)).map((p) => p.path);
    // Newest first its listings' first pages, oldest first their last; Inès Duarte's, baking's and food science's not at all.
    expect(changed.sort()).toEqual(
      [undefined, 'oldest/page/2', 'season/2', 'season/2/oldest', 'guest/kai-nakamura', 'topic/tides'].sort(),
    );
    // At 36 the newest run is three runs of 12: every page of the listing is numbered again, once.
    const grown = Array.from({ length: 36 }, (_, i) => episode(i + 1, 1, [], []));
    const pages = listPages(grown, 12).filter((p) => p.filter.kind === 'all' && p.order === 'newest');
    expect(pages.map((p) => [p.page, p.pages, p.from, p.to])).toEqual([
      [1, 3, 25, 36],
      [2, 3, 13, 24],
      [3, 3, 1, 12],
    ]);
  });

  it('says which episodes a page holds, with the total on the newest run only', () => {
    expect(listSummary({ from: 1, to: 24, total: undefined }, (n) => n.toLocaleString('en'))).toBe('Episodes 1–24');
    expect(listSummary({ from: 1249, to: 1290, total: 1290 }, (n) => n.toLocaleString('en'))).toBe('Episodes 1,249–1,290 of 1,290');
    expect(listSummary({ from: 0, to: 0, total: 0 })).toBe('No episodes.');
  });

  it('builds addresses and facets', () => {
    expect(slugify('Dr. Inès  Duarte')).toBe('dr-ines-duarte');
    expect(slugify('がっこう の パン')).toBe('がっこう-の-パン');
    expect(slugify('हिन्दी पॉडकास्ट')).toBe('हिन्दी-पॉडकास्ट');
    expect(slugify('Ｃａｆé')).toBe('cafe');
    expect(listHref({ kind: 'all' })).toBe('/episodes/');
    expect(listHref({ kind: 'season', value: 3 }, 'oldest', 2)).toBe('/episodes/season/3/oldest/page/2/');
    expect(facets(episodes, 'topic').map((f) => [f.label, f.count])).toEqual([['food science', 30], ['baking', 20], ['tides', 10]]);
  });

  it('refuses an episode slug the list needs', () => {
    expect(() => listPages([{ ...episode(1, 1, [], []), slug: 'oldest' }])).toThrow(/oldest/);
  });

  it('shows the first, the last and the pages around the current one', () => {
    expect(pagerNumbers(1, 1)).toEqual([1]);
    expect(pagerNumbers(6, 42)).toEqual([1, undefined, 4, 5, 6, 7, 8, undefined, 42]);
    expect(pagerNumbers(2, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('positions for resume', () => {
  const memory = () => {
    const data = new Map<string, string>();
    return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
  };

  it('remembers where the listener is, offers it back, and marks finished episodes', () => {
    const s = memory();
    expect(resumePoint(7, s)).toBeUndefined();
    savePosition(7, 2, 1800, s);
    expect(resumePoint(7, s)).toBeUndefined();
    savePosition(7, 754.26, 1800, s);
    expect(resumePoint(7, s)).toBe(754.3);
    savePosition(7, 1790, 1800, s);
    expect(getPosition(7, s)?.done).toBe(true);
    expect(resumePoint(7, s)).toBeUndefined();
    // Listening again keeps it played.
    savePosition(7, 100, 1800, s);
    expect(getPosition(7, s)?.done).toBe(true);
    expect(JSON.parse(s.data.get(STORAGE_KEY)!)).toHaveProperty('7');
  });

  it('calls an episode finished in its last 5 %, at most 30 s', () => {
    expect(isFinished(1770, 1800)).toBe(true);
    expect(isFinished(1760, 1800)).toBe(false);
    expect(isFinished(31.5, 33)).toBe(true);
    expect(isFinished(30, 33)).toBe(false);
    expect(isFinished(10, undefined)).toBe(false);
  });

  it('survives broken or missing storage', () => {
    const s = memory();
    s.setItem(STORAGE_KEY, '{not json');
    expect(resumePoint(1, s)).toBeUndefined();
    expect(savePosition(1, 10, 100, undefined)).toBeUndefined();
  });
});
