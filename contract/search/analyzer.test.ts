import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Analyzer } from './analyzer.ts';
import { loadLanguage } from './language.ts';

describe('Analyzer.indexTerms', () => {
  it("gives every word's index term exactly as words() then term() do, on the sample transcripts and odd input", async () => {
    const analyzer = new Analyzer(await loadLanguage('en'));
    const dir = join(import.meta.dirname, '../../content/transcripts');
    const texts = readdirSync(dir)
      .filter((f) => f.endsWith('.srt'))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    texts.push('«Quoted» — dash-separated, ...; İstanbul ÇA 3.14 e-mail!! (parenthesised) don’t', '', '   ', '-- -- --');
    expect(texts.length).toBeGreaterThan(4);
    for (const text of texts) {
      const expected = analyzer.words(text).map((span) => analyzer.term(span.text) ?? '');
      expect(analyzer.indexTerms(text)).toEqual(expected);
      // A second pass reads the cache and must agree too.
      expect(analyzer.indexTerms(text)).toEqual(expected);
    }
  });
});

describe('Analyzer.wordSpans', () => {
  it('cuts words as words() does, as offsets and terms, without copying them', async () => {
    const analyzer = new Analyzer(await loadLanguage('en'));
    const text = '«Quoted» bees — dash-separated, the hive... don’t!';
    const spans = analyzer.wordSpans(text);
    expect(spans.count).toBe(7);
    expect(spans.starts.map((s, i) => text.slice(s, spans.ends[i]))).toEqual(['Quoted', 'bees', 'dash', 'separated', 'the', 'hive', 'don’t']);
    expect(spans.terms).toEqual(['quot', 'bee', 'dash', 'separ', null, 'hive', 'don’t']);
    expect(analyzer.words(text)).toEqual(spans.starts.map((start, i) => ({ text: text.slice(start, spans.ends[i]), start, end: spans.ends[i], term: spans.terms[i] })));
    expect(analyzer.wordSpans('  -- ')).toEqual({ count: 0, starts: [], ends: [], terms: [] });
  });
});
