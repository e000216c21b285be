/**
 * Transcript cues → paragraphs a person can read. SRT cues break lines for subtitles, mid-sentence; a reader
 * wants speaker turns. A cue that starts with "Name:" opens a turn; a long turn is split again at a sentence
 * end, so every paragraph's timestamp lands near what it says (and `?t=` highlights a passage, not a monologue).
 */
import type { Cue } from '../content/srt.ts';
import { ENDS_SENTENCE } from '../../contract/search/sentences.ts';

export interface TranscriptParagraph {
  /** Seconds: the first cue's start and the last cue's end. */
  start: number;
  end: number;
  /** Set on the paragraph that opens a speaker turn. */
  speaker?: string;
  text: string;
}

export interface ParagraphOptions {
  /** A turn longer than this many seconds is split at the next sentence end... */
  softSeconds: number;
  /** ...and at the latest after this many, mid-sentence. */
  hardSeconds: number;
}

export const PARAGRAPH_WINDOW: ParagraphOptions = { softSeconds: 45, hardSeconds: 90 };

/**
 * "Maya:" or "Dr. Ines Duarte:" at the start of a cue. A name is one to four capitalised words; this keeps
 * "Note: ..." style prose from being read as a speaker only as far as prose can be told from names at all. Scripts
 * without capitals (Arabic, Hebrew, Chinese, Japanese) have no such sign: a word of at most 12 of their letters
 * counts as a name. French sets a space before the colon ("Maya : ..."), Chinese and Japanese a full-width one
 * ("マヤ：..."), with no space after it.
 */
const NAME_WORD = String.raw`(?:\p{Lu}[\p{L}\p{M}'’.-]*|\p{Lo}[\p{Lo}\p{M}'’.-]{0,11})`;
const SPEAKER = new RegExp(String.raw`^(${NAME_WORD}(?:\s+${NAME_WORD}){0,3})(?:\s?:\s+|\s?：\s*)`, 'u');

export function splitSpeaker(text: string): { speaker?: string; text: string } {
  const m = SPEAKER.exec(text);
  return m ? { speaker: m[1]!, text: text.slice(m[0].length) } : { text };
}

export function groupCues(cues: readonly Cue[], options: ParagraphOptions = PARAGRAPH_WINDOW): TranscriptParagraph[] {
  const paragraphs: TranscriptParagraph[] = [];
  let current: { start: number; end: number; speaker?: string; parts: string[] } | undefined;
  const close = () => {
    if (current?.parts.length) {
      paragraphs.push({
        start: current.start,
        end: current.end,
        ...(current.speaker ? { speaker: current.speaker } : {}),
        text: current.parts.join(' '),
      });
    }
    current = undefined;
  };
  for (const cue of cues) {
    const flat = cue.text.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    const { speaker, text } = splitSpeaker(flat);
    if (speaker || !current) {
      close();
      current = { start: cue.start, end: cue.end, speaker, parts: [] };
    } else {
      const length = cue.start - current.start;
      const last = current.parts.at(-1) ?? '';
      if (length >= options.hardSeconds || (length >= options.softSeconds && ENDS_SENTENCE.test(last))) {
        close();
        current = { start: cue.start, end: cue.end, parts: [] };
      }
    }
    current!.parts.push(text);
    current!.end = cue.end;
  }
  close();
  return paragraphs;
}

/**
 * The paragraph at a moment: the last one that starts at or before it (binary search), in whole seconds,
 * because links carry whole seconds (`?t=32` must find the paragraph that starts at 32.018 s).
 */
export function paragraphAt(starts: readonly number[], seconds: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Math.floor(starts[mid]!) <= seconds) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
