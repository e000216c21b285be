/**
 * Transcript passages as the index sees them: the term of every word (Lunr's tokenizer: lower-cased, split on
 * whitespace and hyphens; then the language's index pipeline: trimmer, stop words, stemmer), in order.
 * The transcript index (sharded-index.ts) and the semantic artifact (semantic.ts) both start from it; it is
 * computed per episode, kept by content hash (src/content/parse-cache.ts: in memory for the build, on disk under
 * the cache folder across builds), so a rebuild analyses only the episodes that changed and a build analyses each
 * passage once, not once per artifact.
 */
import { createHash } from 'node:crypto';
import lunr from 'lunr';
import { loadLanguage } from '../../../contract/search/language.ts';
import type { Passage } from '../../../contract/schemas/search-passages.ts';
import { cachedBytesByKey, contentKey, framed, keep, readKept, unframed, type Codec } from '../../content/parse-cache.ts';
import { SharedClaims } from '../../content/shared-claims.ts';
import type { Cue } from '../../content/srt.ts';
import { cuesOnce } from '../../content/cues-once.ts';
import { cuesCodeIdentity } from '../code-identity.ts';
import { buildPassages, PASSAGE_WINDOW, type PassageWindow } from './passages.ts';
import { Analyzer } from '../../../contract/search/analyzer.ts';

/** Bump when the analysis changes in a way its source text below does not show (e.g. another pipeline, the codec). */
export const ANALYSIS_VERSION = 4;

export interface AnalysedPassages {
  /** Every distinct term. */
  terms: string[];
  /** Per passage (in the order given), the index into `terms` of each word's term, in order, repeats kept. */
  passages: Int32Array[];
  /**
   * The same with stop words in place, as -1 (a word of punctuation alone is no word): what /ask reads of a
   * passage (contract/search/passage-terms.ts), where distances between words are counted as spoken.
   */
  words: Int32Array[];
  /**
   * The passages' groups in order: `count` consecutive passages of `episode` each (one group per episode when the
   * passages are a show's, as buildPassages orders them).
   */
  groups: Array<{ episode?: number; count: number }>;
}

/**
 * One group's analysis as cached: its own terms, and per passage each word's index into them (-1: a stop word). The
 * index's view of a passage (AnalysedPassages.passages) is the same without the -1s.
 */
interface GroupAnalysis {
  terms: string[];
  words: Int32Array[];
}

/**
 * A group's analysis on disk (parse-cache.ts `framed`): a JSON head of each passage's word count, then every word's
 * index as one run of 32-bit integers (this machine's byte order: the cache never leaves it), then the terms, one a
 * line. Read back at N = 1,000 in a fraction of the ~8 s JSON.parse took over the same ~24 million numbers. The
 * terms are decoded when first asked for: a rebuild that keeps the show's merged vocabulary (mergeGroups) never
 * asks for those of the episodes before the first one changed.
 */
export const GROUP_CODEC: Codec<GroupAnalysis> = {
  encode({ terms, words }) {
    const termBytes = encodeLines(terms);
    return framed({ lengths: words.map((w) => w.length), terms: terms.length, termBytes: termBytes.byteLength }, [joinRuns(words), termBytes], 4);
  },
  decode(stored) {
    const { head, body } = unframed<{ lengths: number[]; terms: number; termBytes: number }>(stored, 4);
    const { lengths, terms: count, termBytes } = head;
    const total = Array.isArray(lengths) ? lengths.reduce((n, l) => n + l, 0) : NaN;
    if (body.byteLength !== 4 * total + termBytes) throw new Error('damaged analysis entry');
    const words = splitRuns(body, lengths, total);
    const lines = body.subarray(4 * total);
    if (countLines(lines) !== count) throw new Error('damaged analysis entry');
    let terms: string[] | undefined;
    return {
      words,
      get terms() {
        return (terms ??= decodeLines(lines));
      },
    };
  },
};

/** Runs of integers one after the other, as bytes (a `framed` body part at a multiple of 4). */
function joinRuns(runs: readonly Int32Array[]): Uint8Array {
  const all = new Int32Array(runs.reduce((n, r) => n + r.length, 0));
  let offset = 0;
  for (const r of runs) {
    all.set(r, offset);
    offset += r.length;
  }
  return new Uint8Array(all.buffer);
}

/** joinRuns's runs back from the start of `body` (`total`: the sum of `lengths`), as views into its buffer. */
function splitRuns(body: Uint8Array, lengths: readonly number[], total: number): Int32Array[] {
  const all = new Int32Array(body.buffer, body.byteOffset, total);
  let offset = 0;
  return lengths.map((length) => all.subarray(offset, (offset += length)));
}

/** Terms one a line, UTF-8. A term never holds a line break: the tokenizer splits on whitespace. */
function encodeLines(terms: readonly string[]): Uint8Array {
  for (const t of terms) if (t.includes('\n')) throw new Error(`a term holds a line break: ${JSON.stringify(t)}`);
  return terms.length ? Buffer.from(`${terms.join('\n')}\n`) : new Uint8Array(0);
}

function countLines(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) n++;
  return n;
}

function decodeLines(bytes: Uint8Array): string[] {
  return bytes.byteLength ? new TextDecoder().decode(bytes.subarray(0, -1)).split('\n') : [];
}

/** On globalThis: the prerender bundle and the integrations each have their own copy of this module. */
const MEMORY = Symbol.for('podcast-listener-service.search-analysis');
const memory: Map<string, Promise<AnalysedPassages>> = ((globalThis as { [MEMORY]?: Map<string, Promise<AnalysedPassages>> })[MEMORY] ??= new Map());

/**
 * Analyses passages, grouped by episode (consecutive passages with the same `episode`), each group cached by its
 * text. The same passages asked twice in one process (the index, then the semantic artifact) share the result; the
 * same array asked again is known by its identity, so a caller does not change an array it has asked about.
 */
export function analysePassages(passages: ReadonlyArray<Pick<Passage, 'cues'> & { episode?: number }>, language: string): Promise<AnalysedPassages> {
  // The same array asked for again (showPassages): known without hashing every text.
  if (latest?.passages === passages && latest.language === language) return latest.pending;
  const texts = passages.map((p) => p.cues.map(([, text]) => text).join(' '));
  const groups: Group[] = [];
  for (let start = 0; start < passages.length; ) {
    let end = start + 1;
    while (end < passages.length && passages[end]!.episode === passages[start]!.episode) end++;
    const episode = passages[start]!.episode;
    groups.push({ episode, texts: texts.slice(start, end), textKey: groupTextKey(texts, start, end) });
    start = end;
  }
  // The texts are hashed once, by group (the groups' cache keys are made from the same hashes).
  const hash = createHash('sha1').update(language);
  for (const g of groups) hash.update(`\0${g.episode ?? ''}\0${g.textKey}`);
  const memoKey = hash.digest('hex');
  let pending = memory.get(memoKey);
  if (!pending) {
    pending = analyse(groups, language);
    // Only the latest analysis is kept: a build asks for one set of passages.
    memory.clear();
    memory.set(memoKey, pending);
  }
  latest = { passages, language, pending };
  return pending;
}

/** An episode's passages (consecutive passages with the same `episode`): their texts, and what names them (groupTextKey). */
interface Group {
  episode?: number;
  /** The texts, or how to make them: analyseShow makes an unchanged episode's only if its analysis is not kept. */
  texts: string[] | (() => string[]);
  textKey: string;
}

/**
 * What names a group's passage texts (texts[start] to texts[end - 1]), in the key its analysis is kept under: their
 * number and their sha1, one after the other.
 */
function groupTextKey(texts: readonly string[], start = 0, end = texts.length): string {
  const hash = createHash('sha1');
  for (let i = start; i < end; i++) {
    if (i > start) hash.update('\u0001');
    hash.update(texts[i]!);
  }
  return `${end - start}\0${hash.digest('hex')}`;
}

/** The latest call's passages (the memo above keeps only the latest analysis too). */
let latest: { passages: object; language: string; pending: Promise<AnalysedPassages> } | undefined;

async function analyse(groups: readonly Group[], language: string): Promise<AnalysedPassages> {
  const groupAnalysis = await analyserFor(language);
  // From the last episode back: another thread of the build may be analysing from the first one on (shareAnalysis).
  const analysed: KeyedGroup[] = new Array(groups.length);
  for (let g = groups.length - 1; g >= 0; g--) {
    const { texts, textKey, episode } = groups[g]!;
    analysed[g] = claimed(episode, () => groupAnalysis(texts, textKey));
  }

  const { terms, maps } = mergeGroups(analysed);
  // Every passage's ids are views into two arrays for the whole show, not two arrays of its own: at 2,000 episodes
  // that was ~400,000 small buffers, and this loop grew faster than the show (a rebuild's search thread, profiled:
  // 1.2 s at 1,000 episodes, 4.1 s at 2,000; 1.0 s at 2,000 so).
  let keptTotal = 0;
  let wordTotal = 0;
  for (const { group } of analysed) {
    for (const local of group.words) {
      wordTotal += local.length;
      for (let i = 0; i < local.length; i++) if (local[i]! >= 0) keptTotal++;
    }
  }
  const keptIds = new Int32Array(keptTotal);
  const wordIds = new Int32Array(wordTotal);
  const out: Int32Array[] = [];
  const words: Int32Array[] = [];
  let k = 0;
  let w = 0;
  analysed.forEach(({ group }, g) => {
    const global = maps[g]!;
    for (const local of group.words) {
      const passageFrom = k;
      const wordFrom = w;
      for (let i = 0; i < local.length; i++, w++) {
        const id = local[i]!;
        if (id < 0) wordIds[w] = -1;
        else keptIds[k++] = wordIds[w] = global[id]!;
      }
      out.push(keptIds.subarray(passageFrom, k));
      words.push(wordIds.subarray(wordFrom, w));
    }
  });
  return { terms, passages: out, words, groups: groups.map(({ episode }, g) => ({ episode, count: analysed[g]!.group.words.length })) };
}

/** A group's analysis and the key it is cached under (its text and the analysis's identity). */
interface KeyedGroup {
  key: string;
  group: GroupAnalysis;
}

/**
 * The show's vocabulary as the last merge left it: each group's key, the vocabulary's size after it, and the map
 * from its own term ids to the show's. A term's show id is the order of its first appearance, group after group, so
 * the groups before the first one that differs merge exactly as they did: at 1,000 episodes, one added after the
 * others skips ~6 million Map lookups and the decoding of every other episode's terms (~3 s of a rebuild).
 */
interface MergedVocabulary {
  keys: string[];
  sizes: number[];
  maps: Int32Array[];
  terms: string[];
}

const VOCABULARY = 'search-vocabulary';

const VOCABULARY_CODEC: Codec<MergedVocabulary> = {
  encode({ keys, sizes, maps, terms }) {
    const termBytes = encodeLines(terms);
    return framed({ keys, sizes, lengths: maps.map((m) => m.length), termBytes: termBytes.byteLength }, [joinRuns(maps), termBytes], 4);
  },
  decode(stored) {
    const { head, body } = unframed<{ keys: string[]; sizes: number[]; lengths: number[]; termBytes: number }>(stored, 4);
    const { keys, sizes, lengths, termBytes } = head;
    const total = Array.isArray(lengths) ? lengths.reduce((n, l) => n + l, 0) : NaN;
    if (!Array.isArray(keys) || !Array.isArray(sizes) || keys.length !== lengths.length || sizes.length !== keys.length || body.byteLength !== 4 * total + termBytes) {
      throw new Error('damaged vocabulary');
    }
    const maps = splitRuns(body, lengths, total);
    const terms = decodeLines(body.subarray(4 * total));
    if (terms.length !== (sizes.at(-1) ?? 0)) throw new Error('damaged vocabulary');
    return { keys, sizes, maps, terms };
  },
};

/**
 * The show's terms and, per group, the map from its term ids to them: the kept vocabulary's for the groups it
 * begins with, merged for the rest (and kept again for the next build when anything changed).
 */
function mergeGroups(analysed: readonly KeyedGroup[]): { terms: string[]; maps: Int32Array[] } {
  const kept = readKept(VOCABULARY, VOCABULARY_CODEC);
  let reused = 0;
  if (kept) while (reused < analysed.length && reused < kept.keys.length && kept.keys[reused] === analysed[reused]!.key) reused++;
  const terms = reused ? kept!.terms.slice(0, kept!.sizes[reused - 1]) : [];
  const maps = reused ? kept!.maps.slice(0, reused) : [];
  const sizes = reused ? kept!.sizes.slice(0, reused) : [];
  lastMerge = { groups: analysed.length, reused };
  if (kept && reused === analysed.length && kept.keys.length === reused) return { terms, maps };

  const termIds = new Map<string, number>();
  terms.forEach((t, id) => termIds.set(t, id));
  for (let g = reused; g < analysed.length; g++) {
    const local = analysed[g]!.group.terms;
    const global = new Int32Array(local.length);
    for (let i = 0; i < global.length; i++) {
      const t = local[i]!;
      let id = termIds.get(t);
      if (id === undefined) {
        termIds.set(t, (id = terms.length));
        terms.push(t);
      }
      global[i] = id;
    }
    maps.push(global);
    sizes.push(terms.length);
  }
  keep(VOCABULARY, { keys: analysed.map((a) => a.key), sizes, maps, terms }, VOCABULARY_CODEC);
  return { terms, maps };
}

let lastMerge = { groups: 0, reused: 0 };

/** An episode as analyseShow reads it: its cues, and the digest of the transcript they were parsed from. */
export interface ShowEpisode {
  id: number;
  cues: Cue[] | null;
  transcript?: { format: string; digest?: string } | null;
}

/**
 * analysePassages(showPassages(episodes, window)), without making an unchanged episode's passages: what names an
 * episode's passage texts (groupTextKey, the key its analysis is kept under) is kept by what they are made from,
 * its transcript's digest and format, the window and the code that turns a transcript into passages
 * (PASSAGE_KEYS). A rebuild's index then reads each unchanged episode's analysis by that name (in one process at
 * 2,017 episodes, the index's artifacts in 5.7-6.4 s against 7.7-9.8 s when every episode's passages were built and
 * hashed again).
 * Made once per episodes array, window and language (the index and the semantic artifact ask alike).
 */
export function analyseShow(episodes: readonly ShowEpisode[], language: string, window: PassageWindow = PASSAGE_WINDOW): Promise<AnalysedPassages> {
  let byWindow = shows.get(episodes);
  if (!byWindow) shows.set(episodes, (byWindow = new Map()));
  const memo = `${language}\0${window.minSeconds}\0${window.maxSeconds}`;
  let pending = byWindow.get(memo);
  if (!pending) {
    pending = analyse(showGroups(episodes, window), language);
    byWindow.set(memo, pending);
  }
  return pending;
}

const shows = new WeakMap<object, Map<string, Promise<AnalysedPassages>>>();

/** Under this name (parse-cache.ts readKept): what names each episode's passage texts, by what they are made from. */
const PASSAGE_KEYS = 'search-passage-keys';

const PASSAGE_KEYS_CODEC: Codec<Map<string, string>> = {
  encode: (keys) => Buffer.from(JSON.stringify([...keys])),
  decode(bytes) {
    const entries: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    if (!Array.isArray(entries) || !entries.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && typeof e[1] === 'string')) {
      throw new Error('damaged passage keys');
    }
    return new Map(entries as Array<[string, string]>);
  },
};

/** The groups of analysePassages, one per episode with passages, in buildPassages's order (by id). */
function showGroups(episodes: readonly ShowEpisode[], window: PassageWindow): Group[] {
  const identity = passagesIdentity(window);
  const kept = (identity && readKept(PASSAGE_KEYS, PASSAGE_KEYS_CODEC)) || new Map<string, string>();
  const used = new Map<string, string>();
  const groups: Group[] = [];
  // Each episode's cues are read once here: not kept by this read (cuesOnce), a show's would stay on the heap.
  const textsOf = (e: ShowEpisode) => buildPassages([{ id: e.id, cues: cuesOnce(e) }], window).map((p) => p.cues.map(([, text]) => text).join(' '));
  for (const e of [...episodes].sort((a, b) => a.id - b.id)) {
    const digest = e.transcript?.digest;
    const key = identity && digest ? contentKey(identity, `${e.transcript!.format}\0${digest}`) : undefined;
    let textKey = key === undefined ? undefined : kept.get(key);
    let texts: string[] | (() => string[]);
    if (textKey === undefined) {
      const made = textsOf(e);
      texts = made;
      // An episode without passages keeps an empty name: it has no group.
      textKey = made.length ? groupTextKey(made) : '';
    } else {
      texts = () => textsOf(e);
    }
    if (key !== undefined) used.set(key, textKey);
    if (textKey) groups.push({ episode: e.id, texts, textKey });
  }
  if (identity && (used.size !== kept.size || [...used].some(([k, v]) => kept.get(k) !== v))) keep(PASSAGE_KEYS, used, PASSAGE_KEYS_CODEC);
  return groups;
}

/**
 * What turns a transcript's text into passage texts besides the text: the window, the parsers and the loader that
 * make its cues, and buildPassages.
 */
function passagesIdentity(window: PassageWindow): string | undefined {
  const code = cuesCodeIdentity([new URL('./passages.ts', import.meta.url)]);
  return code && `search-passages\0${code}\0${window.minSeconds}\0${window.maxSeconds}`;
}

/** How many groups the last merge on this thread took from the kept vocabulary, of how many. */
export function lastMergeStats(): { groups: number; reused: number } {
  return { ...lastMerge };
}

/** The analysis of one episode's passage texts, kept by content (one analyser per language, per thread). */
type GroupAnalyser = (texts: string[] | (() => string[]), textKey?: string) => KeyedGroup;
const analysers = new Map<string, Promise<GroupAnalyser>>();

function analyserFor(language: string): Promise<GroupAnalyser> {
  let pending = analysers.get(language);
  if (!pending) {
    pending = (async () => {
      const lang = await loadLanguage(language);
      const builder = new lunr.Builder();
      lang.plugin.call(builder, builder);
      const pipeline = builder.pipeline;
      const identity = [ANALYSIS_VERSION, lunr.version, lang.key, JSON.stringify(pipeline.toJSON()), analyseGroup.toString()].join('\0');
      const tokenCache = new Map<string, string[]>();
      // A token the pipeline drops is a stop word if the trimmer leaves something of it (Analyzer#wordIn's rule).
      const analyzer = new Analyzer(lang, { unboundedCaches: true });
      const isWord = (token: string) => analyzer.normalize(token) !== '';
      return (texts, textKey) => {
        if (textKey === undefined) {
          if (typeof texts === 'function') throw new Error('a group made on demand needs its textKey');
          textKey = groupTextKey(texts);
        }
        const key = contentKey(identity, textKey);
        const make = () => analyseGroup(typeof texts === 'function' ? texts() : texts, pipeline, tokenCache, isWord);
        return { key, group: cachedBytesByKey(key, make, GROUP_CODEC) };
      };
    })();
    analysers.set(language, pending);
  }
  return pending;
}

/**
 * Two threads of a build share the per-episode analysis (src/integration/bulk-documents.ts): the one writing the
 * per-episode files analyses each episode after its transcript, from the first episode on (episodeAnalysis), while
 * the one building the index analyses from the last one back; each claims an episode (src/content/shared-claims.ts)
 * and the other takes the result from the content cache (src/content/parse-cache.ts). Without a configured cache
 * folder the analysis is simply done again, so sharing never changes what is computed.
 */
let shared: SharedClaims<number> | undefined;

/** `flags`: an Int32Array over a SharedArrayBuffer, one flag per episode id of `episodes`, in that order. */
export function shareAnalysis(flags: Int32Array, episodes: readonly number[]): void {
  shared = new SharedClaims(flags, episodes);
}

function claimed<T>(episode: number | undefined, compute: () => T): T {
  return episode === undefined || !shared ? compute() : shared.run(episode, compute);
}

/**
 * One episode's analysis (its passages as buildPassages makes them, per episode): its own terms and, per passage,
 * each word's index into them (-1: a stop word). The same as the index's (analysePassages), shared with it through
 * the content cache when another thread analyses the show (see shareAnalysis).
 */
export async function episodeAnalyser(
  language: string,
): Promise<(episode: number, passages: ReadonlyArray<Pick<Passage, 'cues'>>) => { terms: string[]; words: Int32Array[] }> {
  const groupAnalysis = await analyserFor(language);
  return (episode, passages) => {
    const { terms, words } = claimed(episode, () => groupAnalysis(passages.map((p) => p.cues.map(([, text]) => text).join(' ')))).group;
    return { terms, words };
  };
}

/** Lunr's tokenizer and the index pipeline, run once per distinct token ([''] for a stop word). */
function analyseGroup(texts: string[], pipeline: lunr.Pipeline, tokenCache: Map<string, string[]>, isWord: (token: string) => boolean): GroupAnalysis {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const words = texts.map((text) => {
    const all: number[] = [];
    for (const token of text.toLowerCase().split(/[\s-]+/)) {
      if (!token) continue;
      let analysed = tokenCache.get(token);
      if (!analysed) {
        analysed = pipeline.runString(token).filter((t) => t);
        if (!analysed.length && isWord(token)) analysed = [''];
        tokenCache.set(token, analysed);
      }
      for (const t of analysed) {
        if (t === '') {
          all.push(-1);
          continue;
        }
        let id = ids.get(t);
        if (id === undefined) {
          ids.set(t, (id = terms.length));
          terms.push(t);
        }
        all.push(id);
      }
    }
    return Int32Array.from(all);
  });
  return { terms, words };
}
