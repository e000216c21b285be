/**
 * A deterministic, seeded generator of a podcast at network scale: N episodes of 30–90 minutes with SRT
 * transcripts of ~9,000 words an hour, Zipf-distributed vocabulary plus rare proper nouns, written as real
 * content files so the real build runs on them.
 *
 *   node bench/corpus.ts --episodes 100 --out /tmp/corpus [--seed 42]
 *
 * Same seed and N → byte-identical files. What makes the text realistic enough for an index to behave as it
 * would on real shows:
 *   - word frequencies follow Zipf (1/rank^1.07), with real English function words at the head, so the stop-word
 *     filter removes about as much as on real speech;
 *   - generated words have English-like shapes, prefixes and inflections (see ONSETS below);
 *   - the vocabulary grows with the corpus (Heaps' law, V ≈ 44·W^0.49: ~37k distinct words for 100 hour-long
 *     episodes, ~110k for 1,000) instead of saturating, as names and jargon do on a long-running show;
 *   - about 1 word in 250 is a capitalized proper noun from a pool that also grows with N;
 *   - sentences run across cues (about 60% of cues end one), cues wrap onto two lines at ~42 characters,
 *     as captioning tools produce them, so the passage builder sees real sentence boundaries.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDuration } from '../contract/duration.ts';

/** An episode's file name without extension, the same for its Markdown, transcript and audio. */
export function episodeSlug(id: number): string {
  return `${String(id).padStart(4, '0')}-episode`;
}

/** mulberry32: small, fast, good enough for reproducible synthetic text. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Words are built the way English ones are, so that prefix search and the stemmer meet realistic text: a
 * syllable is onset + vowel + coda, drawn with English-like letter weights (s, c, p lead as initials; e, a, i
 * as vowels); a sixth of words carry a Latinate prefix (con-, pro-, re-...), and a stem often appears with its
 * inflections (-s, -ing, -ed, -er...), which the Porter stemmer folds together as it does in English. The
 * result: the commonest three-letter prefixes cover 1–2% of the vocabulary each, as "con", "pro", "dis" do in
 * English, instead of the flat or lumpy share an alphabet of fixed syllables would give.
 */
const ONSETS: Array<[string, number]> = [['s', 11], ['c', 9], ['p', 8], ['m', 6], ['b', 6], ['t', 6], ['d', 6], ['r', 5],
  ['f', 4], ['h', 4], ['g', 4], ['l', 4], ['w', 3], ['n', 3], ['v', 2], ['st', 3], ['pr', 3], ['tr', 2], ['br', 1.5],
  ['cr', 1.5], ['gr', 1.5], ['fl', 1], ['pl', 1], ['ch', 2], ['sh', 2], ['th', 2], ['k', 1], ['j', 1], ['sp', 1.5], ['sc', 1.5]];
const VOWELS: Array<[string, number]> = [['e', 24], ['a', 22], ['i', 18], ['o', 16], ['u', 8], ['ea', 3], ['ou', 3], ['ai', 2], ['io', 2], ['y', 2]];
const CODAS: Array<[string, number]> = [['', 30], ['n', 10], ['r', 9], ['s', 7], ['l', 7], ['t', 7], ['m', 4], ['nd', 3], ['st', 3],
  ['ck', 2], ['ng', 2], ['x', 1], ['rt', 2], ['ld', 1]];
const PREFIXES: Array<[string, number]> = [['con', 4], ['re', 5], ['pro', 3], ['dis', 2], ['pre', 2], ['in', 3], ['un', 2], ['ex', 2],
  ['de', 2], ['com', 2], ['per', 1], ['trans', 1], ['sub', 1], ['inter', 1]];
const INFLECTIONS = ['s', 'ing', 'ed', 'er', 'ly', 'tion', 'ment', 'ness', 'al', 'ive', 'able'];

function weighted(random: () => number, table: Array<[string, number]>): () => string {
  const total = table.reduce((a, [, w]) => a + w, 0);
  return () => {
    let x = random() * total;
    for (const [value, w] of table) if ((x -= w) < 0) return value;
    return table.at(-1)![0];
  };
}

/** Common English words head the ranking so the stop-word filter and stemmer see realistic text. */
const COMMON = ('the of and to a in that is it you was for on are with as I his they be at one have this from or had ' +
  'by not but what some we can out other were all there when up use your how said an each she which do their time if ' +
  'will way about many then them write would like so these her long make thing see him two has look more day could go ' +
  'come did number sound no most people my over know water than call first who may down side been now find').split(' ');

/** Spoken words per second: 9,000 an hour. */
const WORDS_PER_SECOND = 9000 / 3600;
/** Average cue: 10 words (6–14) and a 0.1 s gap, so the effective rate is ~8,800 words an hour. */
const AVERAGE_EPISODE_WORDS = 60 * 60 * 2.44;
/** The last episode's date: fixed, so the corpus does not depend on the day it is generated, and in the past. */
const LAST_DATE = Date.UTC(2024, 11, 30);

export interface CorpusOptions {
  episodes: number;
  out: string;
  seed?: number;
  /** Distinct generated words; default from Heaps' law for the expected word count. */
  vocabulary?: number;
}

export interface Corpus {
  out: string;
  episodes: number;
  totalWords: number;
  totalSeconds: number;
  /** The vocabulary by frequency rank (0 = most frequent), for drawing benchmark queries from it. */
  words: string[];
  /** Rank of the first generated (non-English) word: everything before it is a function word. */
  firstContentRank: number;
  properNouns: string[];
  /** Per episode: its title words, topics and guest, for queries that should find a known episode. */
  meta: Array<{ id: number; title: string; topics: string[]; guest: string }>;
}

/** Heaps' law with K=44, β=0.49 (mid-range for English text): distinct words expected in W running words. */
export function heapsVocabulary(totalWords: number): number {
  return Math.max(5000, Math.round(44 * Math.pow(totalWords, 0.49)));
}

export function generateCorpus({ episodes, out, seed = 42, vocabulary }: CorpusOptions): Corpus {
  if (!Number.isInteger(episodes) || episodes < 1) throw new Error(`episodes must be a positive integer, got ${episodes}`);
  const random = rng(seed);
  const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const size = vocabulary ?? heapsVocabulary(episodes * AVERAGE_EPISODE_WORDS);

  // Vocabulary: common words first, then generated stems, each followed by some of its inflected forms.
  const onset = weighted(random, ONSETS);
  const vowel = weighted(random, VOWELS);
  const coda = weighted(random, CODAS);
  const prefix = weighted(random, PREFIXES);
  const syllable = () => onset() + vowel() + coda();
  const words = [...COMMON];
  const seen = new Set(words);
  const add = (w: string) => {
    if (w.length < 3 || seen.has(w) || words.length >= size) return false;
    seen.add(w);
    words.push(w);
    return true;
  };
  while (words.length < size) {
    const n = 1 + Math.floor(random() * 2.6);
    let stem = random() < 0.12 ? prefix() : '';
    for (let i = 0; i < n; i++) stem += syllable();
    if (!add(stem)) continue;
    for (const suffix of INFLECTIONS) if (random() < 0.12) add(stem + suffix);
  }
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let r = 0; r < words.length; r++) cumulative[r] = sum += 1 / Math.pow(r + 1, 1.07);
  const zipfRank = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const zipfWord = () => words[zipfRank()]!;
  /** A content word of middling frequency: what topics and titles are made of (never a function word). */
  const topicWord = () => words[COMMON.length + 50 + Math.floor(Math.pow(random(), 2) * Math.min(5000, words.length - COMMON.length - 50))]!;
  const nounSet = new Set<string>();
  const nounCount = Math.max(2000, episodes * 5);
  while (nounSet.size < nounCount) {
    const w = syllable() + syllable() + (random() < 0.5 ? syllable() : '');
    nounSet.add(w[0]!.toUpperCase() + w.slice(1));
  }
  const properNouns = [...nounSet];
  const capitalize = (w: string) => w[0]!.toUpperCase() + w.slice(1);

  rmSync(out, { recursive: true, force: true });
  for (const dir of ['episodes', 'transcripts', 'audio']) mkdirSync(join(out, dir), { recursive: true });
  const show = readFileSync(resolve(import.meta.dirname, '../content/podcast.yaml'), 'utf8')
    .replace(/^title: .*$/m, 'title: Bench Network Show')
    .replace(/^audioBaseUrl: .*$/m, 'audioBaseUrl: "https://cdn.example.com/audio"');
  writeFileSync(join(out, 'podcast.yaml'), show);

  let totalWords = 0;
  let totalSeconds = 0;
  const meta: Corpus['meta'] = [];
  for (let id = 1; id <= episodes; id++) {
    const minutes = 30 + Math.floor(random() * 61);
    const seconds = minutes * 60;
    totalSeconds += seconds;
    const guest = `${pick(properNouns)} ${pick(properNouns)}`;
    const topics = [...new Set(Array.from({ length: 3 }, topicWord))];
    // The episode's own subject comes up again and again in its transcript, as on a real show.
    const subject = [...topics, guest.split(' ')[1]!];
    const cues: string[] = [];
    let t = 0;
    let n = 0;
    let sentenceStart = true;
    while (t < seconds - 4) {
      const count = 6 + Math.floor(random() * 9);
      const cueWords: string[] = [];
      for (let i = 0; i < count; i++) {
        const r = random();
        let w = r < 0.004 ? pick(properNouns) : r < 0.01 ? pick(subject) : zipfWord();
        if (sentenceStart) w = capitalize(w);
        sentenceStart = false;
        cueWords.push(w);
      }
      const end = random();
      let text = cueWords.join(' ');
      if (end < 0.5) text += '.';
      else if (end < 0.6) text += '?';
      else if (end < 0.75) text += ',';
      sentenceStart = end < 0.6;
      totalWords += count;
      const cueEnd = Math.min(seconds, t + count / WORDS_PER_SECOND);
      cues.push(`${++n}\n${srtTime(t)} --> ${srtTime(cueEnd)}\n${wrap(text)}\n`);
      t = cueEnd + 0.1;
    }
    const slug = episodeSlug(id);
    writeFileSync(join(out, 'transcripts', `${slug}.srt`), cues.join('\n'));
    const title = `${pick(properNouns)} and the ${topics[0]} of ${topicWord()}`;
    meta.push({ id, title, topics, guest });
    const chapters = [0, 0.25, 0.5, 0.75].map(
      (f, i) => `  - start: "${formatDuration(seconds * f)}"\n    title: ${capitalize(i === 0 ? 'welcome' : topicWord())} ${i === 0 ? 'and introductions' : `and ${topicWord()}`}`,
    );
    const date = new Date(LAST_DATE - (episodes - id) * 7 * 86400_000).toISOString().slice(0, 10);
    const blurb = Array.from({ length: 40 + Math.floor(random() * 80) }, () => (random() < 0.05 ? pick(subject) : zipfWord()));
    writeFileSync(
      join(out, 'episodes', `${slug}.md`),
      `---\nid: ${id}\nseason: ${1 + Math.floor((id - 1) / 50)}\ntitle: "${title}"\ndate: ${date}\nduration: "${formatDuration(seconds)}"\n` +
        `audioFile: ${slug}.mp3\nsrtFile: ${slug}.srt\nguests:\n  - ${guest}\ntopics:\n${topics.map((x) => `  - ${x}`).join('\n')}\n` +
        `chapters:\n${chapters.join('\n')}\n---\nA conversation with ${guest} about ${topics.join(', ')}.\n\n${capitalize(blurb.join(' '))}.\n`,
    );
  }
  return { out, episodes, totalWords, totalSeconds, words, firstContentRank: COMMON.length, properNouns, meta };
}

/** Captioning style: at most two lines, broken near the middle once the cue is longer than 42 characters. */
function wrap(text: string): string {
  if (text.length <= 42) return text;
  const middle = text.lastIndexOf(' ', Math.ceil(text.length / 2));
  return middle > 0 ? `${text.slice(0, middle)}\n${text.slice(middle + 1)}` : text;
}

function srtTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor((ms % 3_600_000) / 60_000))}:${pad(Math.floor((ms % 60_000) / 1000))},${pad(ms % 1000, 3)}`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { episodes: { type: 'string', default: '100' }, out: { type: 'string' }, seed: { type: 'string', default: '42' } },
  });
  const out = values.out ?? `/tmp/podcast-corpus-${values.episodes}`;
  const started = performance.now();
  const result = generateCorpus({ episodes: Number(values.episodes), out, seed: Number(values.seed) });
  console.log(
    `${result.episodes} episodes, ${(result.totalSeconds / 3600).toFixed(1)} h, ${result.totalWords.toLocaleString('en')} words, ` +
      `vocabulary ${result.words.length.toLocaleString('en')} → ${out} in ${Math.round(performance.now() - started)} ms`,
  );
}
