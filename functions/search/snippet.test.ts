import { beforeAll, describe, expect, it } from 'vitest';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import { makeSnippet, MARK_CLOSE, MARK_OPEN, sentences, SNIPPET_MAX_LENGTH } from './snippet.ts';

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = new Analyzer(await loadLanguage('en'));
});

/** The index terms of some words, as a query's match data would carry them. */
const termsOf = (...words: string[]) => new Set(words.map((w) => analyzer.term(w)!));
const marked = (snippet: string) => [...snippet.matchAll(/«([^»]*)»/g)].map((m) => m[1]);

describe('sentences', () => {
  it('splits at . ! ? and … followed by a space, not inside numbers', () => {
    const text = 'Feed it at 1.5 times. Really? Yes! It works… Then wait';
    expect(sentences(text).map((r) => text.slice(r.start, r.end))).toEqual([
      'Feed it at 1.5 times.', 'Really?', 'Yes!', 'It works…', 'Then wait',
    ]);
  });

  it('keeps closing quotes with their sentence', () => {
    const text = 'She said "bake it." Then she left.';
    expect(sentences(text).map((r) => text.slice(r.start, r.end))).toEqual(['She said "bake it."', 'Then she left.']);
  });

  it('gives nothing for empty or blank text', () => {
    expect(sentences('')).toEqual([]);
    expect(sentences('   ')).toEqual([]);
  });
});

describe('makeSnippet', () => {
  const passage =
    'Maya: Welcome back to the show. Today we talk about bread. ' +
    'Ines: A starter is flour and water that wild yeast has colonised, and hydration is the ratio of water to flour. ' +
    'Maya: And the oven? Ines: Hot, very hot.';

  it('picks the sentence with the most distinct matched words and marks them', () => {
    const s = makeSnippet(passage, termsOf('starters', 'hydration'), analyzer);
    expect(s.text.startsWith('Ines: A «starter» is flour')).toBe(true);
    expect(marked(s.text)).toEqual(['starter', 'hydration']);
    expect(s.offset).toBe(passage.indexOf('Ines: A starter'));
  });

  it('marks every form that shares the stem, keeping the text as written', () => {
    const s = makeSnippet('Starters, starter and STARTERS all count. Nothing here.', termsOf('starter'), analyzer);
    expect(marked(s.text)).toEqual(['Starters', 'starter', 'STARTERS']);
    expect(s.text).toContain('«Starters», «starter» and «STARTERS» all count.');
  });

  it('adds the neighbouring sentence when it also matches and both fit', () => {
    const s = makeSnippet(passage, termsOf('oven', 'hot'), analyzer);
    expect(s.text).toBe('Maya: And the «oven»? Ines: «Hot», very «hot».');
  });

  it('adds the next sentence to a short best sentence for context', () => {
    const s = makeSnippet('Intro words here. Bread! The dough rests overnight in the fridge.', termsOf('bread'), analyzer);
    expect(s.text).toBe('«Bread»! The dough rests overnight in the fridge.');
  });

  it('marks both halves of a hyphenated name, as the index splits it', () => {
    const s = makeSnippet('The Diffie-Hellman exchange agrees on a key.', termsOf('diffie', 'hellman'), analyzer);
    expect(s.text).toBe('The «Diffie»-«Hellman» exchange agrees on a key.');
  });

  it('crops a long sentence around the first match, at word boundaries, with ellipses', () => {
    const long = `${'Lorem ipsum dolor sit amet '.repeat(20)}the hydration matters ${'and so on and so forth '.repeat(20)}end.`;
    const s = makeSnippet(long, termsOf('hydration'), analyzer);
    expect(s.text).toContain('«hydration»');
    expect(s.text.startsWith('…')).toBe(true);
    expect(s.text.endsWith('…')).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(SNIPPET_MAX_LENGTH + 2 + MARK_OPEN.length + MARK_CLOSE.length);
    // Cut between words, never inside one.
    expect(['Lorem', 'ipsum', 'dolor', 'sit', 'amet', 'the']).toContain(s.text.slice(1).split(' ')[0]);
    expect(['and', 'so', 'on', 'forth']).toContain(s.text.slice(0, -1).split(' ').at(-1));
    expect(long.slice(s.offset).startsWith(s.text.slice(1, 10))).toBe(true);
  });

  it('never cuts a surrogate pair when a long sentence has no word to end on', () => {
    for (const prefix of ['"', '(', '¿', '🎵 ']) {
      const s = makeSnippet(`${prefix}${'😴'.repeat(200)}.`, new Set(), analyzer);
      expect(s.text.endsWith('…')).toBe(true);
      // A lone half of a pair is not well-formed text (and strict JSON parsers refuse it).
      expect(s.text.isWellFormed()).toBe(true);
      expect(s.text.length).toBeGreaterThan(SNIPPET_MAX_LENGTH / 2);
    }
  });

  it('never cuts between a letter and its combining mark, or inside an emoji sequence', () => {
    for (const cluster of ['e\u0301', '👨\u200d👩\u200d👧', 'ก\u0e34', '🇵🇹']) {
      // (After one letter, so that the 240th code unit falls inside a cluster.)
      const s = makeSnippet(`a${cluster.repeat(300)}.`, new Set(), analyzer);
      expect(s.text.endsWith('…'), cluster).toBe(true);
      expect(s.text.startsWith('a'), cluster).toBe(true);
      const kept = s.text.slice(1, -1);
      expect(kept.length % cluster.length, JSON.stringify(cluster)).toBe(0);
      expect(kept).toBe(cluster.repeat(kept.length / cluster.length));
      expect(kept.length).toBeGreaterThan(SNIPPET_MAX_LENGTH / 2);
    }
  });

  it('keeps most of the room when the only word to end on is at the very start', () => {
    const s = makeSnippet(`x ${'🎵'.repeat(200)} tail.`, new Set(), analyzer);
    expect(s.text.isWellFormed()).toBe(true);
    expect(s.text.length).toBeGreaterThan(SNIPPET_MAX_LENGTH / 2);
  });

  it('replaces guillemets in the source so a guillemet always means a match', () => {
    const s = makeSnippet('He called it «levain» and fed the starter.', termsOf('starter'), analyzer);
    expect(s.text).toBe('He called it "levain" and fed the «starter».');
    expect(marked(s.text)).toEqual(['starter']);
  });

  it('falls back to the opening sentences, unmarked, when nothing matches', () => {
    const s = makeSnippet(passage, termsOf('volcano'), analyzer);
    expect(s.text).toBe('Maya: Welcome back to the show. Today we talk about bread.');
    expect(s.offset).toBe(0);
    expect(s.text).not.toContain(MARK_OPEN);
  });

  it('never marks stop words, even when asked', () => {
    const s = makeSnippet('The bread and the oven.', new Set(['the', 'and', 'bread']), analyzer);
    expect(marked(s.text)).toEqual(['bread']);
  });

  it('collapses whitespace and survives empty text', () => {
    expect(makeSnippet('  Bread\n\n  is   good.  ', termsOf('bread'), analyzer).text).toBe('«Bread» is good.');
    expect(makeSnippet('', termsOf('bread'), analyzer)).toEqual({ text: '', offset: 0 });
  });
});
