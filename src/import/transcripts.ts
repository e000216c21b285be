/**
 * A podcast:transcript file (SubRip, WebVTT or the Podcasting 2.0 JSON format) → SubRip, which is what the content
 * model reads (content/transcripts/*.srt). Parsing is done by libraries: srt-parser-2 for SubRip (as the content
 * model's), node-webvtt for WebVTT; JSON is plain data. The result is normalised (ordered, no overlaps, numbered)
 * and then checked with the content model's own SRT parser, so what is written always passes `npm run check`.
 */
import SrtParser from 'srt-parser-2';
import webvtt from 'node-webvtt';
import { parseSrt } from '../content/srt.ts';

export type TranscriptFormat = 'srt' | 'vtt' | 'json';

export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** The transcript format a podcast:transcript type (or, failing that, its URL) names; null when not timed text. */
export function transcriptFormat(type: string | undefined, url: string): TranscriptFormat | null {
  const t = (type ?? '').toLowerCase().split(';')[0]!.trim();
  if (['application/srt', 'application/x-subrip', 'text/srt', 'text/x-srt', 'application/x-srt'].includes(t)) return 'srt';
  if (t === 'text/vtt' || t === 'text/webvtt') return 'vtt';
  if (t === 'application/json' || t === 'application/json+transcript') return 'json';
  if (t) return null;
  const ext = /\.(\w+)(?:[?#]|$)/.exec(url)?.[1]?.toLowerCase();
  return ext === 'srt' ? 'srt' : ext === 'vtt' ? 'vtt' : ext === 'json' ? 'json' : null;
}

/** Which of an item's transcripts to take: SubRip first (no conversion), then WebVTT, then JSON. */
export function pickTranscript<T extends { url: string; type?: string }>(list: T[] | undefined): (T & { format: TranscriptFormat }) | null {
  const order: TranscriptFormat[] = ['srt', 'vtt', 'json'];
  const candidates = (list ?? [])
    .map((t) => ({ ...t, format: transcriptFormat(t.type, t.url) }))
    .filter((t): t is T & { format: TranscriptFormat } => t.format !== null);
  candidates.sort((a, b) => order.indexOf(a.format) - order.indexOf(b.format));
  return candidates[0] ?? null;
}

const stripTags = (s: string) => s.replace(/<[^>]*>/g, '');
const decodeEntities = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&nbsp;/g, ' ').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const clean = (s: string) => decodeEntities(stripTags(s)).split('\n').map((l) => l.trim()).filter(Boolean).join('\n');

function fromSrt(text: string): TimedText[] {
  const cues = new SrtParser().fromSrt(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  return cues.map((c) => ({ start: c.startSeconds, end: c.endSeconds, text: clean(c.text) }));
}

function fromVtt(text: string): TimedText[] {
  const parsed = webvtt.parse(text.replace(/^\uFEFF/, ''), { strict: false });
  return parsed.cues.map((c) => {
    // <v Speaker>text</v> is WebVTT's speaker; keep it as "Speaker: text", as the sample transcripts do.
    const voice = /^<v(?:\.[^\s>]*)?\s+([^>]+)>/.exec(c.text.trim());
    const body = clean(c.text);
    return { start: c.start, end: c.end, text: voice ? `${voice[1]!.trim()}: ${body}` : body };
  });
}

interface JsonSegment {
  speaker?: unknown;
  startTime?: unknown;
  endTime?: unknown;
  body?: unknown;
}

/**
 * Podcasting 2.0 JSON transcripts are often one word per segment; consecutive segments of one speaker are joined
 * into cues of up to about 6 seconds or 90 characters, broken at a pause of more than a second.
 */
function fromJson(text: string): TimedText[] {
  const data = JSON.parse(text) as { segments?: JsonSegment[] };
  if (!Array.isArray(data?.segments)) throw new Error('has no "segments" list');
  const cues: TimedText[] = [];
  let current: (TimedText & { speaker: string }) | null = null;
  for (const s of data.segments) {
    const start = Number(s.startTime);
    const end = Number(s.endTime ?? s.startTime);
    const body = typeof s.body === 'string' ? clean(s.body).replace(/\n/g, ' ') : '';
    if (!Number.isFinite(start) || !Number.isFinite(end) || !body) continue;
    const speaker = typeof s.speaker === 'string' ? s.speaker.trim() : '';
    const joins =
      current &&
      speaker === current.speaker &&
      start - current.end <= 1 &&
      end - current.start <= 6 &&
      current.text.length + body.length < 90;
    if (current && joins) {
      current.text = /^[,.;:!?)]/.test(body) ? `${current.text}${body}` : `${current.text} ${body}`;
      current.end = Math.max(current.end, end);
    } else {
      if (current) cues.push(current);
      const speakerChanged = !current || speaker !== current.speaker;
      current = { start, end, speaker, text: body };
      if (speaker && speakerChanged) current.text = `${speaker}: ${body}`;
    }
  }
  if (current) cues.push(current);
  return cues.map(({ start, end, text }) => ({ start, end, text }));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
function srtTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`;
}

/** Timed text → SubRip: ordered by start, empty cues dropped, a cue that runs into the next one ends where it starts. */
export function toSrt(cues: TimedText[]): string {
  const sorted = cues
    .filter((c) => c.text.trim() && Number.isFinite(c.start))
    .map((c) => ({ ...c, start: Math.max(0, c.start), end: Math.max(c.start, c.end) }))
    .sort((a, b) => a.start - b.start);
  for (let i = 0; i < sorted.length - 1; i++) {
    if (sorted[i]!.end > sorted[i + 1]!.start) sorted[i]!.end = sorted[i + 1]!.start;
  }
  return sorted.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${c.text.trim()}\n`).join('\n');
}

/** A transcript file's text → SubRip that the content model accepts; throws with the reason when it cannot. */
export function convertTranscript(text: string, format: TranscriptFormat): string {
  let cues: TimedText[];
  try {
    cues = format === 'srt' ? fromSrt(text) : format === 'vtt' ? fromVtt(text) : fromJson(text);
  } catch (e) {
    throw new Error(`is not a readable ${format.toUpperCase()} transcript (${(e as Error).message})`);
  }
  const srt = toSrt(cues);
  const { problems } = parseSrt(srt);
  if (problems.length) throw new Error(`has no usable cues (${problems[0]!.message})`);
  return srt;
}
