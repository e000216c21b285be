/** How content problems are shown, the same from `npm run check` and `npm run build`: a count, then one per line. */
export function formatProblems(dir: string, errors: readonly string[]): string {
  return [`✗ ${dir}: ${errors.length} problem${errors.length === 1 ? '' : 's'}`, ...errors.map((e) => `  ${e}`)].join('\n');
}

/** What the content check notes without stopping the build (LoadResult.notes), the same from check and build. */
export function formatNotes(dir: string, notes: readonly string[]): string {
  return [`! ${dir}: ${notes.length} note${notes.length === 1 ? '' : 's'}`, ...notes.map((n) => `  ${n}`)].join('\n');
}
