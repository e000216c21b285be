import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Analyzer, isSeparator } from './analyzer.ts';
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

describe('Analyzer.wordSpans, against the pattern it replaces', () => {
  it('splits at exactly the code units WORD_SEPARATOR matches', () => {
    const differ: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isSeparator(c) !== /^[\s-]$/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });

  it('cuts the chunks /[^\\s-]+/g finds and reads each as words() did, on the sample transcripts and odd input', async () => {
    const analyzer = new Analyzer(await loadLanguage('en'));
    // The words as they were cut before (a regular expression over the chunks, each trimmed by normalize()).
    const expected = (text: string) => {
      const starts: number[] = [];
      const ends: number[] = [];
      const terms: Array<string | null> = [];
      for (const m of text.matchAll(/[^\s-]+/g)) {
        const core = analyzer.normalize(m[0]);
        if (!core) continue;
        const at = m[0].toLowerCase().indexOf(core);
        const [offset, length] = at < 0 ? [0, m[0].length] : [at, core.length];
        starts.push(m.index + offset);
        ends.push(m.index + offset + length);
        terms.push(analyzer.term(m[0].slice(offset, offset + length)));
      }
      return { count: starts.length, starts, ends, terms };
    };
    const dir = join(import.meta.dirname, '../../content/transcripts');
    const texts = readdirSync(dir)
      .filter((f) => f.endsWith('.srt'))
      .map((f) => readFileSync(join(dir, f), 'utf8'));
    const separators = [...Array(0x10000).keys()].filter(isSeparator).map((c) => String.fromCharCode(c));
    texts.push(
      separators.map((s, i) => `bee${i}${s}`).join('') + 'hive',
      '«Quoted» — dash-separated, ...; İstanbul ÇA 3.14 e-mail!! (parenthesised) don’t \u{1D11E}bees \uD800 ,,, --x--',
      '',
      '   ',
      '-- -- --',
    );
    expect(texts.length).toBeGreaterThan(9);
    for (const text of texts) {
      expect(analyzer.wordSpans(text)).toEqual(expected(text));
      // A second pass reads the cache and must agree too.
      expect(analyzer.wordSpans(text)).toEqual(expected(text));
    }
  });
});

describe('Analyzer.term, English possessives and contractions', () => {
  it("indexes a possessive or contracted 's as the word it belongs to, and leaves other apostrophes", async () => {
    const analyzer = new Analyzer(await loadLanguage('en'));
    for (const word of ["queen's", 'queen’s', 'Queen’s', "queens'", 'queen']) expect(analyzer.term(word), word).toBe('queen');
    // "that's" and "it's" are their stop words, not the terms `that'` and `it'` of every other sentence.
    for (const word of ["it's", 'That’s', "there's", "let's"]) expect(analyzer.term(word), word).toBeNull();
    expect(analyzer.term("o'clock")).toBe("o'clock");
    expect(analyzer.term("don't")).toBe("don't");
    expect(analyzer.term("'s")).toBe('s');
    expect(analyzer.words("the queen's pheromone").map((w) => w.text)).toEqual(['the', 'queen', 'pheromone']);
  });
});

describe('Analyzer.term beyond ASCII (the English pipeline, which languages without a pack share)', () => {
  it('keeps letters of every script and combining marks, and trims only punctuation', async () => {
    const analyzer = new Analyzer(await loadLanguage('en'));
    expect(analyzer.term('café')).toBe('café');
    expect(analyzer.term('cafe\u0301,')).toBe('cafe\u0301');
    expect(analyzer.term('«Zoë’s»')).toBe('zoë');
    expect(analyzer.term('Київ.')).toBe('київ');
    expect(analyzer.term('「蜂蜜」')).toBe('蜂蜜');
    expect(analyzer.term('¿qué?')).toBe('qué');
    expect(analyzer.term('—')).toBeNull();
    expect(analyzer.words('Tea at the café, then Київ!').map((w) => w.text)).toEqual(['Tea', 'at', 'the', 'café', 'then', 'Київ']);
  });
});
