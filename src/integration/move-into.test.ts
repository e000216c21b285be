import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { moveInto } from './move-into.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'move-into-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function files(root: string, dir = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, files(root, path));
    else out[path] = readFileSync(join(root, path), 'utf8');
  }
  return out;
}

describe('moveInto', () => {
  it('gives the target what copying the tree over it would, and leaves the source empty', async () => {
    const staging = tree({
      'transcripts/1.srt': 'one',
      'transcripts/1.srt.gz': 'one gz',
      'search/shards/0.json': 'shard',
      'search/lunr-index.json': 'new index',
      'search/passages/1-0.json': 'chunk',
      'chapters/1.json': 'chapters',
    });
    const output = tree({ 'index.html': 'home', 'search/index.html': 'search page', 'search/lunr-index.json': 'old index' });
    const expected = { ...files(output), ...files(staging) };
    await moveInto(staging, output);
    expect(files(output)).toEqual(expected);
    expect(readdirSync(staging)).toEqual([]);
  });

  it('renames a folder the target lacks whole, not file by file', async () => {
    const staging = tree({ 'search/shards/0.json': 'a', 'search/shards/1.json': 'b' });
    const output = tree({ 'search/index.html': 'search page' });
    const inode = statSync(join(staging, 'search/shards')).ino;
    await moveInto(staging, output);
    // The same folder (its inode), now in the output; the folder both had is merged, not replaced.
    expect(statSync(join(output, 'search/shards')).ino).toBe(inode);
    expect(readFileSync(join(output, 'search/index.html'), 'utf8')).toBe('search page');
  });

  it('replaces a file where the staging folder has a folder, and the other way round', async () => {
    const staging = tree({ 'a/inner.json': 'folder wins', b: 'file wins' });
    const output = tree({ a: 'old file', 'b/old.json': 'old folder' });
    await moveInto(staging, output);
    expect(files(output)).toEqual({ 'a/inner.json': 'folder wins', b: 'file wins' });
  });

  it('makes the target when it is missing', async () => {
    const staging = tree({ 'x/y.json': '1' });
    const output = join(tree({}), 'new');
    await moveInto(staging, output);
    expect(existsSync(join(output, 'x/y.json'))).toBe(true);
  });
});
