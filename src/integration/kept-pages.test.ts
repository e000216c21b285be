import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheToken, forgetToken, keepableFiles, linkInBackground, recordPrerendered, removeUnmade, type KeptFile } from './kept-pages.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kept-pages-'));
  made.push(dir);
  return dir;
}

function write(path: string, body: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

/** An output folder and Astro's cache folder after a build that recorded `files`. */
function builtOutput(files: string[]): { out: string; cache: string } {
  const out = scratch();
  const cache = scratch();
  for (const file of files) write(join(out, 'client', file), `<p>${file}</p>`);
  recordPrerendered(out, cache, files);
  return { out, cache };
}

describe('which files a build may keep', () => {
  it('keeps the recorded files while the cache holds the same token', () => {
    const { out, cache } = builtOutput(['index.html', 'episodes/one/index.html', 'rss.xml']);
    expect(keepableFiles(out, cacheToken(cache))).toEqual(['episodes/one/index.html', 'index.html', 'rss.xml']);
  });

  it('keeps nothing once the cache has moved on: forgotten at the start of a build, or recorded by another output', () => {
    const { out, cache } = builtOutput(['index.html']);
    const token = cacheToken(cache);
    forgetToken(cache);
    expect(cacheToken(cache)).toBeUndefined();
    expect(keepableFiles(out, cacheToken(cache))).toEqual([]);
    // Another output built with the same cache since: the cache's token is that output's.
    const other = scratch();
    recordPrerendered(other, cache, ['index.html']);
    expect(keepableFiles(out, cacheToken(cache))).toEqual([]);
    expect(keepableFiles(out, token)).toEqual(['index.html']);
  });

  it('keeps nothing without a record, with one that does not parse, or without a token', () => {
    const { out, cache } = builtOutput(['index.html']);
    expect(keepableFiles(scratch(), cacheToken(cache))).toEqual([]);
    expect(keepableFiles(out, undefined)).toEqual([]);
    writeFileSync(join(out, 'prerendered.json'), '{"token": 7}');
    expect(keepableFiles(out, cacheToken(cache))).toEqual([]);
    writeFileSync(join(out, 'prerendered.json'), 'not json');
    expect(keepableFiles(out, cacheToken(cache))).toEqual([]);
  });

  it('never names a file outside client/, whatever the record says', () => {
    const { out, cache } = builtOutput(['index.html']);
    const token = cacheToken(cache);
    writeFileSync(join(out, 'prerendered.json'), JSON.stringify({ token, files: ['index.html', '../server/entry.mjs', '/etc/passwd', 'a/../../b'] }));
    expect(keepableFiles(out, token)).toEqual(['index.html']);
  });
});

describe('linkInBackground', () => {
  it('brings each file into the new folder (the same inode), making its folders, and says which it brought', async () => {
    const from = scratch();
    const to = scratch();
    write(join(from, 'episodes/one/index.html'), 'one');
    write(join(from, 'index.html'), 'home');
    // Astro wrote this one before the worker came to it: it stays Astro's; a file gone from the old output is skipped.
    write(join(to, 'index.html'), 'rendered anew');
    const source = statSync(join(from, 'episodes/one/index.html'));
    const linked = await linkInBackground(from, to, ['episodes/one/index.html', 'index.html', 'gone.html']);
    expect(linked).toEqual([{ file: 'episodes/one/index.html', ino: source.ino, mtimeMs: source.mtimeMs }]);
    expect(statSync(join(to, 'episodes/one/index.html')).ino).toBe(source.ino);
    expect(readFileSync(join(to, 'index.html'), 'utf8')).toBe('rendered anew');
    expect(existsSync(join(to, 'gone.html'))).toBe(false);
  });

  it("moves a folder over whole when it holds only kept files and their variants, and links the others' files", async () => {
    const from = scratch();
    const to = scratch();
    for (const file of ['episodes/one/index.html', 'episodes/one/index.html.br', 'episodes/one/index.html.gz', 'episodes/two/index.html', 'episodes/two/notes.txt']) {
      write(join(from, file), file);
    }
    // A variant whose file is gone, a folder within, and a folder Astro has already written into.
    write(join(from, 'episodes/three/index.html'), 'three');
    write(join(from, 'episodes/three/old.html.gz'), 'stale');
    write(join(from, 'episodes/four/index.html'), 'four');
    write(join(from, 'episodes/four/page/2/index.html'), 'four, page 2');
    write(join(from, 'episodes/five/index.html'), 'five');
    write(join(to, 'episodes/five/other.html'), 'rendered anew');
    const keep = ['episodes/one/index.html', 'episodes/two/index.html', 'episodes/three/index.html', 'episodes/three/old.html', 'episodes/four/index.html', 'episodes/five/index.html'];
    const inode = (path: string) => statSync(path).ino;
    const folderOne = inode(join(from, 'episodes/one'));
    const files = new Map(keep.map((file) => [file, existsSync(join(from, file)) ? inode(join(from, file)) : undefined]));

    const kept = await linkInBackground(from, to, keep);

    expect(kept.map((k) => k.file).sort()).toEqual(keep.filter((file) => file !== 'episodes/three/old.html').sort());
    for (const { file, ino } of kept) {
      expect(ino, file).toBe(files.get(file));
      expect(inode(join(to, file)), file).toBe(ino);
    }
    // Moved: the folder itself, with the variants.
    expect(inode(join(to, 'episodes/one'))).toBe(folderOne);
    expect(existsSync(join(from, 'episodes/one'))).toBe(false);
    expect(readFileSync(join(to, 'episodes/one/index.html.br'), 'utf8')).toBe('episodes/one/index.html.br');
    // Linked: the folders that hold something else stay in the old output, and nothing else comes with the kept files.
    for (const dir of ['two', 'three', 'four', 'five']) expect(existsSync(join(from, 'episodes', dir, 'index.html')), dir).toBe(true);
    expect(existsSync(join(to, 'episodes/two/notes.txt'))).toBe(false);
    expect(existsSync(join(to, 'episodes/three/old.html.gz'))).toBe(false);
    expect(existsSync(join(to, 'episodes/four/page'))).toBe(false);
    expect(readFileSync(join(to, 'episodes/five/other.html'), 'utf8')).toBe('rendered anew');
  });
});

/** Files written into `client`, as the worker reports the links it made. */
function keptIn(client: string, files: string[]): KeptFile[] {
  return files.map((file) => {
    write(join(client, file), 'x');
    const { ino, mtimeMs } = statSync(join(client, file));
    return { file, ino, mtimeMs };
  });
}

describe('removeUnmade', () => {
  it('removes the kept files the build did not make, and the folders that leaves empty', () => {
    const client = scratch();
    const kept = keptIn(client, ['index.html', 'episodes/gone/index.html', 'episodes/kept/index.html', 'topic/a/b/index.html']);
    write(join(client, 'episodes/gone/index.html.br'), 'x');
    write(join(client, 'episodes/gone/index.html.gz'), 'x');
    // As Astro gives it: with a trailing slash.
    const removed = removeUnmade(`${client}/`, kept, new Set(['index.html', 'episodes/kept/index.html']));
    expect(removed).toEqual(['episodes/gone/index.html', 'topic/a/b/index.html']);
    // With the variants a folder moved over whole brought.
    expect(existsSync(join(client, 'episodes/gone/index.html.br'))).toBe(false);
    expect(existsSync(join(client, 'episodes/gone'))).toBe(false);
    expect(existsSync(join(client, 'topic'))).toBe(false);
    expect(existsSync(join(client, 'episodes/kept/index.html'))).toBe(true);
    expect(existsSync(join(client, 'index.html'))).toBe(true);
  });

  it('leaves a kept file another step of the build wrote or replaced since it was linked', () => {
    const client = scratch();
    const kept = keptIn(client, ['written.json', 'replaced.json', 'stale.json']);
    // Written through the link (the same inode, a later modification time), and replaced by a new file.
    const written = join(client, 'written.json');
    const later = new Date(Date.now() + 5_000);
    writeFileSync(written, 'another step');
    utimesSync(written, later, later);
    // (The old file is kept under another name, so that the new one cannot be given its inode.)
    renameSync(join(client, 'replaced.json'), join(client, 'replaced.old'));
    write(join(client, 'replaced.json'), 'another step');
    expect(removeUnmade(client, kept, new Set())).toEqual(['stale.json']);
    expect(readFileSync(written, 'utf8')).toBe('another step');
    expect(readFileSync(join(client, 'replaced.json'), 'utf8')).toBe('another step');
  });
});
