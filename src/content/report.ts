/** How content problems are shown, the same from `npm run check` and `npm run build`: a count, then one per line. */
export function formatProblems(dir: string, errors: readonly string[]): string {
  return [`✗ ${dir}: ${errors.length} problem${errors.length === 1 ? '' : 's'}`, ...errors.map((e) => `  ${e}`)].join('\n');
}
