/**
 * /ask reads each passage's analysis from /search/passage-terms/<id>/<chunk>.json, made at build time, instead of
 * analysing the text per question. The published analysis must be exactly what the text gives on the fly, so a
 * build with the files and one without (or a reader whose load failed) answer alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DataStore } from '../../functions/data.ts';
import { getEngine, type SearchEngine } from '../../functions/search/engine.ts';
import { decodePassages, decodePassageTerms, encodePassageTerms, PassageTermsChunkSchema } from '../../contract/schemas/search-passages.ts';
import { Analyzer } from '../../contract/search/analyzer.ts';
import { loadLanguage } from '../../contract/search/language.ts';
import { analysePassage, questionsIn } from '../../contract/search/passage-terms.ts';
import { buildSearchArtifacts } from '../../src/build/search/artifacts.ts';
import { contentFiles, memoryStore, sampleContent } from './helpers.ts';

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
    const file = PassageTermsChunkSchema.parse(JSON.parse(JSON.stringify(encodePassageTerms(7, 16, analyses))));
    expect(file.terms[0]).toBe('');
    expect(new Set(file.terms).size).toBe(file.terms.length);
    expect(decodePassageTerms(file)).toEqual(analyses);
  });

  it('the build publishes, for every chunk of every episode, what the passages\' text gives on the fly', async () => {
    const artifacts = await buildSearchArtifacts(sampleContent());
    expect(artifacts.top.layout.passages.terms).toBe('/search/passage-terms/{id}/{chunk}.json');
    expect([...artifacts.passageTerms.keys()]).toEqual([...artifacts.passages.keys()]);
    let passages = 0;
    let asked = 0;
    for (const [id, chunks] of artifacts.passages) {
      const terms = artifacts.passageTerms.get(id)!;
      expect(terms.length).toBe(chunks.length);
      chunks.forEach((chunk, c) => {
        const file = PassageTermsChunkSchema.parse(terms[c]);
        expect(file.from).toBe(chunk.from);
        const published = decodePassageTerms(file);
        const texts = decodePassages(chunk).map((p) => p.cues.map(([, text]) => text).join(' '));
        expect(published).toEqual(texts.map((t) => analysePassage(t, analyzer)));
        passages += texts.length;
        asked += texts.filter((t) => questionsIn(t).length > 0).length;
      });
    }
    expect(passages).toBeGreaterThan(100);
    expect(asked).toBeGreaterThan(10);
  });

  it('/ask answers alike with the published analyses and without them (read from the text)', async () => {
    const files = await contentFiles(sampleContent());
    const without = Object.fromEntries(Object.entries(files).filter(([path]) => !path.startsWith('/search/passage-terms/')));
    expect(Object.keys(without).length).toBeLessThan(Object.keys(files).length);
    const read: string[] = [];
    const withTerms: SearchEngine = await getEngine(
      new DataStore(async (path) => {
        read.push(path);
        return path in files ? new Response(files[path]) : new Response(null, { status: 404 });
      }),
    );
    const fromText: SearchEngine = await getEngine(memoryStore(without));
    for (const q of questions.slice(0, 40)) {
      const [a, b] = await Promise.all([withTerms.ask(q), fromText.ask(q)]);
      expect(a.hits, q).toEqual(b.hits);
      expect(await Promise.all(a.hits.slice(0, 5).map((h) => withTerms.result(h))), q).toEqual(await Promise.all(b.hits.slice(0, 5).map((h) => fromText.result(h))));
    }
    // The engine with the files did read them (and so did not analyse text).
    expect(read.filter((p) => p.startsWith('/search/passage-terms/')).length).toBeGreaterThan(10);
  });
});
