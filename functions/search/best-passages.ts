/**
 * The best `keep` of an episode's matched passages, [passage, score] pairs from a flat [passage, score, ...] list,
 * best first (ties: the earlier passage): the same first `keep` as sorting the whole list, without sorting it.
 */
export function bestPassages(flat: readonly number[], keep: number): Array<[number, number]> {
  const best: Array<[number, number]> = [];
  if (keep < 1) return best;
  const before = (s: number, p: number, than: [number, number]) => s > than[1] || (s === than[1] && p < than[0]);
  for (let j = 0; j < flat.length; j += 2) {
    const p = flat[j]!;
    const s = flat[j + 1]!;
    if (best.length >= keep) {
      if (!before(s, p, best[best.length - 1]!)) continue;
      best.pop();
    }
    let at = best.length;
    while (at > 0 && before(s, p, best[at - 1]!)) at--;
    best.splice(at, 0, [p, s]);
  }
  return best;
}
