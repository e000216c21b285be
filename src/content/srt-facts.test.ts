import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureParseCache } from './parse-cache.ts';

const dirs: string[] = [];
afterEach(() => {
  configureParseCache(undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'srt-facts-'));
  dirs.push(dir);
  return dir;
}

/** The module as a new build's thread loads it: nothing in memory but what the cache folder keeps. */
async function fresh() {
  vi.resetModules();
  const parseCache = await import('./parse-cache.ts');
  const facts = await import('./srt-facts.ts');
  return { ...facts, configureParseCache: parseCache.configureParseCache };
}

const facts = { digest: 'd1', count: 12, lastEnd: 61.5 };

describe('srt facts', () => {
  it("are kept in the cache folder by the file's size, time and inode, and known to the next build", async () => {
    const cache = folder();
    const file = join(folder(), 'a.srt');
    writeFileSync(file, '1\n00:00:01,000 --> 00:00:02,000\nHello.\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);

    const build1 = await fresh();
    build1.configureParseCache(cache);
    expect(build1.knownSrt(file)).toBeUndefined();
    build1.learntSrt(file, statSync(file), Date.now(), facts);
    build1.keepSrtFacts();

    const build2 = await fresh();
    build2.configureParseCache(cache);
    expect(build2.knownSrt(file)).toEqual(facts);
    // Another time (a write), or another cache folder: not known.
    utimesSync(file, old, new Date(old.getTime() + 1));
    expect(build2.knownSrt(file)).toBeUndefined();
    build2.configureParseCache(folder());
    utimesSync(file, old, old);
    expect(build2.knownSrt(file)).toBeUndefined();
    build2.configureParseCache(undefined);
  });

  it('are not kept for a file written within two seconds of its reading, nor for files no load has seen since', async () => {
    const cache = folder();
    const racy = join(folder(), 'racy.srt');
    const gone = join(folder(), 'gone.srt');
    writeFileSync(racy, 'x');
    writeFileSync(gone, 'y');
    const old = new Date(Date.now() - 60_000);
    utimesSync(gone, old, old);

    const build1 = await fresh();
    build1.configureParseCache(cache);
    build1.learntSrt(racy, statSync(racy), Date.now(), facts);
    build1.learntSrt(gone, statSync(gone), Date.now(), facts);
    build1.keepSrtFacts();

    const build2 = await fresh();
    build2.configureParseCache(cache);
    expect(build2.knownSrt(racy)).toBeUndefined();
    // Seen by the first load, not by this one: forgotten when this one keeps what it saw.
    build2.keepSrtFacts();
    const build3 = await fresh();
    build3.configureParseCache(cache);
    expect(build3.knownSrt(gone)).toBeUndefined();
    build3.configureParseCache(undefined);
  });
});
