/**
 * The pure parts of the listener features: the paged, filtered episode list (src/components/listing.ts) and the
 * positions remembered for resume (src/scripts/positions.ts).
 */
import { describe, expect, it } from 'vitest';
import { facets, listHref, listPages, pagerNumbers, slugify } from '../../src/components/listing.ts';
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

  it('cuts every listing into pages, both orders, with stable addresses', () => {
    const pages = listPages(episodes, 12);
    const all = pages.filter((p) => p.filter.kind === 'all' && p.order === 'newest');
    expect(all.map((p) => p.path)).toEqual([undefined, 'page/2', 'page/3']);
    expect(all[0]!.episodes.map((e) => e.id)).toEqual([30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19]);
    expect(all[2]!.episodes.map((e) => e.id)).toEqual([6, 5, 4, 3, 2, 1]);
    const oldest = pages.find((p) => p.filter.kind === 'all' && p.order === 'oldest' && p.page === 1)!;
    expect(oldest.path).toBe('oldest');
    expect(oldest.episodes[0]!.id).toBe(1);
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
    // Every address is unique.
    expect(new Set(pages.map((p) => p.path)).size).toBe(pages.length);
  });

  it('builds addresses and facets', () => {
    expect(slugify('Dr. Inès  Duarte')).toBe('dr-ines-duarte');
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
