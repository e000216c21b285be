/** Small, dependency-free statistics for latency samples (milliseconds). */

/** Nearest-rank percentile (p in 0–100) of unsorted samples; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN;
}

export interface LatencySummary {
  /** Median over runs of each run's p50 / p99 / mean, so one noisy run does not decide the figure. */
  p50: number;
  p99: number;
  mean: number;
  max: number;
  /** Queries per run and number of runs. */
  queries: number;
  runs: number;
  /** Spread of the per-run p99 (min–max), to show how noisy the figure is. */
  p99Range: [number, number];
}

export function summarizeRuns(runs: number[][]): LatencySummary {
  const p99s = runs.map((r) => percentile(r, 99));
  return {
    p50: median(runs.map((r) => percentile(r, 50))),
    p99: median(p99s),
    mean: median(runs.map(mean)),
    max: Math.max(...runs.map((r) => Math.max(...r))),
    queries: runs[0]?.length ?? 0,
    runs: runs.length,
    p99Range: [Math.min(...p99s), Math.max(...p99s)],
  };
}
