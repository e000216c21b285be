/**
 * `npm run import -- FEED [--content DIR] [--audio link|download] [--force]`
 * Brings an existing show's RSS feed (a file or an http(s) URL) into content files. Exit 1 with one line on bad input.
 */
import { parseArgs } from 'node:util';
import { relative } from 'node:path';
import { importFeed, ImportError, type ImportReport } from './import.ts';

const USAGE = `Usage: npm run import -- FEED [--content DIR] [--audio link|download] [--force]

  FEED                   the show's RSS feed: a file path or an http(s) URL
  --content DIR          the content folder to write (default: content)
  --audio link|download  link each episode's audio by its URL (default), or download it into DIR/audio
  --force                overwrite what editors changed since the last import
`;

function fail(message: string): never {
  console.error(`import: ${message}`);
  process.exit(1);
}

let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      content: { type: 'string', default: 'content' },
      audio: { type: 'string', default: 'link' },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
try {
  args = parse();
} catch (e) {
  fail(`${(e as Error).message}\n\n${USAGE}`);
}
if (args.values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (args.positionals.length !== 1) fail(`give one feed (a file path or an http(s) URL)\n\n${USAGE}`);
if (args.values.audio !== 'link' && args.values.audio !== 'download') fail(`--audio must be link or download, not "${args.values.audio}"`);

let report: ImportReport;
try {
  report = await importFeed({
    source: args.positionals[0]!,
    contentDir: args.values.content,
    audio: args.values.audio,
    force: args.values.force,
  });
} catch (e) {
  if (e instanceof ImportError) fail(e.message);
  throw e;
}

const rel = relative(process.cwd(), report.contentDir);
const dir = !rel ? '.' : rel.startsWith('..') ? report.contentDir : rel;
const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
console.log(
  `✓ Imported "${report.title}" into ${dir}/: ${n(report.episodes, 'episode')} ` +
    `(${report.created.filter((f) => f.startsWith('episodes/')).length} new, ${report.updated.filter((f) => f.startsWith('episodes/')).length} updated, ${report.unchanged} unchanged), ` +
    `${n(report.transcripts, 'transcript')}, ${report.withChapters} with chapters`,
);
if (report.notes.length) {
  console.log(`\nNotes (${report.notes.length}):`);
  for (const note of report.notes) console.log(`  - ${note}`);
}
if (report.kept.length) {
  console.log(`\nKept what editors changed since the last import (--force overwrites) (${report.kept.length}):`);
  for (const k of report.kept) console.log(`  - ${k}`);
}
if (report.unfetched.length) {
  console.warn(`\nWarning: could not fetch ${n(report.unfetched.length, 'file')}; the rest was imported:`);
  for (const u of report.unfetched) console.warn(`  - ${u.item}: ${u.what} ${u.url}: ${u.reason}`);
}
console.log(`\nNext: npm run check -- ${dir}, then CONTENT_DIR=${dir} npm run build.`);
