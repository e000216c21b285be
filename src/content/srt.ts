import SrtParser from 'srt-parser-2';

export interface Cue {
  /** Start, in seconds (millisecond precision). */
  start: number;
  end: number;
  text: string;
}

export interface SrtProblem {
  line: number;
  message: string;
}

const TIME_LINE = /^(\d{1,2}):(\d{2}):(\d{2})[,.](\d{3})\s*-->\s*(\d{1,2}):(\d{2}):(\d{2})[,.](\d{3})(?:\s.*)?$/;

/** A cue as written: its text lines untouched (markup and spacing kept). */
export interface SrtBlock {
  start: number;
  end: number;
  lines: string[];
}

/** Parses SubRip text into cues (plain text, spacing collapsed), or tells the exact lines that are wrong. */
export function parseSrt(text: string): { cues: Cue[]; problems: SrtProblem[] } {
  return srtCues(parseSrtBlocks(text));
}

/** parseSrt's cues from parseSrtBlocks' result (the content model keeps the blocks by content, src/content/load.ts). */
export function srtCues({ blocks, problems }: { blocks: SrtBlock[]; problems: SrtProblem[] }): { cues: Cue[]; problems: SrtProblem[] } {
  if (problems.length) return { cues: [], problems };
  const cues = blocks.map((b) => ({
    start: b.start,
    end: b.end,
    text: b.lines.join('\n').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim(),
  }));
  return { cues, problems };
}

/**
 * SubRip's blocks: a cue number, a time line, text lines up to a blank line. srt-parser-2 reads them; it is lenient
 * and silently drops blocks it cannot read, so the structure is checked first, line by line, to tell editors the
 * exact line that is wrong. Times are rounded to the millisecond. A build reads a transcript once: the content
 * model keeps the blocks by content (src/content/load.ts), and the renderer (src/build/transcripts.ts) takes them
 * from there; at 1,000 hour-long episodes a second read was ~6 s of CPU on the thread writing the transcripts.
 */
export function parseSrtBlocks(text: string): { blocks: SrtBlock[]; problems: SrtProblem[] } {
  const problems: SrtProblem[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  let i = 0;
  let blocks = 0;
  let previousEnd = -1;
  while (i < lines.length) {
    while (i < lines.length && lines[i]!.trim() === '') i++;
    if (i >= lines.length) break;
    const indexLine = lines[i]!.trim();
    if (!/^\d+$/.test(indexLine)) {
      problems.push({ line: i + 1, message: `expected a cue number, found "${clip(indexLine)}"` });
      while (i < lines.length && lines[i]!.trim() !== '') i++;
      continue;
    }
    const timeLine = (lines[i + 1] ?? '').trim();
    const m = TIME_LINE.exec(timeLine);
    if (!m) {
      problems.push({
        line: i + 2,
        message: `expected a time line "HH:MM:SS,mmm --> HH:MM:SS,mmm", found "${clip(timeLine)}"`,
      });
      i += 1;
      while (i < lines.length && lines[i]!.trim() !== '') i++;
      continue;
    }
    const start = +m[1]! * 3600 + +m[2]! * 60 + +m[3]! + +m[4]! / 1000;
    const end = +m[5]! * 3600 + +m[6]! * 60 + +m[7]! + +m[8]! / 1000;
    if (+m[3]! > 59 || +m[2]! > 59 || +m[7]! > 59 || +m[6]! > 59) {
      problems.push({ line: i + 2, message: `minutes and seconds must be 00–59 in "${clip(timeLine)}"` });
    } else if (end < start) {
      problems.push({ line: i + 2, message: `cue ends before it starts: "${clip(timeLine)}"` });
    } else if (start < previousEnd - 0.001) {
      problems.push({ line: i + 2, message: `cue starts before the previous cue ends: "${clip(timeLine)}"` });
    }
    previousEnd = end;
    blocks++;
    i += 2;
    while (i < lines.length && lines[i]!.trim() !== '') {
      // A cue number and time line inside a cue's text: the blank line before them is missing, and srt-parser-2
      // would read the two cues as one (it had been reported as "only 4 of 3 cues could be read", at line 1).
      if (/^\d+$/.test(lines[i]!.trim()) && TIME_LINE.test((lines[i + 1] ?? '').trim())) {
        problems.push({ line: i + 1, message: `a blank line must come before cue ${lines[i]!.trim()} (every cue ends with an empty line)` });
      }
      i++;
    }
  }
  if (blocks === 0 && problems.length === 0) problems.push({ line: 1, message: 'contains no cues' });
  if (problems.length) return { blocks: [], problems };

  const parsed = new SrtParser().fromSrt(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  if (parsed.length !== blocks) return { blocks: [], problems: [{ line: 1, message: `only ${parsed.length} of ${blocks} cues could be read` }] };
  return { blocks: parsed.map((c) => ({ start: round3(c.startSeconds), end: round3(c.endSeconds), lines: c.text.split('\n') })), problems };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
