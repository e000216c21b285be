/**
 * Lunr beside MiniSearch on the same corpus: the same documents (episode documents "e<id>" and transcript
 * passages, from the build's own /episodes.json and /search/passages.json), the same fields and boosts
 * (src/build/search/lunr-index.ts FIELD_BOOSTS) and the same text analysis (Lunr's English trimmer, stop words
 * and Porter stemmer, given to MiniSearch as its processTerm), so the figures compare engines, not analysers.
 * Each mode runs in a fresh process and prints one JSON line.
 *
 *   node --expose-gc bench/engines.ts build --dist <ASTRO_OUT_DIR> --out <minisearch-index.json> [--lunr <lunr-index.json>]
 *   node --expose-gc bench/engines.ts query --engine lunr|minisearch --index <file> --queries <queries.json> [--runs 5]
 *
 * Raw engine queries on both sides (Lunr's index.query, MiniSearch's search; the same analysed words, OR-ed, no
 * prefix, no typo tolerance): the service's own aggregation and snippets are measured by bench/inproc.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import lunr from 'lunr';
import MiniSearch, { type Options } from 'minisearch';
import { buildLunrIndex, FIELD_BOOSTS, indexedDocuments, type IndexedEpisode, type SearchField } from '../src/build/search/lunr-index.ts';
import { loadLanguage } from '../contract/search/language.ts';
import { decodePassages, type PassageChunk, type Passage, type SearchPassages } from '../contract/schemas/search-passages.ts';
import { summarizeRuns } from './lib/stats.ts';
import { processMemory } from './lib/proc.ts';
import type { QuerySet } from './queries.ts';

const FIELDS = Object.keys(FIELD_BOOSTS) as SearchField[];

/** Lunr's English analysis for MiniSearch: lower-case, trim, drop stop words, Porter-stem. */
function processTerm(term: string): string | null {
  const trimmed = lunr.trimmer(new lunr.Token(term.toLowerCase(), {})) as lunr.Token;
  if (!trimmed || !lunr.stopWordFilter(trimmed)) return null;
  const stemmed = String(lunr.stemmer(trimmed));
  return stemmed || null;
}

export const MINISEARCH_OPTIONS: Options = {
  idField: 'ref',
  fields: FIELDS,
  storeFields: [],
  processTerm,
  // Lunr separates words on whitespace and hyphens only; punctuation is then trimmed by the trimmer.
  tokenize: (text) => text.split(/[\s-]+/),
  searchOptions: { boost: FIELD_BOOSTS, combineWith: 'OR' },
};

interface Doc extends Partial<Record<SearchField, string>> {
  ref: string;
}

/**
 * The documents the single passage-level index held (one per passage plus one per episode), rebuilt from what the
 * build published: the reference both engines index here (the service itself now publishes the sharded layout,
 * src/build/search/sharded-index.ts, measured by bench/inproc.ts).
 */
function documents(clientDir: string): { episodes: IndexedEpisode[]; language: string; passages: Passage[]; docs: Doc[] } {
  const episodes = JSON.parse(readFileSync(join(clientDir, 'episodes.json'), 'utf8')) as IndexedEpisode[];
  const where = JSON.parse(readFileSync(join(clientDir, 'search/passages.json'), 'utf8')) as SearchPassages;
  const { path, perChunk, episodes: ids, counts } = where.passages;
  const passages = ids.flatMap((id, i) =>
    decodePassages(
      Array.from({ length: Math.ceil(counts[i]! / perChunk) }, (_, c) =>
        JSON.parse(readFileSync(join(clientDir, path.replace('{id}', String(id)).replace('{chunk}', String(c)).slice(1)), 'utf8')) as PassageChunk,
      ),
    ),
  );
  const docs: Doc[] = indexedDocuments(episodes, passages);
  return { episodes, language: where.language, passages, docs };
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

async function build(dist: string, out: string, lunrOut: string | undefined) {
  const clientDir = join(dist, 'client');
  const { episodes, language, passages, docs } = documents(clientDir);
  const result: Record<string, unknown> = { documents: docs.length, passages: passages.length };

  const h0 = heap();
  let t = performance.now();
  const mini = new MiniSearch<Doc>(MINISEARCH_OPTIONS);
  mini.addAll(docs);
  const miniIndexMs = performance.now() - t;
  t = performance.now();
  const miniJson = JSON.stringify(mini);
  const miniSerializeMs = performance.now() - t;
  writeFileSync(out, miniJson);
  result.minisearch = {
    buildMs: miniIndexMs + miniSerializeMs,
    indexMs: miniIndexMs,
    serializeMs: miniSerializeMs,
    bytes: Buffer.byteLength(miniJson),
    gzipBytes: gzipSync(miniJson).length,
    terms: mini.termCount,
    heapBytes: heap() - h0,
  };

  if (lunrOut) {
    const h1 = heap();
    t = performance.now();
    const index = await buildLunrIndex(
      episodes.map((e) => ({ ...e })),
      passages,
      language,
    );
    const lunrIndexMs = performance.now() - t;
    t = performance.now();
    const lunrJson = JSON.stringify(index);
    const lunrSerializeMs = performance.now() - t;
    writeFileSync(lunrOut, lunrJson);
    result.lunr = {
      buildMs: lunrIndexMs + lunrSerializeMs,
      indexMs: lunrIndexMs,
      serializeMs: lunrSerializeMs,
      bytes: Buffer.byteLength(lunrJson),
      gzipBytes: gzipSync(lunrJson).length,
      terms: Object.keys((index as unknown as { invertedIndex: object }).invertedIndex).length,
      heapBytes: heap() - h1,
    };
  }
  return result;
}

async function query(engine: 'lunr' | 'minisearch', file: string, queries: QuerySet, runs: number) {
  const h0 = heap();
  let t = performance.now();
  const text = readFileSync(file, 'utf8');
  const readMs = performance.now() - t;
  let search: (q: string) => unknown[];
  let parseMs = 0;
  let loadMs: number;
  if (engine === 'lunr') {
    await loadLanguage('en');
    t = performance.now();
    const json = JSON.parse(text) as object;
    parseMs = performance.now() - t;
    t = performance.now();
    const index = lunr.Index.load(json);
    loadMs = performance.now() - t;
    // The same analysis as MiniSearch's processTerm (Lunr's own search pipeline only stems, so "on" or "it?"
    // would reach the index unfiltered and untrimmed).
    search = (q) =>
      index.query((query) => {
        for (const word of q.split(/[\s-]+/)) {
          const term = processTerm(word);
          if (term) query.term(term, { usePipeline: false });
        }
      });
  } else {
    t = performance.now();
    const index = MiniSearch.loadJSON<Doc>(text, MINISEARCH_OPTIONS);
    loadMs = performance.now() - t;
    search = (q) => index.search(q);
  }
  t = performance.now();
  search(queries.probe);
  const firstQueryMs = performance.now() - t;
  const processToFirstAnswerMs = performance.now();
  const heapBytes = heap() - h0;

  const lists = { search: queries.search, ask: queries.ask };
  const out: Record<string, unknown> = {};
  for (const [name, list] of Object.entries(lists)) {
    let matches = 0;
    for (const q of list) matches += search(q).length;
    const all: number[][] = [];
    for (let r = 0; r < runs; r++) {
      const times: number[] = [];
      for (const q of list) {
        const s = performance.now();
        search(q);
        times.push(performance.now() - s);
      }
      all.push(times);
    }
    out[name] = { ...summarizeRuns(all), avgMatches: matches / list.length };
  }
  return { engine, readMs, parseMs, loadMs, firstQueryMs, processToFirstAnswerMs, heapBytes, memory: processMemory(process.pid), ...out };
}

if (import.meta.main) {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      dist: { type: 'string' },
      out: { type: 'string' },
      lunr: { type: 'string' },
      engine: { type: 'string' },
      index: { type: 'string' },
      queries: { type: 'string' },
      runs: { type: 'string', default: '5' },
    },
  });
  const mode = positionals[0];
  if (mode === 'build') {
    console.log(JSON.stringify(await build(values.dist!, values.out!, values.lunr)));
  } else if (mode === 'query') {
    const queries = JSON.parse(readFileSync(values.queries!, 'utf8')) as QuerySet;
    console.log(JSON.stringify(await query(values.engine as 'lunr' | 'minisearch', values.index!, queries, Number(values.runs))));
  } else {
    console.error('usage: engines.ts build|query ...');
    process.exit(2);
  }
}
