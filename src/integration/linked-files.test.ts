import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkedFiles } from './linked-files.ts';
import type { JobResult } from './precompress-job.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A cache folder, a precompress cache, and a staging folder per build. */
function folders() {
  const root = mkdtempSync(join(tmpdir(), 'linked-files-'));
  roots.push(root);
  return { cache: join(root, 'linked-files'), precompress: join(root, 'precompress'), staging: (n: number) => join(root, `staging-${n}`) };
}

const levels = () => ({ gz: 5 });
const chunkPaths = (chunks: number) => Array.from({ length: chunks }, (_, c) => `/search/passages/7-${c}.json`);

/** What the build does for files place() did not find: makes each in staging and hands its result to keep(). */
function make(linked: LinkedFiles, staging: string, paths: readonly string[]): void {
  for (const path of paths) {
    const file = join(staging, path.slice(1));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `made ${path}`);
    const result: JobResult = { file, size: statSync(file).size, sha1: 'x' };
    linked.keep(path, levels(), result);
  }
}

describe('LinkedFiles', () => {
  it("places a key's files by the paths for the number kept, when the caller knows them only once it has made the files", () => {
    const { cache, precompress, staging } = folders();
    const first = new LinkedFiles(cache, precompress);
    // Nothing kept yet: a caller asking by count learns nothing, and nothing waits for keep() under those paths.
    expect(first.place('k', chunkPaths, staging(1), levels, new Map())).toBe(false);
    make(first, staging(1), chunkPaths(2));
    expect(existsSync(join(cache, 'k.json'))).toBe(false);
    // Asked again with the paths of the files it makes, they are kept.
    expect(first.place('k', chunkPaths(2), staging(1), levels, new Map())).toBe(false);
    make(first, staging(1), chunkPaths(2));
    expect(existsSync(join(cache, 'k.json'))).toBe(true);

    const next = new LinkedFiles(cache, precompress);
    const done = new Map<string, JobResult>();
    const asked: number[] = [];
    expect(next.place('k', (count) => (asked.push(count), chunkPaths(count)), staging(2), levels, done)).toBe(true);
    expect(asked).toEqual([2]);
    for (const path of chunkPaths(2)) {
      const file = join(staging(2), path.slice(1));
      expect(readFileSync(file, 'utf8')).toBe(`made ${path}`);
      expect(statSync(file).ino).toBe(statSync(join(staging(1), path.slice(1))).ino);
      expect(done.get(path)).toMatchObject({ file, hit: true });
    }
    expect(next.used()).toEqual(['k']);
  });

  it('places nothing when the paths asked for are not the ones kept, and leaves nothing linked', () => {
    const { cache, precompress, staging } = folders();
    const first = new LinkedFiles(cache, precompress);
    expect(first.place('k', chunkPaths(2), staging(1), levels, new Map())).toBe(false);
    make(first, staging(1), chunkPaths(2));

    const next = new LinkedFiles(cache, precompress);
    const done = new Map<string, JobResult>();
    // Another episode's paths for the same count (a key shared by mistake), then a count that gives no paths.
    const other = (count: number) => chunkPaths(count).map((p) => p.replace('/7-', '/8-'));
    expect(next.place('k', other, staging(2), levels, done)).toBe(false);
    expect(next.place('k', () => [], staging(2), levels, done)).toBe(false);
    expect(done.size).toBe(0);
    expect(existsSync(join(staging(2), 'search/passages/8-0.json'))).toBe(false);
    expect(existsSync(join(staging(2), 'search/passages/7-0.json'))).toBe(false);
  });
});
