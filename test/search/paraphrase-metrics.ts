/**
 * Moment metrics for the paraphrase set (test/search/paraphrase-queries.json): every question has an episode and
 * the window [start, end] (seconds) in which the answer is spoken. A result "lands on the moment" when it is that
 * episode and its start (the SearchResult's `start`, i.e. its ?t=) lies in the window, allowing MOMENT_TOLERANCE
 * seconds before the window's start (a passage or chapter may begin a sentence or two before the answer).
 */
import type { SearchEngine } from '../../functions/search/engine.ts';

export const MOMENT_TOLERANCE = 15;

export interface ParaphraseQuery {
  question: string;
  episode: number;
  window: [number, number];
  group: 'everyday' | 'speakers';
  split: 'tune' | 'heldout' | 'fresh';
}

export interface MomentMeasurement {
  n: number;
  episodeMrr: number;
  momentHit1: number;
  momentHit3: number;
  momentMrr: number;
  /**
   * The same over the moments offered in reading order: result 1's `moments`, then result 2's, ... (a result
   * without `moments` offers its own start). hit@1 is the same as momentHit1.
   */
  offeredHit3: number;
  offeredMrr: number;
  misses: Array<{ question: string; want: string; got: string[] }>;
}

export function inWindow(q: ParaphraseQuery, id: number, start: number | undefined): boolean {
  return id === q.episode && start !== undefined && start >= q.window[0] - MOMENT_TOLERANCE && start <= q.window[1];
}

/** Runs each question through /ask's ranking (engine.ask + engine.result, as the handler does). */
export async function measureMoments(engine: SearchEngine, queries: ParaphraseQuery[], depth = 10): Promise<MomentMeasurement> {
  let epRr = 0;
  let hit1 = 0;
  let hit3 = 0;
  let mRr = 0;
  let oHit3 = 0;
  let oRr = 0;
  const misses: MomentMeasurement['misses'] = [];
  for (const q of queries) {
    const results = await Promise.all((await engine.ask(q.question)).hits.slice(0, depth).map((h) => engine.result(h)));
    const epAt = results.findIndex((r) => r.id === q.episode);
    if (epAt >= 0) epRr += 1 / (epAt + 1);
    const at = results.findIndex((r) => inWindow(q, r.id, r.start));
    if (at === 0) hit1++;
    if (at >= 0 && at < 3) hit3++;
    if (at >= 0) mRr += 1 / (at + 1);
    const offered = results.flatMap((r) => (r.moments?.length ? r.moments.map((m) => ({ id: r.id, start: m.start })) : [{ id: r.id, start: r.start }]));
    const oAt = offered.findIndex((m) => inWindow(q, m.id, m.start));
    if (oAt >= 0 && oAt < 3) oHit3++;
    if (oAt >= 0) oRr += 1 / (oAt + 1);
    if (at !== 0) {
      misses.push({
        question: q.question,
        want: `${q.episode}@${q.window.join('-')}`,
        got: results.slice(0, 3).map((r) => `${r.id}@${r.start ?? '-'}`),
      });
    }
  }
  const n = queries.length || 1;
  return { n: queries.length, episodeMrr: epRr / n, momentHit1: hit1 / n, momentHit3: hit3 / n, momentMrr: mRr / n, offeredHit3: oHit3 / n, offeredMrr: oRr / n, misses };
}

/** The measurement of several disjoint sets together (every figure is a mean over questions: weighted by n). */
export function combineMoments(parts: MomentMeasurement[]): MomentMeasurement {
  const n = parts.reduce((a, m) => a + m.n, 0);
  const mean = (key: 'episodeMrr' | 'momentHit1' | 'momentHit3' | 'momentMrr' | 'offeredHit3' | 'offeredMrr') =>
    parts.reduce((a, m) => a + m[key] * m.n, 0) / (n || 1);
  return {
    n,
    episodeMrr: mean('episodeMrr'),
    momentHit1: mean('momentHit1'),
    momentHit3: mean('momentHit3'),
    momentMrr: mean('momentMrr'),
    offeredHit3: mean('offeredHit3'),
    offeredMrr: mean('offeredMrr'),
    misses: parts.flatMap((m) => m.misses),
  };
}

export const fmtMoments = (m: MomentMeasurement) =>
  `episode MRR ${m.episodeMrr.toFixed(3)}  moment hit@1 ${m.momentHit1.toFixed(3)}  hit@3 ${m.momentHit3.toFixed(3)}  moment MRR ${m.momentMrr.toFixed(3)}  | moments offered: hit@3 ${m.offeredHit3.toFixed(3)}  MRR ${m.offeredMrr.toFixed(3)}  (n=${m.n})`;
