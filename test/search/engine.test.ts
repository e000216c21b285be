/**
 * The engine in-process, over made-up episodes (exact control of ties, operators, languages) and over the
 * sample podcast (paging invariants, hostile input). No server: these are unit tests of the ranking.
 */
import lunr from 'lunr';
import { beforeAll, describe, expect, it } from 'vitest';
import { SearchResultSchema } from '../../contract/schemas/search.ts';
import { TOP_INDEX_PATH, VOCABULARY_BUCKETS, vocabularyBucket, VocabularySchema, type SearchLayout } from '../../contract/schemas/search-passages.ts';
import { searchEpisodes, askEpisodes } from '../../functions/search/service.ts';
import { engineFrom, getEngine, timestamp, withTime, type DocumentReader, type SearchEngine } from '../../functions/search/engine.ts';
import { loadTopIndex, queryTerm, vocabularyOf } from '../../functions/search/top-index.ts';
import { DataStore } from '../../functions/data.ts';
import { contentWords } from '../../functions/search/query.ts';
import { languageKey } from '../../contract/search/language.ts';
import { memoryStore, contentFiles, sampleContent, syntheticEngine } from './helpers.ts';
import { buildSearchArtifacts, searchFiles } from '../../src/build/search/artifacts.ts';
import type { LoadedContent } from '../../src/content/load.ts';

describe('words as the index keeps them (made-up episodes)', () => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await syntheticEngine([
      { id: 1, title: 'Night shift', cues: [[0, 'The bakers start at 3:30 every morning.'], [30, 'Flour, water and salt, 1:1:1 by weight? No.']] },
      { id: 2, title: 'The hive', cues: [[0, "The queen's pheromone keeps the colony calm."], [30, 'That’s why the workers stay.']] },
      { id: 3, title: 'Clocks', cues: [[0, 'Three and thirty of them, 3 or 30 ticking.']] },
    ]);
  });
  const ids = (r: { hits: Array<{ id: number }> }) => r.hits.map((h) => h.id);

  it('finds a time or a ratio as written, and does not read it as two numbers', async () => {
    expect(ids(await engine.search('3:30'))).toEqual([1]);
    expect(ids(await engine.search('1:1:1'))).toEqual([1]);
    expect(ids(await engine.search('3 30'))).toEqual([3]);
  });

  it("finds a possessive by its word, and a snippet marks the word without the 's", async () => {
    for (const q of ['queen', "queen's", 'queen’s']) expect(ids(await engine.search(q)), q).toEqual([2]);
    expect(ids(await engine.ask('what does the queen do to keep the colony calm?'))[0]).toBe(2);
    // "that's" is the stop word it contains, not a term of its own.
    expect(ids(await engine.search('that’s'))).toEqual([]);
  });

  it('finds words beyond ASCII, in English and in a language without a pack (searched with the English pipeline)', async () => {
    const english = await syntheticEngine([{ id: 1, title: 'Coffee', cues: [[0, 'We met at a café near Zoë’s flat.']] }]);
    for (const q of ['café', 'zoë', 'CAFÉ']) expect(ids(await english.search(q)), q).toEqual([1]);
    expect(ids(await english.search('caf'))).toEqual([1]); // (the last word is a prefix while typing)
    expect(ids(await english.search('caf '))).toEqual([]);
    const ukrainian = await syntheticEngine([
      { id: 1, title: 'Київ вночі', cues: [[0, 'Ми говоримо про мости і річку.']] },
      { id: 2, title: 'Львів', cues: [[0, 'Кава і дощ.']] },
    ], 'uk');
    expect(ids(await ukrainian.search('мости'))).toEqual([1]);
    expect(ids(await ukrainian.search('Київ'))).toEqual([1]);
    expect(ids(await ukrainian.search('кава'))).toEqual([2]);
  });

  it('reads Russian ё as е, written either way', async () => {
    const russian = await syntheticEngine([{ id: 1, title: 'Ёлка', cues: [[0, 'Мы ещё поговорим о пчёлах.']] }], 'ru');
    for (const q of ['елка', 'ёлка', 'пчелах', 'пчёлах']) expect(ids(await russian.search(q)), q).toEqual([1]);
  });

  it('finds a French or Italian word written with an elided article, and leaves a word that only starts like one', async () => {
    const french = await syntheticEngine([
      { id: 1, title: 'La ruche', cues: [[0, "L’abeille boit l'eau d’une fleur."]] },
      { id: 2, title: 'Demain', cues: [[0, "Aujourd'hui il pleut."]] },
    ], 'fr');
    for (const q of ['abeille', 'eau', 'fleur', "l'abeille"]) expect(ids(await french.search(q)), q).toEqual([1]);
    expect(ids(await french.search("aujourd'hui"))).toEqual([2]);
    expect(ids(await french.search('hui'))).toEqual([]);
    const italian = await syntheticEngine([{ id: 1, title: "Dell'acqua", cues: [[0, "Nell’alveare l'ape regina."]] }], 'it');
    for (const q of ['acqua', 'alveare', 'ape']) expect(ids(await italian.search(q)), q).toEqual([1]);
  });
});

describe('ranking rules (made-up episodes)', () => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await syntheticEngine([
      { id: 1, title: 'Bread at home', desc: 'A baker on bread.', cues: [[0, 'We bake bread.'], [40, 'The oven must be hot.'], [90, 'Bread again, bread always.']] },
      { id: 2, title: 'Bread in history', desc: 'Romans and their bread.', cues: [[0, 'Roman bread was flat.'], [35, 'No oven was needed.']] },
      { id: 3, title: 'Bread for beginners', desc: 'Bread without an oven: a skillet is enough.', cues: [[0, 'Flatbread in a pan.'], [50, 'Cheap and quick bread.']] },
      { id: 4, title: 'Tides', desc: 'The moon and the sea.', cues: [[0, 'Two high tides a day.'], [45, 'Cryptography has nothing to do with tides.']] },
      { id: 5, title: 'Chess openings', desc: 'The Sicilian Defence, explained without a transcript.' },
      // Five identical episodes: equal scores, so only the id can order them.
      ...[10, 11, 12, 13, 14].map((id) => ({ id, title: `Twin ${id}`, cues: [[0, 'Identical twin text about kelp.']] as Array<[number, string]> })),
    ]);
  });

  const ids = (r: { hits: Array<{ id: number }> }) => r.hits.map((h) => h.id);

  it('orders equal scores by id, ascending', async () => {
    const r = (await engine.search('kelp'));
    expect(ids(r)).toEqual([10, 11, 12, 13, 14]);
    expect(new Set(r.hits.map((h) => h.score)).size).toBe(1);
  });

  it('keeps that order when only the first hits are wanted (a page of /api/search)', async () => {
    const all = await engine.search('kelp');
    expect(ids(all)).toEqual([10, 11, 12, 13, 14]);
    for (const top of [1, 2, 4]) {
      const page = await engine.search('kelp', { top });
      expect(ids(page)).toEqual([10, 11, 12, 13, 14].slice(0, top));
      expect(page.total).toBe(5);
    }
  });

  it('-word excludes episodes that contain the word anywhere, not just in the matching passage', async () => {
    // Episode 1 says "oven" in its second passage, 2 in its second, 3 only in its description.
    expect(ids((await engine.search('bread -oven')))).toEqual([]);
    expect(ids((await engine.search('bread -skillet'))).sort()).toEqual([1, 2]);
  });

  it('+word requires the word somewhere in the episode', async () => {
    expect(ids((await engine.search('+skillet bread')))).toEqual([3]);
    expect(ids((await engine.search('bread +romans')))).toEqual([2]);
  });

  it('a bare -word is read as the word, not as "everything without it"', async () => {
    expect(ids((await engine.search('-skillet')))).toEqual([3]);
  });

  it('finds by prefix, by the last word while typing, and with one typo when nothing else matches', async () => {
    expect(ids((await engine.search('crypt*')))).toEqual([4]);
    expect(ids((await engine.search('cryp')))).toEqual([4]);
    expect((await engine.search('cryp ')).hits).toEqual([]);
    const typo = (await engine.search('cryptograhpy'));
    expect(typo.fuzzy).toBe(true);
    expect(ids(typo)).toEqual([4]);
  });

  it('does not fall back to typo matching when the words exist and the operators rule everything out', async () => {
    const r = (await engine.search('bread -oven'));
    expect(r.fuzzy).toBe(false);
    expect(r.hits).toEqual([]);
  });

  it('gives each result the passage start, HH:MM:SS and a url at that moment', async () => {
    const r = (await engine.result((await engine.search('oven hot')).hits[0]!));
    expect(r).toMatchObject({ id: 1, start: 40, timestamp: '00:00:40', url: 'https://podcast.example/episodes/1/?t=40' });
    // The short best sentence gets the next one for context.
    expect(r.snippet).toBe('The «oven» must be «hot». Bread again, bread always.');
    expect(SearchResultSchema.parse(r)).toEqual(r);
  });

  it('uses the description, without a timestamp, for an episode without a transcript', async () => {
    const r = (await engine.result((await engine.search('sicilian')).hits[0]!));
    expect(r.id).toBe(5);
    expect(r.snippet).toBe('The «Sicilian» Defence, explained without a transcript.');
    expect(r.start).toBeUndefined();
    expect(r.timestamp).toBeUndefined();
    expect(r.url).toBe('https://podcast.example/episodes/5/');
    expect(r.transcript).toBeNull();
  });

  it('ranks a question by its content words', async () => {
    expect(ids((await engine.ask('which episode talks about the moon and the tides?')))[0]).toBe(4);
    expect((await engine.ask('which episode is it?')).hits).toEqual([]);
  });
});

describe('/ask scores every passage of a leading episode near its best ones', () => {
  it('finds the passage holding all the ideas when the postings list only other passages (another chunk)', async () => {
    // 24 passages of 40 s (two chunks of 16). The postings list an episode's best 3 passages per word: "kelp" lists
    // 0-2 (three times each), "forest" 3-5; passage 20, which says both once, is in no posting and in the second chunk.
    const said = (i: number) => (i < 3 ? 'Kelp, kelp and more kelp.' : i < 6 ? 'A forest, a forest, a forest.' : i === 20 ? 'A kelp forest, right here.' : `Nothing here ${i}.`);
    const engine = await syntheticEngine([
      { id: 1, title: 'Under the sea', cues: Array.from({ length: 24 }, (_, i) => [i * 40, said(i)] as [number, string]) },
      { id: 2, title: 'Elsewhere', cues: [[0, 'Sand and stones.']] },
    ]);
    const hit = (await engine.ask('where is the kelp forest?')).hits[0]!;
    expect(hit.id).toBe(1);
    const result = await engine.result(hit);
    expect(result.moments?.map((m) => m.start)).toContain(800);
  });
});

describe('timestamps and urls', () => {
  it('formats seconds as HH:MM:SS with hours always present', async () => {
    expect(timestamp(0)).toBe('00:00:00');
    expect(timestamp(59.9)).toBe('00:00:59');
    expect(timestamp(3725)).toBe('01:02:05');
    expect(timestamp(100 * 3600)).toBe('100:00:00');
  });

  it('adds ?t=SECONDS and keeps other parameters', async () => {
    expect(withTime('https://x.example/episodes/a/', 83.9)).toBe('https://x.example/episodes/a/?t=83');
    expect(withTime('https://x.example/e?lang=en', 5)).toBe('https://x.example/e?lang=en&t=5');
  });
});

describe('language packs', () => {
  it('maps language tags to lunr-languages packs, English when there is none', async () => {
    expect(languageKey('en')).toBe('en');
    expect(languageKey('en-GB')).toBe('en');
    expect(languageKey('pt-BR')).toBe('pt');
    expect(languageKey('de')).toBe('de');
    expect(languageKey('nb')).toBe('no');
    expect(languageKey('ja')).toBe('en');
    expect(languageKey('xx')).toBe('en');
    expect(languageKey(undefined)).toBe('en');
  });

  it('indexes a German show with German stemming and stop words, and loads it back', async () => {
    const engine = await syntheticEngine(
      [
        { id: 1, title: 'Brot backen', cues: [[0, 'Die Brote gehen über Nacht im Kühlschrank.']] },
        { id: 2, title: 'Gezeiten', cues: [[0, 'Der Mond und das Meer.']] },
      ],
      'de',
    );
    expect(engine.analyzer.language).toBe('de');
    // German stemming: "Brot" finds "Brote"; English stemming would not.
    expect((await engine.search('Brot')).hits.map((h) => h.id)).toEqual([1]);
    // German stop words: "und" and "das" are not in the index.
    expect((await engine.search('und das')).hits).toEqual([]);
    expect((await engine.result((await engine.search('Kühlschrank')).hits[0]!)).snippet).toBe('Die Brote gehen über Nacht im «Kühlschrank».');
  });
});

describe('the sample podcast through the service functions the MCP tools call', () => {
  let store: ReturnType<typeof memoryStore>;
  let files: Record<string, string>;
  beforeAll(async () => {
    files = await contentFiles(sampleContent());
    store = memoryStore(files);
  });

  it("expands prefixes and typos over the published top index exactly as lunr.Index.load's index does", () => {
    const published = files['/search/lunr-index.json']!;
    const reference = lunr.Index.load(JSON.parse(published));
    const { index } = loadTopIndex(published);
    const vocabulary = Object.keys(vocabularyOf(reference)).sort();
    expect(vocabulary.length).toBeGreaterThan(500);
    const clause = (term: string, options: Partial<lunr.Query.Clause>) => (q: lunr.Query) => {
      q.term(term, { usePipeline: false, ...options });
    };
    let matched = 0;
    for (const term of vocabulary.filter((_, k) => k % 5 === 0)) {
      const typo = term.length > 3 ? term.slice(0, 1) + term.slice(2) : `${term}s`;
      for (const key of [term, typo]) {
        const fuzzy = queryTerm(index, key, { fuzzy: true }, clause(key, { editDistance: 1 }));
        expect(fuzzy, `${key}~1`).toEqual(reference.query(clause(key, { editDistance: 1 })));
        matched += fuzzy.length;
      }
      const prefix = term.slice(0, 3);
      expect(queryTerm(index, prefix, { wildcard: true }, clause(prefix, { wildcard: lunr.Query.wildcard.TRAILING })), `${prefix}*`)
        .toEqual(reference.query(clause(prefix, { wildcard: lunr.Query.wildcard.TRAILING })));
    }
    expect(matched).toBeGreaterThan(vocabulary.length / 5);
  });

  it("a page's worth of hits (search's top) is the full ranking's first ones, with the full ranking's total", async () => {
    const engine = await getEngine(store);
    // Words most episodes hold, operators, a prefix while typing, a typo (the retry), nothing.
    const queries = ['the episode about water and time', 'time', 'people', 'water', 'time -water', '+time water', 'tid', 'volcno', 'zzzzqx'];
    let selected = 0;
    for (const query of queries) {
      const full = await engine.search(query);
      expect(full.total, query).toBe(full.hits.length);
      for (const top of [1, 2, 3, 5, 10]) {
        const page = await engine.search(query, { top });
        expect(page.total, `${query} top ${top}`).toBe(full.total);
        expect(page.fuzzy).toBe(full.fuzzy);
        expect(page.hits, `${query} top ${top}`).toEqual(full.hits.slice(0, top));
        if (full.total > top) selected++;
      }
    }
    expect(selected).toBeGreaterThan(15);
  });

  it('pages are disjoint and their union is the full ranking, for every page size', async () => {
    const query = 'the episode about water and time';
    const full = await searchEpisodes(store, { query, limit: 50, offset: 0 });
    expect(full.total).toBeGreaterThan(5);
    expect(full.results).toHaveLength(full.total);
    for (let limit = 1; limit <= 7; limit++) {
      const seen: number[] = [];
      for (let offset = 0; offset < full.total + limit; offset += limit) {
        const page = await searchEpisodes(store, { query, limit, offset });
        expect(page.total).toBe(full.total);
        expect(page.results.length).toBe(Math.max(0, Math.min(limit, full.total - offset)));
        seen.push(...page.results.map((r) => r.id));
      }
      expect(seen).toEqual(full.results.map((r) => r.id));
    }
    const scores = full.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('answers every hostile query without throwing, with valid results', async () => {
    const hostile = ['3:30', 'x~', 'x^', '-', '-x', '"', '*', '+', '~', '^', ':', 'title:bread', 'bread~2', 'bread^10', '+-*~^:"',
      'a'.repeat(5000), 'bread '.repeat(1000), '🍞🔥', 'sourdough 🍞', 'bread\u0000oven', '\u0000', '\\', '(', ')', '[]', '{}',
      '\ud800', 'ＳＯＵＲＤＯＵＧＨ', 'x'.repeat(24), 'abcdefghijklmnopqrstuvwxyz'.repeat(4), '<script>alert(1)</script>', "'; DROP TABLE episodes; --"];
    for (const query of hostile) {
      const s = await searchEpisodes(store, { query, limit: 10, offset: 0 });
      const a = await askEpisodes(store, { query, limit: 10 });
      for (const r of [...s.results, ...a.results]) expect(SearchResultSchema.safeParse(r).success, query).toBe(true);
    }
  });

  it('folds full-width letters and ligatures in the query', async () => {
    const r = await searchEpisodes(store, { query: 'ＳＯＵＲＤＯＵＧＨ', limit: 1, offset: 0 });
    expect(r.results[0]?.id).toBe(1);
  });

  it('does not return every episode for a bare -x', async () => {
    const all = (await searchEpisodes(store, { query: 'x', limit: 50, offset: 0 })).results.map((r) => r.id);
    const bare = (await searchEpisodes(store, { query: '-x', limit: 50, offset: 0 })).results.map((r) => r.id);
    expect(bare).toEqual(all);
    expect(bare.length).toBeLessThan(sampleContent().episodes.length);
  });
});

describe('/ask loads what a question needs at once', () => {
  it("reads the shards of a question's words together, not one after the other", async () => {
    const files = await contentFiles(sampleContent(), { shardBytes: 4096 });
    const top = JSON.parse(files['/search/lunr-index.json']!) as { layout: { shards: { segments: Array<{ first: string[] }> } }; invertedIndex: Array<[string, unknown]> };
    const inTop = new Set(top.invertedIndex.map(([t]) => t));
    let inFlight = 0;
    let most = 0;
    const store = new DataStore(async (path) => {
      const shard = path.startsWith('/search/shards/');
      if (shard) most = Math.max(most, ++inFlight);
      // Let the other requests of the same step start before this one answers (no timers: a few turns).
      for (let i = 0; i < 5; i++) await Promise.resolve();
      if (shard) inFlight--;
      return path in files ? new Response(files[path]) : new Response(null, { status: 404 });
    });
    const engine = await getEngine(store);
    // Two words of the transcripts only (not in the episodes' metadata, so each needs its shard), far apart.
    const words = top.layout.shards.segments[0]!.first.filter((t) => /^[a-z]{5,}$/.test(t) && !inTop.has(t) && engine.analyzer.stem(t) === t);
    expect(words.length).toBeGreaterThan(4);
    const question = `what did they say about ${words[0]} and ${words.at(-1)}`;
    expect(contentWords(question, engine.analyzer).clauses.map((c) => c.term)).toEqual([words[0], words.at(-1)]);
    await engine.ask(question);
    expect(most).toBeGreaterThanOrEqual(2);
  });
});

describe('a reader without /service.json (offline apps, the website\'s offline fallback)', () => {
  let files: Record<string, string>;
  let host: SearchEngine;
  let reads: string[];
  const read: DocumentReader = async (path, transform) => {
    reads.push(path);
    if (!(path in files)) throw new Error(`${path}: HTTP 404`);
    return transform(new Response(files[path]));
  };
  const noService = () => Promise.reject(new Error('/service.json was read'));
  beforeAll(async () => {
    files = await contentFiles(sampleContent());
    host = await getEngine(memoryStore(files));
    reads = [];
  });

  it("fetches the record of each result it shows, not every episode's, and answers as a host does", async () => {
    const offline = await engineFrom(files['/search/lunr-index.json']!, noService, read);
    expect(offline.service).toBeUndefined();
    const fetched = new Set<string>();
    for (const query of ['bread', 'volcano eruption', 'sleep cycles', 'opening', 'the']) {
      const [want, got] = await Promise.all([host.search(query, { top: 3 }), offline.search(query, { top: 3 })]);
      expect(got.hits.map((h) => h.id), query).toEqual(want.hits.map((h) => h.id));
      expect(got.total, query).toBe(want.total);
      reads = [];
      const shown = await Promise.all(got.hits.slice(0, 3).map((h) => offline.result(h)));
      expect(shown, query).toEqual(await Promise.all(want.hits.slice(0, 3).map((h) => host.result(h))));
      // Each record once: those of the results shown that an earlier query did not fetch.
      const records = reads.filter((p) => p.startsWith('/search/records/'));
      const expected = got.hits.slice(0, 3).map((h) => `/search/records/${h.id}.json`).filter((p) => !fetched.has(p));
      expect(records.sort(), query).toEqual(expected.sort());
      for (const p of records) fetched.add(p);
    }
    expect(fetched.size).toBeGreaterThan(3);
    expect(fetched.size).toBeLessThan(Object.keys(files).filter((p) => p.startsWith('/search/records/')).length);
  });

  it("anchors /ask's moment of an episode without a transcript on a chapter of its fetched record", async () => {
    const offline = await engineFrom(files['/search/lunr-index.json']!, noService, read);
    const question = 'what did the self taught AI teach the best players?';
    const [want, got] = await Promise.all([host.ask(question), offline.ask(question)]);
    expect(got.hits.map((h) => h.id)).toEqual(want.hits.map((h) => h.id));
    const hit = got.hits.find((h) => h.id === 13)!;
    const result = await offline.result(hit);
    expect(result).toEqual(await host.result(want.hits.find((h) => h.id === 13)!));
    expect(result.start).toBe(29 * 60 + 10);
  });

  it('reads /service.json instead when the index was published without records', async () => {
    const top = JSON.parse(files['/search/lunr-index.json']!);
    delete top.layout.records;
    let loaded = 0;
    const service = async () => (loaded++, JSON.parse(files['/service.json']!));
    const offline = await engineFrom(JSON.stringify(top), service, read);
    expect(loaded).toBe(1);
    reads = [];
    const { hits } = await offline.search('bread', { top: 3 });
    expect(await offline.result(hits[0]!)).toEqual(await host.result((await host.search('bread', { top: 3 })).hits[0]!));
    expect(reads.filter((p) => p.startsWith('/search/records/'))).toEqual([]);
  });
});

describe('offline search as /docs.md shows it', () => {
  it("finds a transcript word's episodes with Lunr's own query over its shard, given the vectors the docs add, and a hit's record", async () => {
    const files = await contentFiles(sampleContent(), { shardBytes: 4096 });
    const fetchJson = (path: string) => JSON.parse(files[path]!);
    // The docs' example (src/build/docs.ts, "Offline search with Lunr"), line for line (the Token's metadata, optional
    // in JavaScript, is given for TypeScript's sake).
    const top = fetchJson('/search/lunr-index.json');
    const term = lunr.stemmer(new lunr.Token('hydration', {})).toString();
    const fieldVectors = top.layout.passages.episodes.map((id: number) => [`text/${id}`, []]);
    const hits: lunr.Index.Result[] = [];
    let json: { fieldVectors: unknown[] } | undefined;
    for (const { first, path } of top.layout.shards.segments) {
      const n = first.findLastIndex((f: string) => f <= term);
      json = fetchJson(path.replace('{n}', n));
      const shard = lunr.Index.load({ ...json, fieldVectors });
      hits.push(...shard.query((q) => q.term(term, { usePipeline: false })));
    }
    const record = fetchJson(top.layout.records.path.replace('{id}', hits[0]!.ref));
    expect(top.layout.shards.segments[0].first.length).toBeGreaterThan(2);
    expect(record).toEqual(JSON.parse(files['/service.json']!).episodes.find((e: { id: number }) => String(e.id) === hits[0]!.ref));
    expect(record.title).toEqual(expect.any(String));
    // Published without vectors, which Lunr's query cannot do without once a term matches.
    expect(json!.fieldVectors).toEqual([]);
    expect(() => lunr.Index.load(json as object).query((q) => q.term(term, { usePipeline: false }))).toThrow(TypeError);
    // The sourdough episode says it; every hit's passages are in its posting's metadata, best first.
    expect(hits.map((h) => h.ref)).toContain('1');
    for (const hit of hits) {
      const p = (hit.matchData.metadata as Record<string, { text: { p: number[] } }>)[term]!.text.p;
      expect(p.length % 2).toBe(0);
      expect(p[1]!).toBeGreaterThanOrEqual(p.at(-1)!);
    }
  });
});

describe('a transcript index in segments (layout 5)', () => {
  // Twenty episodes whose passages are all as long, so that every segment's average passage length is the same and
  // the scores of an index in two segments are those of one: the show's idf, summed from every segment's df.
  const words = ['bread', 'oven', 'tide', 'moon', 'kelp', 'salt', 'yeast', 'flour'];
  const show = Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    title: `Episode ${i + 1}`,
    cues: [
      [0, `Today ${words[i % 8]} and ${words[(i * 3) % 8]} with ${words[(i + 5) % 8]}.`],
      [40, `Then ${words[(i * 5) % 8]} and ${words[(i + 1) % 8]} with ${words[(i * 7) % 8]}.`],
    ] as Array<[number, string]>,
  }));
  let one: SearchEngine;
  let two: SearchEngine;
  beforeAll(async () => {
    one = await syntheticEngine(show, 'en', { segments: (n) => [n] });
    two = await syntheticEngine(show, 'en', { segments: (n) => [16, n - 16] });
  });

  it('ranks and scores as one index would, a word read from every segment', async () => {
    expect(one.layout.shards.segments.length).toBe(1);
    expect(two.layout.shards.segments.length).toBe(2);
    for (const query of ['bread', 'kelp tide', 'yeast -salt', '+moon flour', 'flo*', 'breda']) {
      const [a, b] = [await one.search(query), await two.search(query)];
      expect(b.hits.map((h) => h.id), query).toEqual(a.hits.map((h) => h.id));
      b.hits.forEach((h, i) => expect(h.score, `${query} #${i}`).toBeCloseTo(a.hits[i]!.score, 3));
      expect(b.hits.length, query).toBeGreaterThan(0);
    }
    // Episode 17 on is in the second segment only: found there, with its moment.
    const kelp = await two.search('kelp');
    expect(kelp.hits.some((h) => h.id > 16)).toBe(true);
    const asked = [await one.ask('where do they talk about kelp and the tide?'), await two.ask('where do they talk about kelp and the tide?')];
    expect(asked[1]!.hits.map((h) => [h.id, h.passage])).toEqual(asked[0]!.hits.map((h) => [h.id, h.passage]));
  });
});

describe("a word the show does not have, looked up one edit away in the segments' vocabularies", () => {
  let files: Record<string, string>;
  let layout: SearchLayout;
  beforeAll(async () => {
    // Small shards, so that a word's neighbours could be in many of them.
    files = await contentFiles(sampleContent(), { shardBytes: 4096 });
    layout = (JSON.parse(files[TOP_INDEX_PATH]!) as { layout: SearchLayout }).layout;
  });

  /** An engine over the files, counting the shard files it reads; `vocabularies: false`: the layout without them. */
  async function counted(vocabularies: boolean) {
    const own = { ...files };
    if (!vocabularies) {
      const top = JSON.parse(own[TOP_INDEX_PATH]!) as { layout: SearchLayout };
      for (const segment of top.layout.shards.segments) delete segment.vocabulary;
      own[TOP_INDEX_PATH] = JSON.stringify(top);
    }
    const reads = { shards: 0, vocabularies: 0 };
    const engine = await getEngine(
      new DataStore(async (path) => {
        if (/^\/search\/shards\/.*-v[a-z0-9_]+\.json$/.test(path)) reads.vocabularies++;
        else if (path.startsWith('/search/shards/')) reads.shards++;
        return path in own ? new Response(own[path]) : new Response(null, { status: 404 });
      }),
    );
    return { engine, reads };
  }

  it("publishes each segment's terms by first character, every bucket, sorted: the shards' terms, no more", () => {
    expect(layout.shards.segments.length).toBeGreaterThan(0);
    for (const segment of layout.shards.segments) {
      expect(segment.vocabulary).toBe(segment.path.replace('{n}', 'v{bucket}'));
      const inShards = segment.first.flatMap((_, n) => (JSON.parse(files[segment.path.replace('{n}', String(n))]!) as { invertedIndex: Array<[string]> }).invertedIndex.map(([t]) => t));
      const inVocabulary: string[] = [];
      for (const bucket of VOCABULARY_BUCKETS) {
        const { terms } = VocabularySchema.parse(JSON.parse(files[segment.vocabulary!.replace('{bucket}', bucket)]!));
        expect(terms).toEqual([...terms].sort());
        for (const t of terms) expect(vocabularyBucket(t.charAt(0)), t).toBe(bucket);
        inVocabulary.push(...terms);
      }
      expect(inVocabulary.sort()).toEqual([...inShards].sort());
    }
  });

  it('finds the same episodes with the same scores as reading every shard that could hold a neighbour, from far fewer shards', async () => {
    const top = new Set((JSON.parse(files[TOP_INDEX_PATH]!) as { invertedIndex: Array<[string]> }).invertedIndex.map(([t]) => t));
    const spoken = new Set<string>();
    for (const segment of layout.shards.segments) {
      for (const bucket of VOCABULARY_BUCKETS) for (const t of VocabularySchema.parse(JSON.parse(files[segment.vocabulary!.replace('{bucket}', bucket)]!)).terms) spoken.add(t);
    }
    // Words of the transcripts only, misspelt each way one edit can: a letter dropped, two swapped, one doubled, and
    // at the start (the word then starts with its second letter: the first dropped, or swapped with the second).
    const words = [...spoken].filter((t) => /^[a-z]{6,}$/.test(t) && !top.has(t) && t[0] !== t[1]).filter((_, i) => i % 25 === 0);
    expect(words.length).toBeGreaterThan(8);
    const typos = words.flatMap((w) => [w.slice(0, 2) + w.slice(3), w[0] + w[2] + w[1] + w.slice(3), w.slice(0, 4) + w[3] + w.slice(4), w.slice(1), w[1] + w[0] + w.slice(2)]);
    let found = 0;
    const total = { vocabulary: 0, shards: 0, before: 0 };
    for (const typo of typos) {
      // Each from nothing loaded, as a cold reader (an offline app, a function) asks it.
      const [vocab, shards] = [await counted(true), await counted(false)];
      const [a, b] = [await vocab.engine.search(typo), await shards.engine.search(typo)];
      expect(a.hits.map((h) => h.id), typo).toEqual(b.hits.map((h) => h.id));
      a.hits.forEach((h, i) => expect(h.score, `${typo} #${i}`).toBe(b.hits[i]!.score));
      expect(a.fuzzy, typo).toBe(b.fuzzy);
      if (a.fuzzy && a.hits.length) found++;
      expect(shards.reads.vocabularies).toBe(0);
      total.vocabulary += vocab.reads.vocabularies;
      total.shards += vocab.reads.shards;
      total.before += shards.reads.shards;
    }
    console.log('one edit away, cold:', total);
    expect(found).toBeGreaterThan(typos.length / 2);
    expect(total.vocabulary).toBeGreaterThan(0);
    expect(total.shards * 3).toBeLessThan(total.before);
  });

  it('reads the shards that could hold a neighbour when a vocabulary file does not load', async () => {
    const without = Object.fromEntries(Object.entries(files).filter(([path]) => !/-vt\.json$/.test(path)));
    const engine = await getEngine(memoryStore(without));
    const word = [...new Set(layout.shards.segments.flatMap((s) => s.first))].find((t) => /^t[a-z]{5,}$/.test(t));
    expect(word).toBeDefined();
    const typo = word!.slice(0, 2) + word!.slice(3);
    const reference = await (await getEngine(memoryStore(files))).search(typo);
    const r = await engine.search(typo);
    expect(r.hits.map((h) => h.id)).toEqual(reference.hits.map((h) => h.id));
  });
});

describe('a misspelt word in a show beyond ASCII (Russian), through the vocabularies', () => {
  it("finds it as the shards' way does, from the files of its first two letters", async () => {
    const episodes = [
      { id: 1, title: 'Вулканы', cues: [[0, 'Извержение вулкана было сильным.'], [40, 'Лава текла к морю.']] },
      { id: 2, title: 'Пчёлы', cues: [[0, 'Пчёлы строят соты из воска.'], [40, 'Мёд созревает в сотах.']] },
    ].map((e) => ({ ...e, chapters: [], cues: e.cues.map(([start, text]) => ({ start: start as number, end: (start as number) + 30, text: text as string })) }));
    const artifacts = await buildSearchArtifacts({ show: { language: 'ru' } as LoadedContent['show'], episodes: episodes as unknown as LoadedContent['episodes'] });
    const files = searchFiles(artifacts);
    const service = JSON.stringify({
      version: '0', generated_at: new Date(0).toISOString(), urls: {},
      show: { title: 'Т', description: 'Т', author: 'Т', language: 'ru', siteUrl: 'https://podcast.example', artwork: 'https://podcast.example/a.png', topics: [], platforms: {}, tips: { network: 'base-sepolia' } },
      episodes: episodes.map((e) => ({ id: e.id, season: 1, title: e.title, url: `https://podcast.example/episodes/${e.id}/`, audio: `https://podcast.example/audio/${e.id}.mp3`, transcript: `https://podcast.example/transcripts/${e.id}.srt` })),
    });
    const read: string[] = [];
    const withVocabulary = await getEngine(new DataStore(async (path) => (read.push(path), path in files || path === '/service.json' ? new Response(path === '/service.json' ? service : files[path]) : new Response(null, { status: 404 }))));
    const top = JSON.parse(files[TOP_INDEX_PATH]!) as { layout: SearchLayout };
    for (const segment of top.layout.shards.segments) delete segment.vocabulary;
    const shardsWay = await getEngine(memoryStore({ ...files, [TOP_INDEX_PATH]: JSON.stringify(top), '/service.json': service }));
    // "извержение" (eruption) with its second and third letters swapped.
    const [a, b] = [await withVocabulary.search('ивзержение'), await shardsWay.search('ивзержение')];
    expect(a.fuzzy).toBe(true);
    expect(a.hits.map((h) => h.id)).toEqual([1]);
    expect(b.hits.map((h) => [h.id, h.score])).toEqual(a.hits.map((h) => [h.id, h.score]));
    const vocabularies = read.filter((p) => /-v[a-z0-9_]+\.json$/.test(p)).map((p) => /-v([a-z0-9_]+)\.json$/.exec(p)![1]);
    expect(new Set(vocabularies)).toEqual(new Set([vocabularyBucket('и'), vocabularyBucket('в')]));
    expect(vocabularies.every((b) => /^x[0-9a-f]$/.test(b!))).toBe(true);
  });
});
