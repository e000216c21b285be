/**
 * Work repeated over several items, taken in turns: every item's first round, then every item's second, and so
 * on. The bench's builds of each show size run so (run.ts buildAll), so that the sizes' figures, which are read as
 * a ratio, are measured over the same stretch of time on a machine whose speed drifts with the hour.
 */
export function* inTurns<T>(items: readonly T[], rounds: number): Generator<{ item: T; round: number }> {
  for (let round = 1; round <= rounds; round++) {
    for (const item of items) yield { item, round };
  }
}
