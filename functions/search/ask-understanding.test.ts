import { beforeAll, describe, expect, it } from 'vitest';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import type { SemanticData } from '../../contract/search/semantic.ts';
import { ANSWER_KIND } from '../../contract/search/passage-terms.ts';
import { allCandidates, chapterAnchor, describedChapter, EXPANSION, MOMENT, momentScore, pickMoments, rescorePassages, understandQuestion } from './ask-understanding.ts';

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = new Analyzer(await loadLanguage('en'));
});

const semantic: SemanticData = { version: 1, language: 'en', related: { snooz: 'nap 70 sleep 40', bee: 'honeybe 35' } };
const known = (...terms: string[]) => ({ has: (t: string) => terms.includes(t) });

describe('understandQuestion', () => {
  it('drops question words and filler, stems, and adds related terms below the words as typed', () => {
    const u = understandQuestion('is a short afternoon snooze actually good for you?', analyzer, semantic, known());
    expect(u.concepts).toEqual(['short', 'afternoon', 'snooz']);
    const nap = u.terms.find((t) => t.term === 'nap')!;
    expect(nap.own).toBe(false);
    expect(nap.concept).toBe(2);
    expect(nap.boost).toBeGreaterThan(0);
    expect(nap.boost).toBeLessThan(1);
    expect(u.terms.filter((t) => t.own).every((t) => t.boost === 1)).toBe(true);
  });

  it('lends less to a word the show uses itself, and nothing without an artifact', () => {
    const unknown = understandQuestion('bees', analyzer, semantic, known()).terms.find((t) => t.term === 'honeybe')!;
    const usedByShow = understandQuestion('bees', analyzer, semantic, known('bee')).terms.find((t) => t.term === 'honeybe')!;
    expect(usedByShow.boost).toBeLessThan(unknown.boost);
    expect(understandQuestion('bees', analyzer, undefined, known()).terms.map((t) => t.term)).toEqual(['bee']);
  });

  it('reads two adjacent question words as one where the artifact knows them together ("high waters": the tide)', () => {
    const withPair: SemanticData = { ...semantic, related: { ...semantic.related, 'high water': 'tide 40' } };
    const u = understandQuestion('why are some high waters bigger than others?', analyzer, withPair, known('high', 'water'));
    const tide = u.terms.find((t) => t.term === 'tide')!;
    expect(tide.own).toBe(false);
    expect(tide.concept).toBe(u.concepts.indexOf('water'));
    // Above what the show's own words lend and what a single word's relation of that weight gives.
    expect(tide.boost).toBeCloseTo(0.4 * EXPANSION.collocation);
    expect(tide.boost).toBeGreaterThan(0.4 * EXPANSION.scale);
    // Only adjacent words: "water" and "high" apart name nothing together.
    expect(understandQuestion('is the water high?', analyzer, withPair, known()).terms.map((t) => t.term)).not.toContain('tide');
  });

  it('weighs a question word common in everyday English below a rare one', () => {
    const withCounts: SemanticData = { ...semantic, generic: { long: 267, time: 603 } };
    const u = understandQuestion('how long should I wait before slicing a fresh loaf?', analyzer, withCounts, known());
    const weight = (term: string) => u.terms.find((t) => t.term === term)!.boost;
    expect(weight('loaf')).toBe(1);
    expect(weight('long')).toBeLessThan(1);
    expect(weight('long')).toBeGreaterThan(0.5);
    const time = understandQuestion('what time is it?', analyzer, withCounts, known()).terms.find((t) => t.term === 'time')!;
    expect(time.boost).toBeLessThan(weight('long'));
  });
});

describe('rescorePassages', () => {
  const texts = [
    'Snooze. The weather was lovely. We walked to the harbour and ate fish. Later it rained on the afternoon ferry.',
    'A short snooze in the afternoon, ten to twenty minutes, keeps you alert.',
  ];
  const ctx = { text: (i: number) => texts[i]!, start: (i: number) => i * 30, chapters: [] };

  it('prefers the passage where the question’s words occur close together', () => {
    const u = understandQuestion('short afternoon snooze', analyzer, semantic, known());
    const ranked = rescorePassages(u, [{ index: 0, score: 1, terms: [] }, { index: 1, score: 1, terms: [] }], ctx, analyzer);
    expect(ranked[0]!.index).toBe(1);
  });

  it('uses the chapter title as evidence', () => {
    const u = understandQuestion('harbour', analyzer, semantic, known());
    const chapters = [{ start: 0, title: 'Intro' }, { start: 30, title: 'The harbour' }];
    const same = [{ index: 0, score: 1, terms: [] }, { index: 1, score: 1, terms: [] }];
    const ranked = rescorePassages(u, same, { ...ctx, text: () => 'harbour', chapters }, analyzer);
    expect(ranked[0]!.index).toBe(1);
  });
});

describe('chapterAnchor', () => {
  it('picks the chapter whose title best matches, or none', () => {
    const chapters = [
      { start: 0, title: 'Welcome' },
      { start: 195, title: 'Learning openings before the engines' },
      { start: 1350, title: 'Opening preparation with Stockfish' },
    ];
    const u = (q: string) => understandQuestion(q, analyzer, semantic, known());
    expect(chapterAnchor(u('how do you prepare openings with Stockfish?'), chapters, analyzer)?.start).toBe(1350);
    expect(chapterAnchor(u('volcanoes'), chapters, analyzer)).toBeUndefined();
  });
});

describe('describedChapter', () => {
  const chapters = [
    { start: 0, title: 'Welcome to chess' },
    { start: 195, title: 'Learning chess openings before the engines' },
    { start: 580, title: 'The Sicilian Defence in chess' },
    { start: 1750, title: 'What AlphaZero taught chess' },
  ];
  it('finds the chapter a sentence of the description speaks of, a word every title holds counting for little', () => {
    expect(describedChapter('She learned her first openings from books, in a chess club.', chapters, analyzer)?.start).toBe(195);
    expect(describedChapter('Then we turn to AlphaZero, which taught itself chess.', chapters, analyzer)?.start).toBe(1750);
    // "chess" is in every title: alone it still anchors, on the first chapter holding it.
    expect(describedChapter('A chess story.', chapters, analyzer)?.start).toBe(0);
  });
  it('gives none when no title shares a word', () => {
    expect(describedChapter('Volcanoes erupt.', chapters, analyzer)).toBeUndefined();
    expect(describedChapter('', chapters, analyzer)).toBeUndefined();
    expect(describedChapter('Openings.', [], analyzer)).toBeUndefined();
  });
});

describe('allCandidates', () => {
  const snooze = () => understandQuestion('snooze', analyzer, semantic, known());
  // Four passages; the posting for "nap" lists only passages 0 and 2 (an episode's best per term).
  const terms = [['nap', 'nap', 'lunch'], ['walk'], ['nap', 'walk', 'walk', 'walk'], ['nap', 'walk']];
  const postings = new Map([['nap', [0, 2, 2, 1.2]]]);

  it('scores every passage holding a term: listed ones exactly, others rescaled and capped at the lowest listed score', () => {
    const u = snooze();
    const all = allCandidates(u, terms.length, postings, (i) => terms[i]!, ['nap']);
    const byIndex = new Map(all.map((c) => [c.index, c]));
    const boost = u.terms.find((t) => t.term === 'nap')!.boost;
    expect(byIndex.get(0)!.score).toBeCloseTo(2 * boost);
    expect(byIndex.get(2)!.score).toBeCloseTo(1.2 * boost);
    expect(byIndex.get(3)!.score).toBeGreaterThan(0);
    expect(byIndex.get(3)!.score).toBeLessThanOrEqual(1.2 * boost);
    expect(byIndex.has(1)).toBe(false);
    expect(all.map((c) => c.index)).toEqual([0, 2, 3]);
    expect(all[0]!.terms).toEqual(['nap']);
    // "nap" is a related term of "snooze", not the question's own word.
    expect(all[0]!.parts!.own).toBe(0);
    expect(all[0]!.parts!.related).toBeCloseTo(2 * boost);
  });

  it('weights a term by its rarity among the episode’s passages in the local parts', () => {
    const own = understandQuestion('walk lunch', analyzer, semantic, known('walk', 'lunch'));
    const p = new Map([['walk', [1, 1, 2, 0.8, 3, 0.5]], ['lunch', [0, 1]]]);
    const byIndex = new Map(allCandidates(own, terms.length, p, (i) => terms[i]!).map((c) => [c.index, c]));
    // "walk" is in 3 of 4 passages, "lunch" in 1: the same raw score counts more for "lunch" locally.
    expect(byIndex.get(0)!.parts!.own).toBeCloseTo(byIndex.get(1)!.parts!.own);
    expect(byIndex.get(0)!.parts!.ownLocal).toBeGreaterThan(byIndex.get(1)!.parts!.ownLocal);
  });

  it('finds nothing without postings', () => {
    expect(allCandidates(snooze(), terms.length, new Map(), (i) => terms[i]!)).toEqual([]);
  });
});

describe('moments', () => {
  const features = { own: 1, related: 0, ownLocal: 1, relatedLocal: 0, neighbours: 0, coverage: 0, proximity: 0, chapter: 0, asked: 0, framing: 0 };

  it('discounts the welcome and farewell passages and rewards evidence', () => {
    expect(momentScore({ ...features, framing: 1 })).toBeLessThan(momentScore(features));
    expect(momentScore({ ...features, coverage: 1 })).toBeGreaterThan(momentScore(features));
  });

  it('rescorePassages gives every candidate with score parts a moment score; the welcome loses to the same text later', () => {
    const texts = ['short afternoon snooze', 'unrelated words here', 'short afternoon snooze', 'goodbye'];
    const ctx = { text: (i: number) => texts[i]!, start: (i: number) => i * 30, chapters: [], count: 4 };
    const u = understandQuestion('short afternoon snooze', analyzer, semantic, known());
    const parts = { own: 1, related: 0, ownLocal: 1, relatedLocal: 0 };
    const ranked = rescorePassages(u, [{ index: 0, score: 1, terms: [], parts }, { index: 2, score: 1, terms: [], parts }], ctx, analyzer);
    expect(ranked.every((c) => typeof c.moment === 'number')).toBe(true);
    expect(pickMoments(ranked)[0]).toBe(2);
  });

  it('for a question in the first person, prefers the passage that speaks to the listener', () => {
    const texts = ['welcome', 'we slice the loaf after an hour', 'you slice your loaf after an hour, once you can touch it', 'goodbye'];
    const ctx = { text: (i: number) => texts[i]!, start: (i: number) => i * 30, chapters: [], count: 4 };
    const parts = { own: 1, related: 0, ownLocal: 1, relatedLocal: 0 };
    const first = (q: string) => {
      const u = understandQuestion(q, analyzer, semantic, known());
      return { u, moment: pickMoments(rescorePassages(u, [1, 2].map((index) => ({ index, score: 1, terms: [], parts })), ctx, analyzer))[0] };
    };
    const mine = first('when can I slice my loaf?');
    expect(mine.u.firstPerson).toBe(true);
    expect(mine.moment).toBe(2);
    // Asked about the world, not the listener: the tie stays with the earlier passage.
    const general = first('when is a loaf sliced?');
    expect(general.u.firstPerson).toBeUndefined();
    expect(general.moment).toBe(1);
  });

  it('for a question asking how long, how many or when, prefers the passage that says that kind of answer', () => {
    const texts = ['welcome', 'we slice the loaf once it cools', 'we slice the loaf after an hour, once it cools', 'goodbye'];
    const parts = { own: 1, related: 0, ownLocal: 1, relatedLocal: 0 };
    const first = (q: string, answers?: (i: number) => number) => {
      const ctx = { text: (i: number) => texts[i]!, start: (i: number) => i * 30, chapters: [], count: 4, ...(answers ? { answers } : {}) };
      const u = understandQuestion(q, analyzer, semantic, known());
      return { u, moment: pickMoments(rescorePassages(u, [1, 2].map((index) => ({ index, score: 1, terms: [], parts })), ctx, analyzer))[0] };
    };
    const long = first('how long before we slice the loaf?');
    expect(long.u.expects).toBe(ANSWER_KIND.duration);
    expect(long.moment).toBe(2);
    // The build's published kinds are read instead of the text.
    expect(first('how long before we slice the loaf?', (i) => (i === 1 ? ANSWER_KIND.duration : 0)).moment).toBe(1);
    // Another kind asked for, or none: the tie stays with the earlier passage.
    expect(first('when do we slice the loaf?').moment).toBe(1);
    const plain = first('do we slice the loaf?');
    expect(plain.u.expects).toBeUndefined();
    expect(plain.moment).toBe(1);
    expect(momentScore({ ...features, answer: 1 })).toBeGreaterThan(momentScore(features));
  });

  it('pickMoments: best first by moment score, at most MOMENT.max, falling back to the score', () => {
    const ranked = [
      { index: 4, score: 3, terms: [], moment: 1 },
      { index: 7, score: 2, terms: [], moment: 5 },
      { index: 1, score: 1, terms: [], moment: 2 },
      { index: 9, score: 0.5, terms: [], moment: 0.1 },
    ];
    expect(pickMoments(ranked)).toEqual([7, 1, 4]);
    expect(pickMoments(ranked, 2)).toEqual([7, 1]);
    expect(pickMoments([{ index: 3, score: 1, terms: [] }, { index: 5, score: 2, terms: [] }])).toEqual([5, 3]);
    expect(MOMENT.max).toBe(3);
  });
});
