import { beforeAll, describe, expect, it } from 'vitest';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import type { SemanticData } from '../../contract/search/semantic.ts';
import { chapterAnchor, rescorePassages, understandQuestion } from './ask-understanding.ts';

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
