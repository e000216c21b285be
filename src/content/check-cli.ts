/** `npm run check`: validates the content without building the site. Exit 1 with every problem listed. */
import { loadContent } from './load.ts';
import { formatNotes, formatProblems } from './report.ts';

const dir = process.argv[2] ?? 'content';
const started = performance.now();
const { content, errors, notes } = loadContent(dir);
if (!content) {
  console.error(formatProblems(dir, errors));
  process.exit(1);
}
const withSrt = content.episodes.filter((e) => e.hasSrt).length;
console.log(
  `✓ ${dir}: "${content.show.title}", ${content.episodes.length} episodes (${withSrt} with transcripts) ` +
    `checked in ${Math.round(performance.now() - started)} ms`,
);
if (notes.length) console.log(formatNotes(dir, notes));
