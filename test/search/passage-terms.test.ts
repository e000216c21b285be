/**
 * /ask reads each passage's analysis from /search/passage-terms/<id>/<chunk>.json (PassageTerms, made at build
 * time) instead of analysing the text per question. The published analysis must be exactly what the text gives on
 * the fly, so a build with the files and one without (or an engine that could not read them) answer alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getEngine, type SearchEngine } from '../../functions/search/engine.ts';
import { DataStore } from '../../functions/data.ts';
import {
  byCodePoint, decodePassages, encodePassageTerms, NOT_ASKED, PassageTermsReader, PassageTermsSchema, TERM_DIGITS, type PassageChunk,
} from '../../contract/schemas/search-passages.ts';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import { analysePassage, ANSWER_KIND, questionsIn } from '../../contract/search/passage-terms.ts';
import { buildSearchArtifacts } from '../../src/build/search/artifacts.ts';
import { contentFiles, memoryStore, sampleContent } from './helpers.ts';

/** A chunk of passages from `from` on, one cue a passage, starting at `starts` (seconds). */
const chunkAt = (episode: number, from: number, starts: number[]): PassageChunk => ({
  version: 3, episode, from, text: starts.map((s) => `cue at ${s}`).join('\n'), starts, first: starts.map((_, n) => n), ends: starts.map((s) => s + 1),
});

const questions = (JSON.parse(readFileSync(join(import.meta.dirname, 'paraphrase-queries.json'), 'utf8')) as Array<{ question: string }>).map((q) => q.question);

describe('passage analyses published for /ask', () => {
  let analyzer: Analyzer;
  beforeAll(async () => {
    analyzer = new Analyzer(await loadLanguage('en'));
  });

  it('round-trip: stop words stay as "" in place, questions keep their terms', () => {
    const texts = ['So how do the bees choose a new home? The scouts dance for it.', 'Nothing asked here, just bread — and more bread.'];
    const analyses = texts.map((t) => analysePassage(t, analyzer));
    expect(analyses[0]!.terms).toContain('');
    expect(analyses[0]!.questions).toEqual([analyzer.indexTerms('So how do the bees choose a new home?').filter(Boolean)]);
    expect(analyses[1]!.questions).toEqual([]);
    const file = PassageTermsSchema.parse(JSON.parse(JSON.stringify(encodePassageTerms(chunkAt(7, 16, [12.5, 40]), analyses))));
    expect(file.width).toBe(1);
    expect([file.episode, file.from]).toEqual([7, 16]);
    expect(file.terms.split(' ')).not.toContain('');
    expect(file.terms.split(' ')).toEqual(file.terms.split(' ').toSorted(byCodePoint));
    const reader = new PassageTermsReader(file);
    expect(reader.all()).toEqual(analyses);
    expect([reader.start(0), reader.start(1)]).toEqual([12.5, 40]);
    expect(file.passages).toEqual(chunkAt(7, 16, [12.5, 40]));
  });

  it('publishes the kinds of answer only where a passage holds one, and reads 0 where none is published', () => {
    const texts = ['Let it cool for an hour. How long? An hour.', 'The scouts dance for the sites.'];
    const analyses = texts.map((t) => analysePassage(t, analyzer));
    expect(analyses.map((a) => a.answers)).toEqual([ANSWER_KIND.duration, undefined]);
    const file = PassageTermsSchema.parse(JSON.parse(JSON.stringify(encodePassageTerms(chunkAt(3, 0, [0, 30]), analyses))));
    expect(file.answers).toEqual([ANSWER_KIND.duration, 0]);
    const reader = new PassageTermsReader(file);
    expect([reader.answers(0), reader.answers(1), reader.answers(2)]).toEqual([ANSWER_KIND.duration, 0, 0]);
    expect(reader.all()).toEqual(analyses);
    const none = encodePassageTerms(chunkAt(3, 0, [0]), [analyses[1]!]);
    expect(none.answers).toBeUndefined();
    expect(PassageTermsReader.of(JSON.parse(JSON.stringify(none)))?.answers(0)).toBe(0);
    expect(PassageTermsReader.of({ ...JSON.parse(JSON.stringify(file)), answers: 'x' })).toBeUndefined();
  });

  it('reads a fetched file only when it has the published shape', () => {
    const file = JSON.parse(JSON.stringify(encodePassageTerms(chunkAt(7, 16, [3]), [analysePassage('Bread rises. Does it?', analyzer)])));
    expect(PassageTermsReader.of(file)?.all()).toEqual(new PassageTermsReader(file).all());
    const bads = [null, 'text', {}, { ...file, version: 1 }, { ...file, width: 0 }, { ...file, terms: ['a'] }, { ...file, words: 'AB' }, { ...file, words: [1] }];
    for (const bad of [...bads, { ...file, starts: undefined }, { ...file, addressed: undefined }, { ...file, questions: [null] }, { ...file, passages: { ...file.passages, version: 2 } }, { ...file, passages: undefined }]) {
      expect(PassageTermsReader.of(bad)).toBeUndefined();
    }
  });

  it('widens the digits past 64 distinct terms and still reads every term back', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i}`);
    const analyses = [{ terms: ['', ...words.slice(0, 3000)], questions: [], addressed: 0 }, { terms: words.slice(2000), questions: [words.slice(4990)], addressed: 2 }];
    const file = encodePassageTerms(chunkAt(1, 0, [0, 30]), analyses);
    expect(file.width).toBe(3);
    expect(TERM_DIGITS.length ** 2).toBeLessThan(5001);
    const reader = new PassageTermsReader(file);
    expect(reader.all()).toEqual(analyses);
    for (const w of [words[0]!, words[4999]!, words[2500]!]) expect(reader.term(reader.indexOf(w))).toBe(w);
  });

  it('finds a question\'s terms in a chunk and reads every other word as NOT_ASKED, stop words as ""', () => {
    const analyses = [
      { terms: ['bee', '', 'hive', 'zebra', 'bee'], questions: [['hive', 'bee'], ['queen']], addressed: 1 },
      { terms: ['apple', 'bee'], questions: [], addressed: 0 },
    ];
    const reader = new PassageTermsReader(encodePassageTerms(chunkAt(2, 32, [1, 2]), analyses));
    expect(reader.size).toBe(5);
    for (const t of ['apple', 'bee', 'hive', 'queen', 'zebra']) expect(reader.term(reader.indexOf(t))).toBe(t);
    for (const t of ['', 'a', 'be', 'beee', 'zz', 'hiv', 'zebras']) expect(reader.indexOf(t)).toBe(0);
    const names = reader.names(['bee', 'queen', 'unknown']);
    expect(reader.terms(0, names)).toEqual(['bee', '', NOT_ASKED, NOT_ASKED, 'bee']);
    expect(reader.questions(0, names)).toEqual([[NOT_ASKED, 'bee'], ['queen']]);
    expect(reader.terms(1, names)).toEqual([NOT_ASKED, 'bee']);
    expect(reader.terms(2, names)).toEqual([]);
    expect([reader.addressed(0), reader.addressed(1)]).toEqual([1, 0]);
    expect(reader.bytes).toBeLessThan(1_200);
  });

  it('sorts and finds terms in their UTF-8 bytes\' order, whatever their characters', () => {
    const terms = ['zebra', 'café', 'cafe', 'über', '\uffff', '🐝bee', 'naïve', 'éclair', 'a', 'ab'];
    const sorted = terms.toSorted(byCodePoint);
    expect(sorted).toEqual(terms.toSorted((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
    expect(sorted.indexOf('\uffff')).toBeLessThan(sorted.indexOf('🐝bee'));
    const reader = new PassageTermsReader(encodePassageTerms(chunkAt(1, 0, [0]), [{ terms: ['', ...terms], questions: [['über']], addressed: 0 }]));
    for (const t of terms) expect(reader.term(reader.indexOf(t))).toBe(t);
    for (const t of ['caf', 'cafés', 'uber', '🐝', 'zebr']) expect(reader.indexOf(t)).toBe(0);
    expect(reader.all()[0]).toEqual({ terms: ['', ...terms], questions: [['über']], addressed: 0 });
  });

  it('the build publishes, for every chunk of every episode, what the passages\' text gives on the fly', async () => {
    const artifacts = await buildSearchArtifacts(sampleContent());
    expect(artifacts.top.layout.passages.terms).toBe('/search/passage-terms/{id}-{chunk}.json');
    expect([...artifacts.passageTerms.keys()]).toEqual([...artifacts.passages.keys()]);
    let passages = 0;
    let asked = 0;
    for (const [id, chunks] of artifacts.passages) {
      const published = artifacts.passageTerms.get(id)!;
      expect(published.length).toBe(chunks.length);
      chunks.forEach((chunk, c) => {
        const file = PassageTermsSchema.parse(JSON.parse(JSON.stringify(published[c])));
        expect([file.episode, file.from]).toEqual([id, chunk.from]);
        const texts = decodePassages(chunk).map((p) => p.cues.map(([, text]) => text).join(' '));
        expect(new PassageTermsReader(file).all()).toEqual(texts.map((t) => analysePassage(t, analyzer)));
        expect(file.starts).toEqual(decodePassages(chunk).map((p) => p.start));
        expect(file.passages).toEqual(chunk);
        passages += texts.length;
        asked += texts.filter((t) => questionsIn(t).length > 0).length;
      });
    }
    expect(passages).toBeGreaterThan(100);
    expect(asked).toBeGreaterThan(10);
  });

  it('/ask reads one file per chunk: its moments come from the chunks it re-ranked, not from the passages\' files', async () => {
    const files = await contentFiles(sampleContent());
    const read: string[] = [];
    const store = new DataStore(async (path) => (read.push(path), path in files ? new Response(files[path]) : new Response(null, { status: 404 })));
    const engine = await getEngine(store);
    let moments = 0;
    for (const q of questions.slice(0, 20)) {
      const { hits } = await engine.ask(q);
      for (const r of await Promise.all(hits.slice(0, 10).map((h) => engine.result(h)))) moments += r.moments?.length ?? 0;
    }
    expect(moments).toBeGreaterThan(20);
    expect(read.filter((p) => p.startsWith('/search/passage-terms/')).length).toBeGreaterThan(5);
    expect(read.filter((p) => p.startsWith('/search/passages/'))).toEqual([]);
    // A search's snippets still read the passages' own files (smaller: no analyses).
    read.length = 0;
    const searching = await getEngine(new DataStore(async (path) => (read.push(path), path in files ? new Response(files[path]) : new Response(null, { status: 404 }))));
    const { hits } = await searching.search('bees');
    expect((await searching.result(hits[0]!)).snippet).toBeTruthy();
    expect(read.filter((p) => p.startsWith('/search/passages/')).length).toBe(1);
    expect(read.filter((p) => p.startsWith('/search/passage-terms/'))).toEqual([]);
  });

  it('/ask answers alike with the published analyses and without them (read from the text)', async () => {
    const files = await contentFiles(sampleContent());
    const stripped = Object.fromEntries(Object.entries(files).filter(([path]) => !path.startsWith('/search/passage-terms/')));
    expect(Object.keys(stripped).length).toBeLessThan(Object.keys(files).length);
    const withAnalysis: SearchEngine = await getEngine(memoryStore(files));
    const fromText: SearchEngine = await getEngine(memoryStore(stripped));
    // Which engine analysed passage-length text itself (titles and questions are short).
    const analysedLong = (engine: SearchEngine) => {
      const seen = { count: 0 };
      const own = engine.analyzer.indexTerms.bind(engine.analyzer);
      engine.analyzer.indexTerms = (text: string) => ((seen.count += text.length > 300 ? 1 : 0), own(text));
      return seen;
    };
    const [readWith, readFrom] = [analysedLong(withAnalysis), analysedLong(fromText)];
    for (const q of questions.slice(0, 40)) {
      const [a, b] = await Promise.all([withAnalysis.ask(q), fromText.ask(q)]);
      expect(a.hits, q).toEqual(b.hits);
      expect(await Promise.all(a.hits.slice(0, 5).map((h) => withAnalysis.result(h))), q).toEqual(await Promise.all(b.hits.slice(0, 5).map((h) => fromText.result(h))));
    }
    expect(readWith.count).toBe(0);
    expect(readFrom.count).toBeGreaterThan(100);
  });
});
