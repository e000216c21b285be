/**
 * A deterministic, seeded generator of a podcast at network scale: N episodes of 30–90 minutes with SRT
 * transcripts of ~9,000 words an hour, Zipf-distributed vocabulary plus rare proper nouns, written as real
 * content files so the real build runs on them.
 *
 *   node bench/corpus.ts --episodes 100 --out /tmp/corpus [--seed 42]
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDuration } from '../src/content/duration.ts';

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

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'sto', 'vel', 'dra', 'pin', 'qua', 'zor', 'bel', 'tan', 'mor', 'shi', 'fen',
  'gal', 'hu', 'jet', 'nor', 'pra', 'sel', 'tri', 'ul', 'vok', 'wen', 'yar', 'ex', 'ion', 'ath', 'cor', 'dun', 'eph'];
/** Common English words head the ranking so the stop-word filter and stemmer see realistic text. */
const COMMON = ('the of and to a in that is it you was for on are with as I his they be at one have this from or had ' +
  'by not but what some we can out other were all there when up use your how said an each she which do their time if ' +
  'will way about many then them write would like so these her long make thing see him two has look more day could go ' +
  'come did number sound no most people my over know water than call first who may down side been now find').split(' ');

export interface CorpusOptions {
  episodes: number;
  out: string;
  seed?: number;
  vocabulary?: number;
}

export function generateCorpus({ episodes, out, seed = 42, vocabulary = 30_000 }: CorpusOptions) {
  const random = rng(seed);
  const pick = <T,>(list: T[]) => list[Math.floor(random() * list.length)]!;

  // Vocabulary: common words first, then synthetic words; Zipf weights 1/rank^1.07.
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < vocabulary) {
    const n = 1 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += pick(SYLLABLES);
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  const cumulative = new Float64Array(words.length);
  let sum = 0;
  for (let r = 0; r < words.length; r++) cumulative[r] = sum += 1 / Math.pow(r + 1, 1.07);
  const zipfWord = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo]!;
  };
  const properNouns = Array.from({ length: 2000 }, () => {
    const w = pick(SYLLABLES) + pick(SYLLABLES) + pick(SYLLABLES);
    return w[0]!.toUpperCase() + w.slice(1);
  });

  rmSync(out, { recursive: true, force: true });
  for (const dir of ['episodes', 'transcripts', 'audio']) mkdirSync(join(out, dir), { recursive: true });
  const show = readFileSync(resolve(import.meta.dirname, '../content/podcast.yaml'), 'utf8')
    .replace(/^title: .*$/m, 'title: Bench Network Show')
    .replace(/^audioBaseUrl: .*$/m, 'audioBaseUrl: "https://cdn.example.com/audio"');
  writeFileSync(join(out, 'podcast.yaml'), show);

  let totalWords = 0;
  for (let id = 1; id <= episodes; id++) {
    const minutes = 30 + Math.floor(random() * 61);
    const seconds = minutes * 60;
    const wordsPerSecond = 9000 / 3600;
    const cues: string[] = [];
    let t = 0;
    let n = 0;
    while (t < seconds - 4) {
      const count = 6 + Math.floor(random() * 9);
      const cueWords: string[] = [];
      for (let i = 0; i < count; i++) cueWords.push(random() < 0.004 ? pick(properNouns) : zipfWord());
      totalWords += count;
      const duration = count / wordsPerSecond;
      const end = Math.min(seconds, t + duration);
      cues.push(`${++n}\n${srtTime(t)} --> ${srtTime(end)}\n${cueWords.join(' ')}.\n`);
      t = end + 0.1;
    }
    const slug = `${String(id).padStart(4, '0')}-episode`;
    writeFileSync(join(out, 'transcripts', `${slug}.srt`), cues.join('\n'));
    const guest = `${pick(properNouns)} ${pick(properNouns)}`;
    const topics = Array.from({ length: 3 }, () => zipfWord());
    const title = `${pick(properNouns)} and the ${zipfWord()} of ${zipfWord()}`;
    const chapters = [0, 0.25, 0.5, 0.75].map((f, i) => `  - start: "${formatDuration(seconds * f)}"\n    title: Part ${i + 1}`);
    const date = new Date(Date.UTC(2015, 0, 1) + id * 7 * 86400_000).toISOString().slice(0, 10);
    writeFileSync(
      join(out, 'episodes', `${slug}.md`),
      `---\nid: ${id}\nseason: ${1 + Math.floor((id - 1) / 50)}\ntitle: "${title}"\ndate: ${date}\nduration: "${formatDuration(seconds)}"\n` +
        `audioFile: ${slug}.mp3\nsrtFile: ${slug}.srt\nguests:\n  - ${guest}\ntopics:\n${topics.map((x) => `  - ${x}`).join('\n')}\n` +
        `chapters:\n${chapters.join('\n')}\n---\nA conversation with ${guest} about ${topics.join(', ')}.\n`,
    );
  }
  return { out, episodes, totalWords };
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
  console.log(`${result.episodes} episodes, ${result.totalWords.toLocaleString('en')} words → ${out} in ${Math.round(performance.now() - started)} ms`);
}
