/** `npm run check`: validates the content without building the site. Exit 1 with every problem listed. */
import { parseArgs } from 'node:util';
import { loadContent } from './load.ts';
import { formatNotes, formatProblems } from './report.ts';

const USAGE = `Usage: npm run check [-- DIR]

  DIR   the content folder to check (default: CONTENT_DIR, as the build reads it, else content): podcast.yaml,
        episodes/, transcripts/, audio/`;

function readArgs() {
  const { values, positionals } = parseArgs({ options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  if (positionals.length > 1) throw new Error(`give one content folder, not ${positionals.length}`);
  // The build's folder when none is given: the build's own message sends the editor here with CONTENT_DIR set.
  return { help: values.help ?? false, dir: positionals[0] ?? (process.env.CONTENT_DIR || 'content') };
}

let args: ReturnType<typeof readArgs>;
try {
  args = readArgs();
} catch (e) {
  // An option read as a folder ("--help/podcast.yaml: missing") told the editor nothing.
  console.error(`check: ${(e as Error).message}\n\n${USAGE}`);
  process.exit(1);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const dir = args.dir;
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
