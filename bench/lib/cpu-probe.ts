/**
 * How fast this machine's CPU is just then, measured just before each build beside what a new file costs
 * (fs-probe.ts): a fixed piece of the work a build does most, on one core.
 *
 * The same code's full build at N = 1,000 measured 83.5 s one day (CPU 158 s) and 55 s the next (CPU ~120 s): the
 * machines these runs get differ from one session to the next, and so does what shares their cores. A build
 * figure is only comparable across runs beside a figure of the machine that does not depend on the project's code,
 * so this one uses nothing of it: zlib's gzip at the level the build uses for its bulk documents, and Lunr's
 * English stemmer and a Map of counts (the search analysis's inner loop), over text made from a fixed seed.
 */
import { gzipSync } from 'node:zlib';
import lunr from 'lunr';
import { rng } from '../corpus.ts';

/** ~2 MB of words from a fixed seed (the corpus's generator): the same text on every machine and run. */
function referenceText(): string {
  const next = rng(1234567);
  const syllables = ['ba', 'ker', 'ing', 'hon', 'ey', 'tion', 'wa', 'ter', 'ed', 'stone', 'li', 'ness', 'bee', 'ful', 'ro', 'ly'];
  const words: string[] = [];
  for (let i = 0; i < 4000; i++) {
    let w = '';
    for (let k = 1 + Math.floor(next() * 3); k > 0; k--) w += syllables[Math.floor(next() * syllables.length)];
    words.push(w);
  }
  const out: string[] = [];
  // Zipf-like: the first words far commoner, as in speech.
  for (let i = 0; i < 330_000; i++) out.push(words[Math.floor(words.length * next() ** 3)]!);
  return out.join(' ');
}

let text: string | undefined;

/** The fixed work, once. */
function work(text: string): void {
  gzipSync(text, { level: 5 });
  const counts = new Map<string, number>();
  for (const word of text.split(' ')) {
    const stem = lunr.stemmer(new lunr.Token(word, {})).toString();
    counts.set(stem, (counts.get(stem) ?? 0) + 1);
  }
}

/**
 * Milliseconds for the fixed work (~0.2 s on the forty-fifth session's machine), the median of `rounds` after one
 * not counted (the first in a process is ~20% slower while V8 compiles it): lower is a faster machine.
 */
export function cpuProbeMs(rounds = 5): number {
  text ??= referenceText();
  work(text);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    work(text);
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}
