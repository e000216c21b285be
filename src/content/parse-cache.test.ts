import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, utimesSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addParseCacheUsage, cachedParse, configureParseCache, ensureParsed, framed, parseCacheStats, parseCacheSummary, parseCacheUsage, pruneParseCache, unframed,
} from './parse-cache.ts';
import { CUES_CODEC } from './cues-codec.ts';
import { parseSrt } from './srt.ts';
import { loadSharedContent } from './site.ts';

const SRT = '1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:04,000\nSecond cue.\n';
const dirs: string[] = [];
afterEach(() => {
  configureParseCache(undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A new cache folder, configured as this thread's (removed after the test). */
function cacheFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parse-cache-'));
  dirs.push(dir);
  configureParseCache(dir);
  return dir;
}

describe('parse cache', () => {
  it('returns what the parser returned, parsing each distinct text once, and prunes what a build did not use', () => {
    const dir = cacheFolder();
    const before = parseCacheStats();
    expect(cachedParse(parseSrt, SRT)).toEqual(parseSrt(SRT));
    expect(cachedParse(parseSrt, SRT)).toEqual(parseSrt(SRT));
    const other = SRT.replace('Hello', 'Goodbye');
    expect(cachedParse(parseSrt, other).cues[0]!.text).toBe('Goodbye there.');
    const after = parseCacheStats();
    expect(after.misses - before.misses).toBe(2);
    expect(after.hits - before.hits).toBe(1);
    expect(readdirSync(dir)).toHaveLength(2);
    const [used] = readdirSync(dir);
    writeFileSync(join(dir, 'stale.json'), '{}');
    writeFileSync(join(dir, 'stale.bin'), '');
    // A build that stopped half-way leaves its entry under another name.
    writeFileSync(join(dir, `${used}.123.tmp`), '');
    pruneParseCache();
    expect(readdirSync(dir)).toHaveLength(2);
    expect(readdirSync(dir)).toContain(used);
  });

  it("keeps a parse in its codec's binary form apart from its JSON one, and ensureParsed reads neither back", () => {
    const dir = cacheFolder();
    let parses = 0;
    const counting = (text: string) => (parses++, parseSrt(text));
    expect(cachedParse(counting, SRT, CUES_CODEC)).toEqual(parseSrt(SRT));
    expect(readdirSync(dir).filter((f) => f.endsWith('.bin'))).toHaveLength(1);
    expect(cachedParse(counting, SRT, CUES_CODEC)).toEqual(parseSrt(SRT));
    ensureParsed(counting, SRT, CUES_CODEC);
    expect(parses).toBe(1);
    // The same parser without the codec is another entry (JSON), parsed once more.
    expect(cachedParse(counting, SRT)).toEqual(parseSrt(SRT));
    expect(parses).toBe(2);
    expect(readdirSync(dir).map((f) => f.split('.').pop()).sort()).toEqual(['bin', 'json']);
    // A kept entry the codec cannot read is parsed anew, not returned.
    const [bin] = readdirSync(dir).filter((f) => f.endsWith('.bin'));
    writeFileSync(join(dir, bin!), 'damaged');
    expect(cachedParse(counting, SRT, CUES_CODEC)).toEqual(parseSrt(SRT));
    expect(parses).toBe(3);
  });

  it("keys a parse by the text's sha1 when the caller has it, apart from the entry keyed by the text itself", () => {
    const dir = cacheFolder();
    let parses = 0;
    const counting = (text: string) => (parses++, parseSrt(text));
    const sha1 = (text: string) => createHash('sha1').update(text).digest('base64url');
    ensureParsed(counting, SRT, CUES_CODEC, sha1(SRT));
    expect(parses).toBe(1);
    expect(cachedParse(counting, SRT, CUES_CODEC, sha1(SRT))).toEqual(parseSrt(SRT));
    expect(parses).toBe(1);
    // Keyed by the text: another entry, not the one above.
    expect(cachedParse(counting, SRT, CUES_CODEC)).toEqual(parseSrt(SRT));
    expect(parses).toBe(2);
    // Another text's sha1 is another entry: the key follows the sha1 given.
    const other = SRT.replace('Hello', 'Goodbye');
    expect(cachedParse(counting, other, CUES_CODEC, sha1(other)).cues[0]!.text).toBe('Goodbye there.');
    expect(parses).toBe(3);
    expect(readdirSync(dir).filter((f) => f.endsWith('.bin'))).toHaveLength(3);
  });

  it('sums up a build by entry: each made or kept once, whichever threads read it', () => {
    const dir = cacheFolder();
    const before = parseCacheSummary();
    const first = SRT.replace('Hello', 'First');
    cachedParse(parseSrt, first);
    cachedParse(parseSrt, first);
    expect(parseCacheSummary()).toEqual({ made: before.made + 1, kept: before.kept });
    const [key] = parseCacheUsage().made.slice(-1);
    // Another thread read back the entry this one made, and one that an earlier build made.
    addParseCacheUsage({ used: [key!, 'f'.repeat(40)], made: [], read: [key!, 'f'.repeat(40)], hits: 2, misses: 0 });
    expect(parseCacheSummary()).toEqual({ made: before.made + 1, kept: before.kept + 1 });
    // A third made one that this thread then reads.
    const third = 'e'.repeat(40);
    addParseCacheUsage({ used: [third], made: [third], read: [], hits: 0, misses: 1 });
    addParseCacheUsage({ used: [third], made: [], read: [third], hits: 1, misses: 0 });
    expect(parseCacheSummary()).toEqual({ made: before.made + 2, kept: before.kept + 1 });
  });

  it('parses every time when no folder is configured', () => {
    const before = parseCacheStats();
    expect(cachedParse(parseSrt, SRT)).toEqual(parseSrt(SRT));
    expect(parseCacheStats()).toEqual(before);
  });
});

describe('framed', () => {
  it('gives back the head and the body, the body aligned as asked even when the bytes sit at an odd offset', () => {
    const bytes = framed({ n: 'é' }, [Uint8Array.of(1, 2), Uint8Array.of(3)], 4);
    expect(bytes.byteLength % 4).toBe(3);
    const shifted = new Uint8Array(bytes.byteLength + 1);
    shifted.set(bytes, 1);
    for (const stored of [bytes, shifted.subarray(1)]) {
      const { head, body } = unframed<{ n: string }>(stored, 4);
      expect(head).toEqual({ n: 'é' });
      expect([...body]).toEqual([1, 2, 3]);
      expect(body.byteOffset % 4).toBe(0);
    }
  });
});

describe('shared content', () => {
  it('is read once while the files are unchanged, and again after an edit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'shared-content-'));
    dirs.push(dir);
    cpSync(join(process.cwd(), 'content'), dir, { recursive: true });
    const first = loadSharedContent(dir);
    expect(first.content).not.toBeNull();
    expect(loadSharedContent(dir)).toBe(first);
    const md = join(dir, 'episodes', readdirSync(join(dir, 'episodes')).filter((f) => f.endsWith('.md'))[0]!);
    utimesSync(md, new Date(), new Date(Date.now() + 5000));
    expect(loadSharedContent(dir)).not.toBe(first);
  });
});
