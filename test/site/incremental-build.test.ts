/**
 * Adding an episode and rebuilding (astro.config.mjs's experimental.incrementalBuild, keys in src/build/page-key.ts):
 * the pages the new episode does not touch are kept in place, linked from the previous output
 * (src/integration/kept-pages.ts), instead of rendered again, those it does touch are rendered, the other episodes'
 * transcripts and passage files are kept in place, their folders taken whole from the previous output
 * (src/integration/kept-documents.ts), the new episode's made, and every
 * file is the same, byte for byte, as in a build of the same content from scratch. The rebuild goes into the previous
 * build's output folder, as an editor's does: the old output is moved aside and removed
 * (src/integration/replace-out-dir.ts), keeping only a .git.
 */
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildSite, copyOfBuild, published, removeBuild } from '../helpers/build.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const cleanup: Array<() => void> = [];
afterAll(() => {
  for (const undo of cleanup.reverse()) undo();
});

/** The HTML pages among published files (none of them is stamped). */
function pages(files: Map<string, Buffer>): Map<string, Buffer> {
  return new Map([...files].filter(([path]) => path.endsWith('.html')));
}

/** Each file under `dir`, recursively, by its inode: inode → path. */
function inodes(dir: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(statSync(join(entry.parentPath, entry.name)).ino, join(entry.parentPath, entry.name));
  }
  return out;
}

/**
 * Whether `ino` is still one of the files `files` listed: the same path, still that inode. The file system gives a
 * removed file's inode number to a later new file, and a build replaces and removes entries of the linked files'
 * cache as it goes (src/integration/linked-files.ts), so an inode number alone once counted the new episode's record
 * as kept (a fresh clone's CI, 2026-11-30).
 */
function stillOneOf(files: Map<number, string>, ino: number): boolean {
  const path = files.get(ino);
  return path !== undefined && existsSync(path) && statSync(path).ino === ino;
}

/**
 * The pages Astro found in place ("(cached)": kept from the previous output), those it copied from its cache
 * ("(restored)") and those it rendered ("(+12ms)"), from its log.
 */
function prerendered(log: string): { kept: string[]; restored: string[]; rendered: string[] } {
  // eslint-disable-next-line no-control-regex
  const lines = log.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const page = (line: string) => /[├└]─ (\S+\.html)/.exec(line)?.[1];
  return {
    kept: lines.filter((l) => l.includes('(cached)')).map(page).filter((p) => p !== undefined),
    restored: lines.filter((l) => l.includes('(restored)')).map(page).filter((p) => p !== undefined),
    rendered: lines.filter((l) => /\(\+[\d.]+m?s\)/.test(l)).map(page).filter((p) => p !== undefined),
  };
}

describe('a rebuild after adding an episode', () => {
  let log = '';
  let rebuilt = new Map<string, Buffer>();
  let scratch = new Map<string, Buffer>();
  let rebuiltFiles = new Map<string, Buffer>();
  let scratchFiles = new Map<string, Buffer>();
  let again = '';
  /** What the previous output folder held besides .git when the rebuild started (other tests add to the sample's). */
  let before: string[] = [];
  /** The files the previous build left in the cache to link (copied with the cache: inodes of their own). */
  let kept = new Map<number, string>();
  /** The inode of each page of the previous output, by path (the output is a copy: inodes of its own). */
  let previousPages = new Map<string, number>();
  /** Likewise of some of its bulk documents (an episode's transcripts, passage files, chapters and record). */
  const previousDocuments = new Map<string, number>();
  /**
   * A second name for the previous output's file of the edited transcript, taken before the rebuild: while it is
   * held, the file system cannot give that file's inode number to a new file (it did once, and the rebuilt file
   * seemed to be the old one: a fresh clone's CI, 2026-12-01), and it shows whether the old file's bytes were
   * written over in place.
   */
  let heldEdited = '';

  beforeAll(async () => {
    // The sample with a 14th episode: the 13th's page as a template (it has no transcript), the 12th's transcript.
    const content = mkdtempSync(join(tmpdir(), 'incremental-content-'));
    cleanup.push(() => rmSync(content, { recursive: true, force: true }));
    cpSync(join(ROOT, 'content'), content, { recursive: true });
    const template = readFileSync(join(content, 'episodes/013-chess.md'), 'utf8');
    writeFileSync(
      join(content, 'episodes/014-chess-again.md'),
      template
        .replace(/^id: 13$/m, 'id: 14')
        .replace(/^title: .*$/m, 'title: "Chess openings, once more"')
        .replace(/^date: .*$/m, 'date: 2025-12-02')
        .replaceAll('013-chess', '014-chess-again')
        .replace(/^audioFile: .*$/m, '$&\nsrtFile: 014-chess-again.srt'),
    );
    cpSync(join(content, 'audio/013-chess.mp3'), join(content, 'audio/014-chess-again.mp3'));
    cpSync(join(content, 'transcripts/012-typography.srt'), join(content, 'transcripts/014-chess-again.srt'));
    // An edit to a transcript the last build published: its files are made anew where the last ones were.
    const edited = join(content, 'transcripts/007-mushrooms.srt');
    writeFileSync(edited, readFileSync(edited, 'utf8').replace('one thing deeply.', 'one thing very deeply.'));

    // The previous build is the sample's (global setup); its cache is copied, so that build stays as it was.
    const cache = mkdtempSync(join(tmpdir(), 'incremental-cache-'));
    cleanup.push(() => rmSync(cache, { recursive: true, force: true }));
    cpSync(`${inject('distDir')}-cache`, cache, { recursive: true });
    kept = inodes(join(cache, 'linked-files'));
    // And so is its output, into the folder the rebuild writes to, with what a published folder may hold besides: a
    // page no build makes any more, a git work tree, and the folder a killed build left while removing its output.
    const previous = copyOfBuild(inject('distDir'), 'incremental');
    writeFileSync(join(previous, 'client/episodes/stale.html'), '<p>an episode since removed</p>');
    // A page the previous build made and this one does not (an episode since removed): kept with the others, then
    // removed again, with its folder.
    mkdirSync(join(previous, 'client/episodes/000-removed'));
    writeFileSync(join(previous, 'client/episodes/000-removed/index.html'), '<p>an episode since removed</p>');
    const record = JSON.parse(readFileSync(join(previous, 'prerendered.json'), 'utf8')) as { token: string; files: string[] };
    writeFileSync(join(previous, 'prerendered.json'), JSON.stringify({ ...record, files: [...record.files, 'episodes/000-removed/index.html'] }));
    previousPages.set('/episodes/001-sourdough/index.html', statSync(join(previous, 'client/episodes/001-sourdough/index.html')).ino);
    for (const path of ['/transcripts/001-sourdough.srt', '/transcripts/001-sourdough.json', '/search/passages/1-0.json', '/search/passage-terms/1-0.json', '/chapters/1.json', '/search/records/1.json']) {
      previousDocuments.set(path, statSync(join(previous, 'client', path)).ino);
    }
    heldEdited = `${previous}-held-007-mushrooms.srt`;
    rmSync(heldEdited, { force: true });
    linkSync(join(previous, 'client/transcripts/007-mushrooms.srt'), heldEdited);
    cleanup.push(() => rmSync(heldEdited, { force: true }));
    // A document of a folder the rebuild takes whole that no build makes: removed before the folder is published.
    writeFileSync(join(previous, 'client/search/passages/99-0.json'), '{}');
    mkdirSync(join(previous, '.git'));
    writeFileSync(join(previous, '.git/HEAD'), 'ref: refs/heads/gh-pages\n');
    mkdirSync(join(previous, '.replaced-1-2/client'), { recursive: true });
    writeFileSync(join(previous, '.replaced-1-2/client/index.html'), '<p>left by a killed build</p>');
    before = readdirSync(previous).filter((name) => name !== '.git').sort();
    const output: string[] = [];
    again = await buildSite({ name: 'incremental', env: { CONTENT_DIR: content, ASTRO_CACHE_DIR: cache }, output, inPlace: true });
    cleanup.push(() => removeBuild(again));
    log = output.join('');
    rebuiltFiles = published(again);
    rebuilt = pages(rebuiltFiles);

    const fresh = await buildSite({ name: 'incremental-scratch', env: { CONTENT_DIR: content } });
    cleanup.push(() => removeBuild(fresh));
    scratchFiles = published(fresh);
    scratch = pages(scratchFiles);
  }, 300_000);

  it('keeps the pages the new episode leaves alone in place and renders the ones it changes', () => {
    const { kept: inPlace, restored, rendered } = prerendered(log);
    // The other episodes' pages, and the lists of the guests and topics the new episode does not share: the previous
    // output's own files, linked back (its cache and output match, so none needs copying from the cache).
    for (const slug of ['001-sourdough', '006-jazz', '012-typography']) expect(inPlace).toContain(`/episodes/${slug}/index.html`);
    expect(inPlace).toContain('/episodes/topic/beekeeping/index.html');
    expect(inPlace).toContain('/episodes/season/1/index.html');
    expect(restored).toEqual([]);
    expect(statSync(join(again, 'client/episodes/001-sourdough/index.html')).ino).toBe(previousPages.get('/episodes/001-sourdough/index.html'));
    // A page rendered anew over its kept link holds the new page.
    expect(readFileSync(join(again, 'client/episodes/013-chess/index.html'), 'utf8')).toContain('Chess openings, once more');
    // The new page, its neighbour (whose "next" link now leads to it), and the lists it joins.
    for (const page of [
      '/episodes/014-chess-again/index.html',
      '/episodes/013-chess/index.html',
      '/episodes/index.html',
      '/episodes/season/2/index.html',
      '/episodes/topic/chess/index.html',
      '/episodes/guest/anya-petrova/index.html',
    ]) {
      expect(rendered).toContain(page);
    }
    expect(inPlace.filter((p) => rendered.includes(p))).toEqual([]);
  });

  it('removes a kept page the build no longer makes, with its folder, before any later step sees it', () => {
    expect(existsSync(join(again, 'client/episodes/000-removed'))).toBe(false);
    expect(log).toMatch(/kept \d+ prerendered files of the previous build in place, removed 1 no longer made/);
    expect(rebuiltFiles.has('/episodes/000-removed/index.html.gz')).toBe(false);
    const manifest = JSON.parse(readFileSync(join(again, 'client/_manifest.json'), 'utf8')) as unknown;
    expect(JSON.stringify(manifest)).not.toContain('000-removed');
  });

  it('publishes the same pages as a build from scratch', () => {
    expect([...rebuilt.keys()].sort()).toEqual([...scratch.keys()].sort());
    const differ = [...scratch].filter(([path, body]) => !rebuilt.get(path)?.equals(body)).map(([path]) => path);
    expect(differ).toEqual([]);
    expect(rebuilt.get('/episodes/013-chess/index.html')!.toString()).toContain('Chess openings, once more');
  });

  it('replaces the previous output in its folder, leaving only its .git', () => {
    expect(readdirSync(again).sort()).toEqual(['.git', 'build-source.json', 'client', 'kept-documents.json', 'prerendered.json', 'server']);
    expect(readFileSync(join(again, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/gh-pages\n');
    expect(existsSync(join(again, 'client/episodes/stale.html'))).toBe(false);
    // Every entry was moved aside (none removed in place), and the build ended once they were gone.
    expect(before).toEqual(expect.arrayContaining(['.replaced-1-2', 'client', 'server']));
    expect(log).toContain(`moved the previous output aside (${before.join(', ')})`);
    expect(log).not.toMatch(/removed in place/);
  });

  it("keeps the other episodes' transcripts, passage files, chapters and records of the previous output in place, and publishes every file as a build from scratch does", () => {
    const inode = (path: string) => statSync(join(again, 'client', path)).ino;
    // The previous output's own files (its folders taken whole), not links made again from the cache.
    for (const [path, ino] of previousDocuments) expect(inode(path), path).toBe(ino);
    expect(log).toMatch(/took \/transcripts, .*\/search\/passages.* of the previous output whole/);
    // The new episode's are made this time.
    for (const path of ['/transcripts/014-chess-again.srt', '/search/passages/14-0.json', '/search/records/14.json']) expect(stillOneOf(kept, inode(path)), path).toBe(false);
    expect(rebuiltFiles.has('/search/passages/99-0.json')).toBe(false);
    expect(inode('/transcripts/007-mushrooms.srt')).not.toBe(statSync(heldEdited).ino);
    expect(readFileSync(heldEdited, 'utf8')).toContain('one thing deeply.');
    expect(rebuiltFiles.get('/transcripts/007-mushrooms.srt')!.toString()).toContain('one thing very deeply.');

    expect([...rebuiltFiles.keys()].sort()).toEqual([...scratchFiles.keys()].sort());
    const differ = [...scratchFiles].filter(([path, body]) => !rebuiltFiles.get(path)?.equals(body)).map(([path]) => path);
    expect(differ).toEqual([]);
    expect(rebuiltFiles.has('/search/passages/14-0.json.gz')).toBe(true);
  });
});
