/**
 * WebVTT in: parses an editor's .vtt into the same cues as an SRT, and tells the exact line that is wrong
 * (as parseSrt does). Covers what transcripts use: the WEBVTT header, NOTE/STYLE/REGION blocks (skipped), cue
 * identifiers, timings with or without hours and with cue settings, and payload text. A voice span
 * `<v Maya>Hello` becomes "Maya: Hello", the speaker form the rest of the build reads; other tags are dropped
 * and the character references WebVTT allows are decoded.
 */
import type { Cue, SrtProblem } from './srt.ts';

export interface VttCue extends Cue {
  /** The payload as lines of plain text (tags removed, voices as "Name: "), for re-publishing. */
  lines: string[];
}

const TIME = String.raw`(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})`;
const TIMING = new RegExp(String.raw`^${TIME}[ \t]+-->[ \t]+${TIME}(?:[ \t]+.*)?$`);

export function parseVtt(text: string): { cues: VttCue[]; problems: SrtProblem[] } {
  const problems: SrtProblem[] = [];
  const cues: VttCue[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) {
    return { cues, problems: [{ line: 1, message: `must start with "WEBVTT", found "${clip(lines[0] ?? '')}"` }] };
  }
  let i = 1;
  // The header runs to the first blank line.
  while (i < lines.length && lines[i]!.trim() !== '') {
    if (lines[i]!.includes('-->')) {
      problems.push({ line: i + 1, message: 'a blank line must separate the WEBVTT header from the first cue' });
      break;
    }
    i++;
  }
  let previousEnd = -1;
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const first = lines[i]!;
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(first)) {
      while (i < lines.length && lines[i]!.trim() !== '') i++;
      continue;
    }
    // An optional cue identifier, then the timing line: a first line is an identifier only when the timing
    // follows it, so a mistyped timing ("00:01.000 -> 00:02.000") is reported as itself.
    const timingAt = !first.includes('-->') && (lines[i + 1] ?? '').includes('-->') ? i + 1 : i;
    const timing = (lines[timingAt] ?? '').trim();
    const m = TIMING.exec(timing);
    if (!m) {
      problems.push({
        line: timingAt + 1,
        message: `expected a timing line "HH:MM:SS.mmm --> HH:MM:SS.mmm", found "${clip(timing)}"`,
      });
      i = timingAt;
      while (i < lines.length && lines[i]!.trim() !== '') i++;
      continue;
    }
    const start = seconds(m, 1);
    const end = seconds(m, 5);
    if (end < start) problems.push({ line: timingAt + 1, message: `cue ends before it starts: "${clip(timing)}"` });
    else if (start < previousEnd - 0.001) {
      problems.push({ line: timingAt + 1, message: `cue starts before the previous cue ends: "${clip(timing)}"` });
    }
    previousEnd = end;
    i = timingAt + 1;
    const payload: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '') {
      if (lines[i]!.includes('-->')) {
        problems.push({ line: i + 1, message: 'a blank line must end the cue before the next timing line' });
        break;
      }
      payload.push(lines[i]!);
      i++;
    }
    const plain = payload.map(plainText).filter((l) => l !== '');
    cues.push({ start, end, text: plain.join(' ').replace(/\s+/g, ' ').trim(), lines: plain });
  }
  if (!cues.length && !problems.length) problems.push({ line: 1, message: 'contains no cues' });
  return { cues: problems.length ? [] : cues, problems };
}

function seconds(m: RegExpExecArray, at: number): number {
  const total = Number(m[at] ?? 0) * 3600 + Number(m[at + 1]) * 60 + Number(m[at + 2]) + Number(m[at + 3]) / 1000;
  return Math.round(total * 1000) / 1000;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f', quot: '"', apos: "'" };

function plainText(line: string): string {
  return line
    .replace(/<v(?:\.[\w.-]+)?[ \t]+([^>]+)>/g, (_, name: string) => `${name.trim()}: `)
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|nbsp|lrm|rlm|quot|apos);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .trim();
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
