/**
 * Formatting shared by the pages and their scripts: clock times, human durations, dates, and the `?t=` value.
 * Pure functions, safe in the browser and at build time.
 */

/** Seconds → "m:ss" under an hour, "h:mm:ss" from an hour on (how players show positions). */
export function clock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Seconds → words for screen readers and labels: "1 hour 2 minutes 5 seconds", "12 minutes 40 seconds". */
export function spokenTime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const parts: string[] = [];
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  if (sec || !parts.length) parts.push(`${sec} second${sec === 1 ? '' : 's'}`);
  return parts.join(' ');
}

/** Seconds → "14 min" / "1 h 5 min", for lists where the exact second does not matter. */
export function humanDuration(totalSeconds: number): string {
  const minutes = Math.max(1, Math.round(totalSeconds / 60));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
}

/** Seconds → ISO 8601 duration ("PT14M37S"), for <time datetime> and schema.org. */
export function isoDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${sec || (!h && !m) ? `${sec}S` : ''}`;
}

/** "2025-01-14" → "14 Jan 2025" (in the show's language). The date is a calendar day, so UTC keeps it. */
export function formatDate(date: string | undefined, language: string): string {
  if (!date) return '';
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  let format = dateFormats.get(language);
  if (!format) dateFormats.set(language, (format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' })));
  return format.format(d);
}

/** One formatter per language: making one per date cost ~1 s of a 1,000-episode build's page rendering. */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The `t` parameter → seconds, or undefined when it is not a time. Links from search and ask carry whole
 * seconds (`?t=754`); people also paste "12:34", "1:02:03" or YouTube-style "12m34s".
 */
export function parseTime(value: string | null | undefined): number | undefined {
  const v = (value ?? '').trim().toLowerCase();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const colon = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(v);
  if (colon) return Number(colon[1] ?? 0) * 3600 + Number(colon[2]) * 60 + Number(colon[3]);
  const units = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/.exec(v);
  if (units && (units[1] || units[2] || units[3])) {
    return Number(units[1] ?? 0) * 3600 + Number(units[2] ?? 0) * 60 + Number(units[3] ?? 0);
  }
  return undefined;
}

/** The first sentence of a description (or its first 160 characters), for one-line summaries and meta tags. */
export function firstSentence(text: string | undefined, max = 160): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (!flat) return '';
  const m = /^.*?[.!?](?=\s|$)/.exec(flat);
  const sentence = m && m[0].length >= 40 ? m[0] : flat;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[,;:\s]+$/, '')}…`;
}

/** "MM:SS" or "HH:MM:SS" (the contract's Episode.duration) → seconds; undefined for anything else. */
export function durationSeconds(text: string | undefined): number | undefined {
  const m = /^(?:(\d+):)?([0-5]?\d):([0-5]\d)$/.exec((text ?? '').trim());
  return m ? Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) : undefined;
}
