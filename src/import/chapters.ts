/**
 * Chapters for the episode frontmatter ({ start: "MM:SS", title }) from a podcast:chapters JSON file
 * (application/json+chapters) or from Podlove Simple Chapters (psc:chapter) inside the feed.
 */
import type { Chapter } from '../../contract/schemas/episode.ts';
import { formatDuration } from '../../contract/duration.ts';

/** "HH:MM:SS(.mmm)", "MM:SS", or seconds → seconds; undefined when it is none of these (Podlove's normal play time). */
export function parseTimestamp(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(text);
  if (!m) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

function normalise(list: Array<{ start: number | undefined; title: unknown }>): Chapter[] {
  const chapters: Chapter[] = [];
  for (const c of list) {
    const title = typeof c.title === 'string' ? c.title.replace(/\s+/g, ' ').trim() : '';
    if (c.start === undefined || !title) continue;
    chapters.push({ start: formatDuration(c.start), title });
  }
  return chapters.sort((a, b) => parseTimestamp(a.start)! - parseTimestamp(b.start)!);
}

/** A podcast:chapters JSON document → chapters; entries marked toc: false are not table-of-contents chapters. */
export function chaptersFromJson(text: string): Chapter[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`is not JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const list = (data as { chapters?: unknown })?.chapters;
  if (!Array.isArray(list)) throw new Error('is not a JSON chapters file (no "chapters" list)');
  return normalise(
    (list as Array<Record<string, unknown>>)
      .filter((c) => c && c.toc !== false)
      .map((c) => ({ start: parseTimestamp(c.startTime), title: c.title })),
  );
}

/** Podlove Simple Chapters as feedsmith reads them ({ start, title }). */
export function chaptersFromPodlove(list: Array<{ start?: string; title?: string }> | undefined): Chapter[] {
  return normalise((list ?? []).map((c) => ({ start: parseTimestamp(c.start), title: c.title })));
}
