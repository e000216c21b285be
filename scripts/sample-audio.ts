/**
 * `npm run sample:audio [-- 001-sourdough 002-cryptography ...]`: makes the sample show's MP3s from its transcripts.
 *
 * Every cue is spoken with espeak-ng (one voice per speaker: the host keeps hers, each guest gets another) and
 * placed at its cue's start time with sox; a cue whose speech would run into the next cue is spoken faster. The
 * result is padded to the episode's `duration` and encoded by lame as a small mono MP3 (16 kbit/s, 16 kHz), so the
 * audio matches the transcript second for second and the whole sample stays around 25 MB.
 *
 * An episode without a transcript (013) gets its chapter titles spoken at each chapter's start, the show notes
 * read after the first one, and silence up to its duration.
 *
 * Needs espeak-ng, sox and lame (Debian: apt-get install espeak-ng sox lame). Building and testing do not: the
 * generated MP3s are committed. Run it under `nice`; it uses one core per episode.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadContent, type LoadedEpisode } from '../src/content/load.ts';
import { parseDuration } from '../contract/duration.ts';
import { splitSpeaker } from '../src/components/transcript.ts';
import { mp3Duration } from '../src/content/mp3.ts';

const RATE = 16_000;
const BITRATE = 16;
const BASE_WPM = 165;
const MAX_WPM = 420;

interface Line {
  start: number;
  /** When the next line starts (or the episode ends): the speech must be over by then. */
  until: number;
  speaker: string;
  text: string;
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.error) throw new Error(`${cmd} is needed (${(r.error as NodeJS.ErrnoException).code}); on Debian: apt-get install espeak-ng sox lame`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
}

/** Seconds of audio in a WAV file espeak-ng wrote (16-bit mono; header 44 bytes). */
function wavSeconds(path: string, rate: number): number {
  const bytes = readFileSync(path);
  const data = bytes.indexOf('data', 12, 'latin1');
  return (bytes.length - (data + 8)) / 2 / rate;
}

const FEMALE = new Set(['Maya', 'Fiona', 'Helga', 'Ines', 'Lotte', 'Oona', 'Priya', 'Anya']);
const FEMALE_VOICES = ['en-gb+f2', 'en-gb-scotland+f4', 'en-gb-x-rp+f1', 'en-029+f3'];
const MALE_VOICES = ['en-gb+m3', 'en-gb-scotland+m1', 'en-us+m7', 'en-gb-x-rp+m4'];
const HOST_VOICE = 'en-us+f3';

function voices(episode: LoadedEpisode, host: string): (speaker: string) => string {
  const assigned = new Map<string, string>([[host, HOST_VOICE]]);
  let f = 0;
  let m = 0;
  return (speaker) => {
    let voice = assigned.get(speaker);
    if (!voice) {
      const first = speaker.split(/\s+/)[0]!;
      const female = FEMALE.has(first) || episode.guests?.some((g) => g.startsWith(first) && FEMALE.has(g.split(' ')[0]!));
      voice = female ? FEMALE_VOICES[f++ % FEMALE_VOICES.length]! : MALE_VOICES[m++ % MALE_VOICES.length]!;
      assigned.set(speaker, voice);
    }
    return voice;
  };
}

/** The lines to speak: one per cue, with the speaker carried over from the cue that opened the turn. */
function linesOf(episode: LoadedEpisode, host: string): Line[] {
  const end = episode.seconds!;
  if (episode.cues?.length) {
    let speaker = host;
    const cues = episode.cues;
    return cues.map((cue, i) => {
      const split = splitSpeaker(cue.text);
      if (split.speaker) speaker = split.speaker;
      return { start: cue.start, until: cues[i + 1]?.start ?? end, speaker, text: split.text };
    });
  }
  // No transcript: the chapter titles at their starts, and the show notes read after the first title.
  const starts = (episode.chapters ?? []).map((c) => parseDuration(c.start)!);
  const lines: Line[] = [];
  (episode.chapters ?? []).forEach((c, i) => {
    const until = starts[i + 1] ?? end;
    const title = `Chapter ${i + 1}. ${c.title}.`;
    if (i === 0 && episode.desc) {
      lines.push({ start: starts[i]!, until: starts[i]! + 6, speaker: host, text: `${episode.title}. ${title}` });
      lines.push({ start: starts[i]! + 6, until, speaker: host, text: episode.desc });
    } else lines.push({ start: starts[i]!, until, speaker: host, text: title });
  });
  return lines;
}

function makeEpisode(episode: LoadedEpisode, audioDir: string, host: string, show: string): void {
  const duration = episode.seconds!;
  const work = mkdtempSync(join(tmpdir(), `sample-audio-${episode.slug}-`));
  try {
    const voiceOf = voices(episode, host);
    const segments: string[] = [];
    let cursor = 0;
    const lines = linesOf(episode, host);
    lines.forEach((line, i) => {
      const raw = join(work, `${i}.wav`);
      const slot = Math.max(0.5, line.until - line.start - 0.15);
      let wpm = BASE_WPM;
      const speak = () => run('espeak-ng', ['-v', voiceOf(line.speaker), '-s', String(wpm), '-w', raw, '--', line.text]);
      speak();
      let seconds = wavSeconds(raw, 22_050);
      if (seconds > slot && wpm < MAX_WPM) {
        wpm = Math.min(MAX_WPM, Math.ceil((wpm * seconds * 1.04) / slot));
        speak();
        seconds = wavSeconds(raw, 22_050);
      }
      const gap = Math.max(0, line.start - cursor);
      const seg = join(work, `s${i}.wav`);
      const effects = ['rate', String(RATE)];
      // Still too long at the fastest rate: squeeze it in time (pitch kept).
      if (seconds > slot) effects.push('tempo', '-s', (seconds / slot).toFixed(3));
      effects.push('pad', gap.toFixed(3), '0');
      run('sox', [raw, '-c', '1', seg, ...effects]);
      cursor += wavSeconds(seg, RATE); // the gap included
      segments.push(seg);
    });
    const full = join(work, 'full.wav');
    run('sox', [...segments, full]);
    const padded = join(work, 'padded.wav');
    const rest = Math.max(0, duration - cursor);
    run('sox', [full, padded, 'pad', '0', rest.toFixed(3), 'trim', '0', String(duration)]);
    const out = join(audioDir, episode.audioFile!);
    run('lame', [
      '--silent', '-m', 'm', '-b', String(BITRATE), '--resample', String(RATE / 1000), '-q', '2',
      '--tt', episode.title, '--ta', show, '--tl', show, '--tn', String(episode.id), '--ty', episode.date!.slice(0, 4),
      '--add-id3v2', padded, out,
    ]);
    const bytes = readFileSync(out);
    const measured = mp3Duration(bytes);
    console.log(`${episode.audioFile}: ${measured.toFixed(1)} s (duration ${duration} s), ${(statSync(out).size / 1024).toFixed(0)} KB, ${lines.length} lines`);
    if (Math.abs(measured - duration) > 2) throw new Error(`${episode.audioFile} is ${measured} s long, not ${duration} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const root = resolve(import.meta.dirname, '..');
const { content, errors } = loadContent(join(root, 'content'), process.env, root);
if (!content) {
  console.error(errors.join('\n'));
  process.exit(1);
}
const USAGE = `Usage: npm run sample:audio [-- SLUG ...]

  SLUG   an episode's slug (its file name without .md, e.g. 001-sourdough); default: every episode`;
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const wanted = process.argv.slice(2);
// A mistyped slug (or an option) made nothing and said nothing.
const unknown = wanted.filter((slug) => !content.episodes.some((e) => e.slug === slug));
if (unknown.length) {
  console.error(`sample:audio: no episode ${unknown.map((s) => `"${s}"`).join(', ')}; the slugs are ${content.episodes.map((e) => e.slug).join(', ')}\n\n${USAGE}`);
  process.exit(1);
}
const host = content.show.owner.name.split(/\s+/)[0]!;
for (const episode of content.episodes) {
  if (wanted.length && !wanted.includes(episode.slug)) continue;
  if (!episode.audioFile || episode.seconds === undefined) continue;
  makeEpisode(episode, content.dirs.audio, host, content.show.title);
}
