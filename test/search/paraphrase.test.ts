/**
 * /ask over questions in everyday words (test/search/paraphrase-queries.json): questions written from the sample
 * transcripts as listeners would ask them, each with its episode and the window (seconds) where the answer is
 * spoken, plus a group that reuses the speakers' words. Measured on the index the build published, through the
 * same engine the server uses: episode MRR, moment hit@1, hit@3 and moment MRR (paraphrase-metrics.ts).
 *
 * The "heldout" third of the everyday questions (every third one, split before any tuning) was never looked at
 * while the weights in src/build/search/semantic.ts and functions/search/ask-understanding.ts were chosen; the
 * "tune" part was. The suite prints both, and the same figures for /ask without understanding (the words as
 * typed: the same build without /search/semantic.json, i.e. no related terms, but the same filler removal and
passage re-ranking), so a regression and the gain of the related terms are both visible. Before issue 14 /ask
measured: tune hit@1 0.406, hit@3 0.453, moment MRR 0.430; held out 0.438, 0.438, 0.438; speakers' words 0.880.
 *
 * Thresholds sit below the measured values (see the commit log for the figures), to allow a content edit, not a
 * regression. Measured with `moments` (issue 14, third session): everyday all hit@1 0.542, hit@3 0.573, moment MRR
 * 0.559, moments offered hit@3 0.688; speakers' words hit@1 1.000; overall (everyday + speakers' words) moment MRR
 * 0.650, moments offered MRR 0.697.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { getEngine, type SearchEngine } from '../../functions/search/engine.ts';
import { contentFiles, distStore, memoryStore, sampleContent } from './helpers.ts';
import { fmtMoments, measureMoments, type MomentMeasurement, type ParaphraseQuery } from './paraphrase-metrics.ts';

const Schema = z.array(
  z.strictObject({
    question: z.string().min(1),
    episode: z.int().positive(),
    window: z.tuple([z.number().nonnegative(), z.number().nonnegative()]),
    group: z.enum(['everyday', 'speakers']),
    split: z.enum(['tune', 'heldout', 'fresh']),
  }),
);
const queries: ParaphraseQuery[] = Schema.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'paraphrase-queries.json'), 'utf8')));
const tune = queries.filter((q) => q.group === 'everyday' && q.split === 'tune');
const heldout = queries.filter((q) => q.group === 'everyday' && q.split === 'heldout');
const fresh = queries.filter((q) => q.group === 'everyday' && q.split === 'fresh');
const speakers = queries.filter((q) => q.group === 'speakers');

const THRESHOLDS = {
  everyday: { momentHit1: 0.52, momentHit3: 0.55, momentMrr: 0.54, episodeMrr: 0.93, offeredHit3: 0.66 },
  speakers: { momentHit1: 0.95 },
  overall: { momentMrr: 0.63, offeredMrr: 0.68 },
};

let engine: SearchEngine;
let plain: SearchEngine;
beforeAll(async () => {
  engine = await getEngine(distStore(inject('distDir')));
  // The same build without /search/semantic.json: /ask with the words as typed.
  const files = await contentFiles(sampleContent());
  delete files['/search/semantic.json'];
  plain = await getEngine(memoryStore(files));
});

describe('/ask over everyday-word questions (paraphrase set)', () => {
  it('has at least 60 everyday questions, 20 of them held out, each with a real episode and window', () => {
    expect(tune.length + heldout.length).toBeGreaterThanOrEqual(60);
    expect(heldout.length).toBeGreaterThanOrEqual(20);
    expect(speakers.length).toBeGreaterThanOrEqual(15);
    const episodes = new Map(engine.service.episodes.map((e) => [e.id, e]));
    for (const q of queries) {
      expect(episodes.has(q.episode), q.question).toBe(true);
      expect(q.window[0] < q.window[1], q.question).toBe(true);
    }
  });

  it('lands on the moment: thresholds on the whole everyday set and on the speakers-words group', async () => {
    const rows: Array<[string, MomentMeasurement, MomentMeasurement]> = [
      ['everyday, tune', await measureMoments(plain, tune), await measureMoments(engine, tune)],
      ['everyday, held out', await measureMoments(plain, heldout), await measureMoments(engine, heldout)],
      ['everyday, all', await measureMoments(plain, [...tune, ...heldout]), await measureMoments(engine, [...tune, ...heldout])],
      ['everyday, fresh', await measureMoments(plain, fresh), await measureMoments(engine, fresh)],
      ["speakers' words", await measureMoments(plain, speakers), await measureMoments(engine, speakers)],
      ['overall', await measureMoments(plain, [...tune, ...heldout, ...speakers]), await measureMoments(engine, [...tune, ...heldout, ...speakers])],
      ['overall with fresh', await measureMoments(plain, queries), await measureMoments(engine, queries)],
    ];
    console.log(
      [
        'paraphrase set (moment = start within the answer window, 15 s early allowed; "moments offered": over each',
        "result's moments in reading order, result 1's then result 2's ...; overall = everyday and speakers' words)",
        ...rows.flatMap(([name, before, after]) => [`  ${name.padEnd(20)} no related terms: ${fmtMoments(before)}`, `  ${''.padEnd(20)} understood:       ${fmtMoments(after)}`]),
      ].join('\n'),
    );
    const all = rows[2]![2];
    expect(all.momentHit1).toBeGreaterThanOrEqual(THRESHOLDS.everyday.momentHit1);
    expect(all.momentHit3).toBeGreaterThanOrEqual(THRESHOLDS.everyday.momentHit3);
    expect(all.momentMrr).toBeGreaterThanOrEqual(THRESHOLDS.everyday.momentMrr);
    expect(all.episodeMrr).toBeGreaterThanOrEqual(THRESHOLDS.everyday.episodeMrr);
    expect(all.offeredHit3).toBeGreaterThanOrEqual(THRESHOLDS.everyday.offeredHit3);
    expect(rows[4]![2].momentHit1).toBeGreaterThanOrEqual(THRESHOLDS.speakers.momentHit1);
    expect(rows[5]![2].momentMrr).toBeGreaterThanOrEqual(THRESHOLDS.overall.momentMrr);
    expect(rows[5]![2].offeredMrr).toBeGreaterThanOrEqual(THRESHOLDS.overall.offeredMrr);
    // Related terms do no worse than the words as typed on the held-out half, on the whole set and on the
    // speakers' words. (On the sharded index the tuning half is one question lower with them, 0.539 vs 0.555
    // moment MRR: an episode's candidates are the passages its postings list, 3 per word, not all of its passages.)
    for (const [name, before, after] of [rows[1]!, rows[2]!, rows[4]!]) expect(after.momentMrr, name).toBeGreaterThanOrEqual(before.momentMrr);
  });

  it('anchors an episode without a transcript on its best-matching chapter', async () => {
    const hit = (await engine.ask('what did the self taught AI teach the best players?')).hits.find((h) => h.id === 13);
    expect(hit).toBeDefined();
    const result = await engine.result(hit!);
    expect(result.start).toBe(29 * 60 + 10);
    expect(result.url).toContain('t=1750');
  });
});
