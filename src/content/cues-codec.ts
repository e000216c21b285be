/**
 * A parsed SubRip transcript ({ cues, problems }) as the content cache keeps it: the cues' times as one
 * Float64Array, their texts as one UTF-8 run with each text's length, the problems as JSON. Every thread of a build
 * reads every episode's cues back from the cache (Astro's content load, the per-episode documents, the search
 * index), and as JSON that was 1.3-1.65 s of a rebuild's profile on each thread at 1,000 hour-long episodes: 884,180
 * small objects parsed from 91 MB of JSON (~0.6 s alone in one process; ~0.06 s so). Here the texts are one decode and
 * a slice each. Anything the layout cannot hold exactly (a cue with other fields, a text that is not well-formed
 * UTF-16) is kept as JSON inside the frame instead.
 */
import type { Cue, SrtProblem } from './srt.ts';
import { framed, unframed, type Codec } from './parse-cache.ts';

export interface ParsedCues {
  cues: Cue[];
  problems: SrtProblem[];
}

type Head = { count: number; problems: SrtProblem[] } | { json: ParsedCues };

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

export const CUES_CODEC: Codec<ParsedCues> = {
  encode(value) {
    const { cues, problems } = value;
    const lengths = new Uint32Array(cues.length);
    const times = new Float64Array(cues.length * 2);
    let plain = Object.keys(value).length === 2;
    for (let i = 0; i < cues.length && plain; i++) {
      const cue = cues[i]!;
      plain = Object.keys(cue).length === 3 && typeof cue.start === 'number' && typeof cue.end === 'number' && typeof cue.text === 'string' && cue.text.isWellFormed();
      times[2 * i] = cue.start;
      times[2 * i + 1] = cue.end;
      lengths[i] = cue.text.length;
    }
    if (!plain) return framed({ json: value } satisfies Head, []);
    const text = utf8.encode(cues.map((c) => c.text).join(''));
    return framed({ count: cues.length, problems } satisfies Head, [new Uint8Array(times.buffer), new Uint8Array(lengths.buffer), text], 8);
  },
  decode(bytes) {
    const { head, body } = unframed<Head>(bytes, 8);
    if ('json' in head) return head.json;
    const n = head.count;
    const times = new Float64Array(body.buffer, body.byteOffset, 2 * n);
    const lengths = new Uint32Array(body.buffer, body.byteOffset + 16 * n, n);
    const text = fromUtf8.decode(body.subarray(20 * n));
    const cues = new Array<Cue>(n);
    let at = 0;
    for (let i = 0; i < n; i++) cues[i] = { start: times[2 * i]!, end: times[2 * i + 1]!, text: text.slice(at, (at += lengths[i]!)) };
    if (at !== text.length) throw new Error('damaged cues entry');
    return { cues, problems: head.problems };
  },
};

/** What an entry says of its transcript without making a cue: how many, where the last one ends, the problems. */
export interface CuesSummary {
  count: number;
  /** The last cue's end (seconds); undefined without cues. */
  lastEnd: number | undefined;
  problems: SrtProblem[];
}

/**
 * CUES_CODEC.decode's summary, read from the head and one time of the body: for a thread that needs an episode's
 * cues only if its search analysis is not kept (src/content/load.ts, loadCuesOnDemand). Throws on an entry too short
 * for its head, as decode does.
 */
export function peekCues(bytes: Uint8Array): CuesSummary {
  const { head, body } = unframed<Head>(bytes, 8);
  if ('json' in head) return { count: head.json.cues.length, lastEnd: head.json.cues.at(-1)?.end, problems: head.json.problems };
  const n = head.count;
  if (body.byteLength < 20 * n) throw new Error('damaged cues entry');
  const lastEnd = n ? new DataView(body.buffer, body.byteOffset, body.byteLength).getFloat64(16 * n - 8, true) : undefined;
  return { count: n, lastEnd, problems: head.problems };
}
