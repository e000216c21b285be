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
 * passage re-ranking), so a regression and the gain of the related terms are both visible. Before issue 14 /ask
 * measured: tune hit@1 0.406, hit@3 0.453, moment MRR 0.430; held out 0.438, 0.438, 0.438; speakers' words 0.880.
 *
 * The "fresh" split (53 questions over all 13 episodes, issue 14's fourth session) was written before any further
 * tuning and, like the held-out third, never looked at question by question; "unseen" is both together.
 *
 * Thresholds sit below the measured values (see the commit log for the figures), to allow a content edit, not a
 * regression. Measured with everyday-word weights (fourth session), understood: tune moment MRR 0.602 (hit@1
 * 0.578, hit@3 0.625); held out 0.505 (0.500, 0.500); fresh 0.591 (0.566, 0.623; offered hit@3 0.660); unseen 0.559;
 * speakers' words hit@1 1.000; overall (tune, held out, speakers' words) moment MRR 0.658, offered 0.706; overall
 * with fresh 0.638, offered 0.680. Before them (third session): tune 0.570, held out 0.536, fresh 0.553, overall
 * 0.650 / 0.697. Issue 14's targets (held-out hit@3 0.6, overall MRR 0.75) are not met: the misses are mostly the
 * right episode at the wrong passage, where the listener's words and the speaker's share nothing WordNet links.
 *
 * Error analysis of the tune split (fifth session; 27 misses at hit@1): 5 wrong episode (2 of them with the right
 * moment in the right episode, ranked 2nd), 3 the right passage with its start before the window, 2 the passage
 * next to the answer, 17 the right passage ranked below one holding more of the question's own words (11 of them
 * 2nd to 4th; in about 5 the right passage shares no word with the question and related terms weighing 0.05-0.16
 * are the only bridge). What was tried against these and not kept is in the commit log.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { getEngine, type SearchEngine } from '../../functions/search/engine.ts';
import { contentFiles, distStore, memoryStore, sampleContent } from './helpers.ts';
import { combineMoments, fmtMoments, measureMoments, type MomentMeasurement, type ParaphraseQuery } from './paraphrase-metrics.ts';

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
  everyday: { momentHit1: 0.53, momentHit3: 0.56, momentMrr: 0.55, episodeMrr: 0.93, offeredHit3: 0.69 },
  fresh: { momentHit1: 0.54, momentHit3: 0.6, momentMrr: 0.57, episodeMrr: 0.91, offeredHit3: 0.64 },
  speakers: { momentHit1: 0.95 },
  overall: { momentMrr: 0.64, offeredMrr: 0.69 },
  overallWithFresh: { momentMrr: 0.62, offeredMrr: 0.66 },
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
    // Each split is measured once per engine; the rows over several splits combine them.
    const split = async (set: ParaphraseQuery[]) => [await measureMoments(plain, set), await measureMoments(engine, set)] as const;
    const [t, h, f, s] = [await split(tune), await split(heldout), await split(fresh), await split(speakers)];
    const both = (...parts: Array<readonly [MomentMeasurement, MomentMeasurement]>): [MomentMeasurement, MomentMeasurement] => [
      combineMoments(parts.map((p) => p[0])),
      combineMoments(parts.map((p) => p[1])),
    ];
    const rows = new Map<string, [MomentMeasurement, MomentMeasurement]>([
      ['everyday, tune', both(t)],
      ['everyday, held out', both(h)],
      ['everyday, fresh', both(f)],
      ['everyday, unseen', both(h, f)],
      ['everyday, all', both(t, h)],
      ["speakers' words", both(s)],
      ['overall', both(t, h, s)],
      ['overall with fresh', both(t, h, f, s)],
    ]);
    console.log(
      [
        'paraphrase set (moment = start within the answer window, 15 s early allowed; "moments offered": over each',
        "result's moments in reading order, result 1's then result 2's ...; unseen = held out and fresh; overall =",
        "tune, held out and speakers' words)",
        ...[...rows].flatMap(([name, [before, after]]) => [`  ${name.padEnd(20)} no related terms: ${fmtMoments(before)}`, `  ${''.padEnd(20)} understood:       ${fmtMoments(after)}`]),
      ].join('\n'),
    );
    const understood = (name: string) => rows.get(name)![1];
    for (const [name, limits] of [['everyday, all', THRESHOLDS.everyday], ['everyday, fresh', THRESHOLDS.fresh]] as const) {
      const m = understood(name);
      expect(m.momentHit1, name).toBeGreaterThanOrEqual(limits.momentHit1);
      expect(m.momentHit3, name).toBeGreaterThanOrEqual(limits.momentHit3);
      expect(m.momentMrr, name).toBeGreaterThanOrEqual(limits.momentMrr);
      expect(m.episodeMrr, name).toBeGreaterThanOrEqual(limits.episodeMrr);
      expect(m.offeredHit3, name).toBeGreaterThanOrEqual(limits.offeredHit3);
    }
    expect(understood("speakers' words").momentHit1).toBeGreaterThanOrEqual(THRESHOLDS.speakers.momentHit1);
    expect(understood('overall').momentMrr).toBeGreaterThanOrEqual(THRESHOLDS.overall.momentMrr);
    expect(understood('overall').offeredMrr).toBeGreaterThanOrEqual(THRESHOLDS.overall.offeredMrr);
    expect(understood('overall with fresh').momentMrr).toBeGreaterThanOrEqual(THRESHOLDS.overallWithFresh.momentMrr);
    expect(understood('overall with fresh').offeredMrr).toBeGreaterThanOrEqual(THRESHOLDS.overallWithFresh.offeredMrr);
    // Understanding (related terms, everyday-word weights) does no worse than the words as typed on the questions
    // never tuned on (held out and fresh together: 85; the 32 held out alone move by one question), on the whole
    // tune + held-out set and on the speakers' words. (On the sharded index the tuning half is one question lower
    // with related terms: an episode's candidates are the passages its postings list, 3 per word, not all.)
    for (const name of ['everyday, unseen', 'everyday, all', "speakers' words"]) {
      const [before, after] = rows.get(name)!;
      expect(after.momentMrr, name).toBeGreaterThanOrEqual(before.momentMrr);
    }
  });

  it('anchors an episode without a transcript on its best-matching chapter', async () => {
    const hit = (await engine.ask('what did the self taught AI teach the best players?')).hits.find((h) => h.id === 13);
    expect(hit).toBeDefined();
    const result = await engine.result(hit!);
    expect(result.start).toBe(29 * 60 + 10);
    expect(result.url).toContain('t=1750');
  });
});
