import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { moveAside, removeInBackground } from './replace-out-dir.ts';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A previous build's output folder: client/ and server/ with a file each, a file at the top, and a .git. */
function previousOutput(): string {
  const dir = mkdtempSync(join(tmpdir(), 'replace-out-dir-'));
  made.push(dir);
  mkdirSync(join(dir, 'client/episodes'), { recursive: true });
  writeFileSync(join(dir, 'client/episodes/index.html'), '<h1>Episodes</h1>');
  mkdirSync(join(dir, 'server'));
  writeFileSync(join(dir, 'server/entry.mjs'), 'export {};');
  writeFileSync(join(dir, 'notes.txt'), 'left by hand');
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git/HEAD'), 'ref: refs/heads/main\n');
  return dir;
}

describe('moveAside', () => {
  it('moves every entry but .git into one new folder inside the output folder, contents intact', () => {
    const dir = previousOutput();
    const { folder, removedInPlace } = moveAside(dir, 'test');
    expect(folder).toBe(join(dir, '.replaced-test'));
    expect(removedInPlace).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['.git', '.replaced-test']);
    expect(readdirSync(folder!).sort()).toEqual(['client', 'notes.txt', 'server']);
    expect(readFileSync(join(folder!, 'client/episodes/index.html'), 'utf8')).toBe('<h1>Episodes</h1>');
    expect(readFileSync(join(dir, '.git/HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
  });

  it('moves nothing where there is nothing to move', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replace-out-dir-'));
    made.push(dir);
    expect(moveAside(join(dir, 'never-built'))).toEqual({ removedInPlace: [] });
    expect(moveAside(dir)).toEqual({ removedInPlace: [] });
    mkdirSync(join(dir, '.git'));
    expect(moveAside(dir)).toEqual({ removedInPlace: [] });
    expect(readdirSync(dir)).toEqual(['.git']);
  });

  it('removes the entries in place, as Astro would, when it cannot make the folder to move them into', () => {
    const dir = previousOutput();
    // A file where the folder would go: mkdir fails, and that file is an entry like any other.
    writeFileSync(join(dir, '.replaced-test'), 'in the way');
    const { folder, removedInPlace } = moveAside(dir, 'test');
    expect(folder).toBeUndefined();
    expect(removedInPlace.sort()).toEqual(['.replaced-test', 'client', 'notes.txt', 'server']);
    expect(readdirSync(dir)).toEqual(['.git']);
  });
});

describe('removeInBackground', () => {
  it('removes the folder and everything in it, and settles once it is gone', async () => {
    const dir = previousOutput();
    const { folder } = moveAside(dir, 'bg');
    for (let i = 0; i < 200; i++) writeFileSync(join(folder!, 'client', `page-${i}.html`), `<p>${i}</p>`);
    const { child, done } = removeInBackground(folder!);
    expect(child.pid).toBeGreaterThan(0);
    await done;
    expect(existsSync(folder!)).toBe(false);
    expect(readdirSync(dir)).toEqual(['.git']);
  });

  it('settles for a folder already gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replace-out-dir-'));
    made.push(dir);
    await removeInBackground(join(dir, 'gone')).done;
    expect(readdirSync(dir)).toEqual([]);
  });
});
