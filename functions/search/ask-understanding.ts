/**
 * Question understanding for /ask (and MCP search_episodes), Web-safe and independent of how the index is cut
 * up. Three steps around the engine's ranking, each reading only what the build made:
 *
 *   1. understandQuestion: the question's content words (question words, filler and stop words dropped), each
 *      stemmed like the index, then expanded with the weighted related terms of /search/semantic.json (WordNet
 *      synonyms, derived forms, broader and narrower words, and the show's co-occurrence statistics), so that
 *      "snooze" also looks for "nap" and "tart" for "sour". The words as typed keep weight 1 (less for a word
 *      common in everyday English, ownWeight); a related term weighs less (EXPANSION.scale × its weight), and a
 *      word the show itself uses lends less than one it does not.
 *   2. rescorePassages: the candidate passages of an episode re-ranked by how many of the question's ideas they
 *      hold, how close together (proximity), with the neighbouring passages and the chapter title as weaker
 *      evidence.
 *   3. chapterAnchor: for an episode without a transcript (or a hit on the episode's own fields), the chapter
 *      whose title best matches the question becomes the moment, so the hit still deep-links.
 *
 * Every weight below was tuned on the tuning half of test/search/paraphrase-queries.json and checked on the
 * held-out questions (the held-out third and the fresh split) and on test/search/relevance-queries.json.
 */
import type { Analyzer } from '../../contract/search/analyzer.ts';
import { GENERIC_MIN, relatedTerms, type SemanticData } from '../../contract/search/semantic.ts';
import { contentWords } from './query.ts';
import { answerKinds, expectedAnswer, questionTerms, secondPersonWords } from '../../contract/search/passage-terms.ts';

export { questionTerms };

export const EXPANSION = {
  /** Scale of a related term's weight (from the artifact) relative to the question's own words. */
  scale: 0.9,
  /** A question word that the show itself uses lends its related terms only this share of their weight. */
  knownWordScale: 0.25,
  /** Related terms kept per question word. */
  perWord: 6,
  /**
   * Scale of the related terms of two adjacent question words read as one (a WordNet collocation: "high waters",
   * the tide). Above a single word's: the pair names its thing more surely than either word its senses. On the tuning
   * half, 0.9-1.2 moved nothing and 1.5-3 the same one question (see test/search/paraphrase.test.ts).
   */
  collocation: 2,
  /** How much a common word's weight falls with the log of its everyday frequency (ownWeight). */
  generic: 0.15,
};
/** Words that make an everyday question a question, on top of the search filler (English shows). */
const ASK_FILLER_EN = new Set(
  ('actually really exactly way ways kind sort stuff happen happens happened happening anybody everybody ' +
    'somebody someone thing things regular ordinary lot lots much many make made makes good best idea')
    .split(' '),
);

/**
 * A question word's own weight: 1, less for a word common in everyday English (the artifact's SemCor counts), which
 * says less about where the answer is: "how long should I wait before slicing a fresh loaf?" is about the loaf.
 */
function ownWeight(semantic: SemanticData | undefined, stem: string): number {
  const n = semantic?.generic && Object.hasOwn(semantic.generic, stem) ? semantic.generic[stem]! : 0;
  return n ? 1 / (1 + EXPANSION.generic * Math.log(n / GENERIC_MIN)) : 1;
}

export interface WeightedTerm {
  /** An index term (already stemmed: look it up without the search pipeline). */
  term: string;
  boost: number;
  /** Which question word (index into concepts) it stands for. */
  concept: number;
  /** True for the question's own word. */
  own: boolean;
}

export interface UnderstoodQuestion {
  /** The question's content words, stemmed, in order. */
  concepts: string[];
  /** Every term to look up: the question's own words first, then related terms; one entry per index term. */
  terms: WeightedTerm[];
  /** The listener asks about themselves ("can I ...", "my loaf"): an English question in the first person. */
  firstPerson?: boolean;
  /** The kind of answer an English question asks for ("how long": a duration ...), as ANSWER_KIND bits (expectedAnswer). */
  expects?: number;
}

export interface Vocabulary {
  /** Whether the index has the term (a stem). */
  has(term: string): boolean;
}

export function understandQuestion(
  question: string,
  analyzer: Analyzer,
  semantic: SemanticData | undefined,
  vocabulary: Vocabulary,
): UnderstoodQuestion {
  const words = contentWords(question, analyzer).clauses
    .map((c) => c.term)
    .filter((t) => analyzer.language !== 'en' || !ASK_FILLER_EN.has(t));
  const stems = words.map((w) => analyzer.stem(w));
  const concepts: string[] = [];
  for (const stem of stems) if (stem && !concepts.includes(stem)) concepts.push(stem);
  const byTerm = new Map<string, WeightedTerm>();
  concepts.forEach((stem, concept) => byTerm.set(stem, { term: stem, boost: ownWeight(semantic, stem), concept, own: true }));
  // A related term of `key` for the concept: kept at its strongest, never over the question's own words.
  const relate = (key: string, scale: number, concept: number) => {
    for (const r of relatedTerms(semantic, key).slice(0, EXPANSION.perWord)) {
      const boost = r.weight * scale;
      const prev = byTerm.get(r.term);
      if (!prev || (!prev.own && prev.boost < boost)) byTerm.set(r.term, { term: r.term, boost, concept, own: false });
    }
  };
  concepts.forEach((stem, concept) => relate(stem, EXPANSION.scale * (vocabulary.has(stem) ? EXPANSION.knownWordScale : 1), concept));
  // Two adjacent words that name one thing together ("high waters": the tide), as the artifact keys them.
  for (let i = 0; i + 1 < stems.length; i++) {
    if (stems[i] && stems[i + 1]) relate(`${stems[i]} ${stems[i + 1]}`, EXPANSION.collocation, concepts.indexOf(stems[i + 1]!));
  }
  const firstPerson = analyzer.language === 'en' && FIRST_PERSON_EN.test(question);
  const expects = analyzer.language === 'en' ? expectedAnswer(question) : 0;
  return { concepts, terms: [...byTerm.values()], ...(firstPerson ? { firstPerson } : {}), ...(expects ? { expects } : {}) };
}

const FIRST_PERSON_EN = /\b(i|i'm|i've|my|me|we|our)\b/i;
/**
 * How much a passage speaks to the listener, in [0, 1] (5 or more second-person words: 1), for a question asked
 * in the first person: "should I ...?" is answered "you should ...", the host's framing and the guest's
 * background are not.
 */
function addressed(secondPerson: number): number {
  return Math.min(1, secondPerson / 5);
}

export interface Candidate {
  /** Passage index (into /search/passages.json). */
  index: number;
  score: number;
  terms: string[];
  /** The parts of the base score (allCandidates), for choosing the moment inside the episode (momentScore). */
  parts?: ScoreParts;
  /** After rescorePassages, with parts: the score for choosing the moment inside the episode. */
  moment?: number;
}

/**
 * A passage's base score split by where it comes from: the question's own words or their related terms, each
 * also with every term weighted by its rarity among the episode's passages (a word every passage of the episode
 * holds, "bee" in the bee episode, says which episode, not where in it).
 */
export interface ScoreParts {
  own: number;
  related: number;
  ownLocal: number;
  relatedLocal: number;
}

export interface PassageContext {
  /** The passage's text. */
  text(index: number): string;
  /** Seconds the passage starts at. */
  start(index: number): number;
  /** Chapter titles of the episode with their start seconds, ascending. */
  chapters: Array<{ start: number; title: string }>;
  /** The passage's index term per word ('' for stop words), if the caller keeps them (passageTerms otherwise). */
  terms?(index: number): string[];
  /** How many passages the episode has. */
  count?: number;
  /** questionTerms of the passage, if the caller keeps them. */
  questions?(index: number): string[][];
  /** secondPersonWords of the passage, if the caller keeps them (the text is not read then). */
  addressed?(index: number): number;
  /** answerKinds of the passage, if the caller keeps them (the text is not read then). */
  answers?(index: number): number;
}

/**
 * An episode's transcript postings for the question's terms: index term → the flat [passage, score, ...] list of
 * the episode's best passages for it (the posting's metadata `p`, unweighted), as the shards publish them.
 */
export type EpisodePostings = ReadonlyMap<string, readonly number[]>;

const K1 = 1.2;
const B = 0.75;
/** BM25's term-frequency part: what varies from passage to passage for one term (idf and boost do not). */
const saturation = (tf: number, length: number, average: number) => tf / (K1 * (1 - B + (B * length) / average) + tf);

/**
 * Every passage of an episode as a candidate, scored with the question's weighted terms. A posting lists only the
 * episode's best passages per term (PASSAGES_PER_TERM), so a passage that holds several of the question's ideas,
 * none of them among its best three, was never a candidate. Here a listed passage keeps its exact score and any
 * other passage holding the term gets the listed score rescaled by BM25's term-frequency part (idf and field
 * boost cancel out), its length normalised by the episode's average, and capped at the lowest listed score (a
 * passage left out of the list cannot have scored above it). Passages matching nothing are left out.
 */
export function allCandidates(
  u: UnderstoodQuestion,
  count: number,
  postings: EpisodePostings,
  termsOf: (index: number) => string[],
  snippetTerms: string[] = [],
): Candidate[] {
  const termOf = new Map(u.terms.map((t) => [t.term, t]));
  const tf: Array<Map<string, number>> = [];
  const length: number[] = [];
  for (let i = 0; i < count; i++) {
    const counts = new Map<string, number>();
    let n = 0;
    for (const term of termsOf(i)) {
      if (!term) continue;
      n++;
      if (postings.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
    }
    tf.push(counts);
    length.push(n);
  }
  const average = Math.max(1, length.reduce((a, b) => a + b, 0) / Math.max(1, count));
  const scores = new Array<number>(count).fill(0);
  const parts = Array.from({ length: count }, (): ScoreParts => ({ own: 0, related: 0, ownLocal: 0, relatedLocal: 0 }));
  const rarest = Math.log(1 + (count - 0.5) / 1.5);
  for (const [term, p] of postings) {
    const t = termOf.get(term);
    if (!t || !t.boost || p.length < 2) continue;
    const boost = t.boost;
    let having = 0;
    for (let i = 0; i < count; i++) if (tf[i]!.has(term)) having++;
    const rarity = rarest > 0 ? Math.max(0, Math.log(1 + (count - having + 0.5) / (having + 0.5)) / rarest) : 1;
    const listed = new Map<number, number>();
    for (let k = 0; k + 1 < p.length; k += 2) listed.set(p[k]!, p[k + 1]!);
    const [ref, refScore] = [p[0]!, p[1]!];
    const refPart = ref < count ? saturation(tf[ref]!.get(term) ?? 0, length[ref]!, average) : 0;
    const floor = p[p.length - 1]!;
    for (let i = 0; i < count; i++) {
      const exact = listed.get(i);
      const n = tf[i]!.get(term) ?? 0;
      const score = exact ?? (n && refPart > 0 ? Math.min(floor, (refScore * saturation(n, length[i]!, average)) / refPart) : 0);
      if (!score) continue;
      scores[i]! += boost * score;
      if (t.own) {
        parts[i]!.own += boost * score;
        parts[i]!.ownLocal += boost * score * rarity;
      } else {
        parts[i]!.related += boost * score;
        parts[i]!.relatedLocal += boost * score * rarity;
      }
    }
  }
  const out: Candidate[] = [];
  scores.forEach((score, index) => {
    if (score > 0) out.push({ index, score, terms: snippetTerms, parts: parts[index]! });
  });
  return out.sort((a, b) => b.score - a.score || a.index - b.index);
}

/** A text's index term per word ('' for stop words and punctuation), positions kept for proximity. */
export function passageTerms(text: string, analyzer: Analyzer): string[] {
  return analyzer.indexTerms(text);
}

/** How much coverage of the question's ideas, proximity, neighbours and the chapter title add to a passage. */
export const RESCORE = { coverage: 0.6, proximity: 0.5, window: 12, neighbour: 0.25, chapter: 1, asked: 0.5 };

/**
 * Candidates of one episode re-ranked, best first. The Lunr score stays the base (it knows term rarity and
 * passage length); the evidence here multiplies it.
 */
export function rescorePassages(
  u: UnderstoodQuestion,
  candidates: Candidate[],
  ctx: PassageContext,
  analyzer: Analyzer,
): Candidate[] {
  if (u.concepts.length === 0 || candidates.length === 0) return candidates;
  const weightOf = new Map(u.terms.map((t) => [t.term, t]));
  const byIndex = new Map(candidates.map((c) => [c.index, c]));
  const titles = new Map<string, number>();
  // Score parts are normalised by the episode's best base score, so the moment weights do not depend on scale.
  const top = Math.max(...candidates.map((c) => c.score));
  const rescored = candidates.map((c) => {
    const positions: Array<[number, number, number]> = []; // [token position, concept, weight]
    const tokens = ctx.terms?.(c.index) ?? passageTerms(ctx.text(c.index), analyzer);
    tokens.forEach((term, i) => {
      const t = term ? weightOf.get(term) : undefined;
      if (t) positions.push([i, t.concept, t.boost]);
    });
    const best = new Map<number, number>();
    for (const [, concept, weight] of positions) best.set(concept, Math.max(best.get(concept) ?? 0, weight));
    const coverage = [...best.values()].reduce((a, b) => a + b, 0) / u.concepts.length;
    const proximity = u.concepts.length > 1 ? closeness(positions, RESCORE.window) : 0;
    const neighbours = (byIndex.get(c.index - 1)?.score ?? 0) + (byIndex.get(c.index + 1)?.score ?? 0);
    const title = chapterAt(ctx.chapters, ctx.start(c.index))?.title ?? '';
    let chapter = titles.get(title);
    if (chapter === undefined) titles.set(title, (chapter = chapterMatch(u, title, analyzer)));
    // A question asked in the passage (the host's "So how do they ...?") names the topic in plain words.
    const questions = ctx.questions?.(c.index) ?? questionTerms(ctx.text(c.index), analyzer);
    const asked = Math.max(0, ...questions.map((q) => termsMatch(u, q)));
    const evidence = 1 + RESCORE.coverage * coverage + RESCORE.proximity * proximity + RESCORE.chapter * chapter + RESCORE.asked * asked;
    const score = c.score * evidence + RESCORE.neighbour * neighbours;
    // The host's welcome and farewell name the episode's topics in plain words; the answers come in between.
    const framing = ctx.count !== undefined && ctx.count > 2 && (c.index === 0 || c.index === ctx.count - 1) ? 1 : 0;
    const advice = c.parts && u.firstPerson ? addressed(ctx.addressed?.(c.index) ?? secondPersonWords(ctx.text(c.index))) : 0;
    // "How long should I wait ...?" is answered "at least an hour": the moment that says a duration (number, date).
    const answer = c.parts && u.expects ? ((ctx.answers?.(c.index) ?? answerKinds(ctx.text(c.index))) & u.expects ? 1 : 0) : 0;
    const moment = c.parts
      ? momentScore({ ...scaled(c.parts, top), neighbours: neighbours / (top || 1), coverage, proximity, chapter, asked, framing, advice, answer })
      : undefined;
    return { ...c, score, ...(moment === undefined ? {} : { moment }) };
  });
  return rescored.sort((a, b) => b.score - a.score || a.index - b.index);
}

/**
 * Proximity in [0, 1]: the largest share of the question's ideas (weighted) that occur within `window` words of
 * each other, counted only when at least two different ideas are that close.
 */
function closeness(positions: Array<[number, number, number]>, window: number): number {
  let bestCount = 0;
  let concepts = new Set<number>();
  for (let i = 0; i < positions.length; i++) {
    const seen = new Map<number, number>();
    for (let j = i; j < positions.length && positions[j]![0] - positions[i]![0] <= window; j++) {
      const [, concept, weight] = positions[j]!;
      seen.set(concept, Math.max(seen.get(concept) ?? 0, weight));
    }
    if (seen.size < 2) continue;
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    if (total > bestCount) {
      bestCount = total;
      concepts = new Set(seen.keys());
    }
  }
  const all = new Set(positions.map((p) => p[1])).size;
  return concepts.size >= 2 ? bestCount / Math.max(all, 2) : 0;
}

/** The chapter a moment falls in. */
function chapterAt(chapters: Array<{ start: number; title: string }>, seconds: number) {
  let found: { start: number; title: string } | undefined;
  for (const c of chapters) if (c.start <= seconds + 1) found = c;
  return found;
}

/** Weighted share of the question's ideas a chapter title holds, in [0, 1]. */
export function chapterMatch(u: UnderstoodQuestion, title: string, analyzer: Analyzer): number {
  if (!title || u.concepts.length === 0) return 0;
  return termsMatch(u, passageTerms(title, analyzer));
}

/** Weighted share of the question's ideas that some index terms hold, in [0, 1]. */
function termsMatch(u: UnderstoodQuestion, terms: string[]): number {
  if (u.concepts.length === 0) return 0;
  const weightOf = new Map(u.terms.map((t) => [t.term, t]));
  const best = new Map<number, number>();
  for (const term of terms) {
    const t = term ? weightOf.get(term) : undefined;
    if (t) best.set(t.concept, Math.max(best.get(t.concept) ?? 0, t.boost));
  }
  let sum = 0;
  for (const w of best.values()) sum += w;
  return sum / u.concepts.length;
}

/**
 * The chapter that anchors a hit without a transcript passage: the best-matching title (ties: the earlier
 * chapter), or undefined when no title shares anything with the question.
 */
export function chapterAnchor(
  u: UnderstoodQuestion,
  chapters: Array<{ start: number; title: string }>,
  analyzer: Analyzer,
): { start: number; title: string } | undefined {
  let best: { start: number; title: string } | undefined;
  let bestScore = 0;
  for (const c of chapters) {
    const s = chapterMatch(u, c.title, analyzer);
    if (s > bestScore) {
      best = c;
      bestScore = s;
    }
  }
  return best;
}

/**
 * The chapter that a sentence of the episode's description speaks of, for a hit whose only match is in that
 * description (no transcript, or none of its passages holds the words): the chapter whose title shares the most
 * words with the sentence, each weighing more the fewer titles hold it (the show's topic, in every title, says
 * nothing); ties go to the earlier chapter, and undefined when no title shares a word.
 */
export function describedChapter(
  sentence: string,
  chapters: Array<{ start: number; title: string }>,
  analyzer: Analyzer,
): { start: number; title: string } | undefined {
  const said = new Set(passageTerms(sentence, analyzer).filter(Boolean));
  if (said.size === 0) return undefined;
  const titles = chapters.map((c) => new Set(passageTerms(c.title, analyzer).filter(Boolean)));
  const holding = new Map<string, number>();
  for (const terms of titles) for (const t of terms) holding.set(t, (holding.get(t) ?? 0) + 1);
  let best: { start: number; title: string } | undefined;
  let bestScore = 0;
  chapters.forEach((c, i) => {
    let score = 0;
    for (const t of titles[i]!) if (said.has(t)) score += Math.log(1 + chapters.length / holding.get(t)!);
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  });
  return best;
}

const QUESTION_START_EN = /^(how|what|whats|what's|which|who|whom|whose|when|where|why|is|are|was|were|do|does|did|can|could|should|would|will|may|might|has|have|had)\b/i;

/** Whether a query reads as a question (MCP search_episodes then ranks it as /ask does). */
export function isQuestion(query: string): boolean {
  const text = query.trim();
  return text.endsWith('?') || QUESTION_START_EN.test(text);
}

const scaled = (p: ScoreParts, by: number): ScoreParts => {
  const k = by > 0 ? 1 / by : 0;
  return { own: p.own * k, related: p.related * k, ownLocal: p.ownLocal * k, relatedLocal: p.relatedLocal * k };
};

/** What momentScore combines for a passage: its score parts and neighbours (relative to the episode's best), and evidence in [0, 1]. */
export interface MomentFeatures extends ScoreParts {
  neighbours: number;
  coverage: number;
  proximity: number;
  chapter: number;
  asked: number;
  /** 1 for the episode's first and last passage (welcome, farewell). */
  framing: number;
  /** For a question in the first person: how much the passage speaks to the listener (addressed), in [0, 1]. */
  advice?: number;
  /** For a question asking how long, how many or when: 1 when the passage says the kind of answer asked for. */
  answer?: number;
}

/**
 * Weights of the moment score, chosen on the tuning half of the paraphrase set; `max` moments offered per /ask
 * result, `adjacent`: a moment within this many passages of a better one is offered only if nothing else is left.
 */
export const MOMENT = {
  own: 1, related: 1, ownLocal: 0, relatedLocal: 0, neighbours: 0.25,
  coverage: 0.6, proximity: 0.5, chapter: 1, asked: 0.5, framing: 0.3, advice: 0.4,
  /** The answer-kind factor: tune 0.633 -> 0.664 at 0.25-1 (held out and fresh unchanged); 0.5 is the middle. */
  answer: 0.5,
  adjacent: 0, max: 3,
  /** Leading episodes whose every passage is scored (allCandidates); the others keep their postings' candidates. */
  episodes: 3,
};

/** The score that orders an episode's passages as moments (the episode's own score is rescorePassages'). */
export function momentScore(f: MomentFeatures): number {
  const base = MOMENT.own * f.own + MOMENT.related * f.related + MOMENT.ownLocal * f.ownLocal + MOMENT.relatedLocal * f.relatedLocal;
  const evidence = 1 + MOMENT.coverage * f.coverage + MOMENT.proximity * f.proximity + MOMENT.chapter * f.chapter + MOMENT.asked * f.asked;
  return (base * evidence + MOMENT.neighbours * f.neighbours) * (1 - MOMENT.framing * f.framing) * (1 + MOMENT.advice * (f.advice ?? 0)) *
    (1 + MOMENT.answer * (f.answer ?? 0));
}

/** The passages a result offers as moments, best first: by their moment score (the episode's score otherwise). */
export function pickMoments(ranked: Candidate[], max = MOMENT.max): number[] {
  const sorted = [...ranked].sort((a, b) => (b.moment ?? b.score) - (a.moment ?? a.score) || a.index - b.index);
  const picked: number[] = [];
  for (const c of sorted) {
    if (picked.length >= max) break;
    if (MOMENT.adjacent && picked.some((i) => Math.abs(i - c.index) <= MOMENT.adjacent)) continue;
    picked.push(c.index);
  }
  for (const c of sorted) if (picked.length < max && !picked.includes(c.index)) picked.push(c.index);
  return picked;
}
