import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isJsonData, loadContent } from './load.ts';
import { configureParseCache, parseCacheStats } from './parse-cache.ts';

const SAMPLE = join(import.meta.dirname, '../../content');
const dirs: string[] = [];
afterEach(() => {
  configureParseCache(undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

describe("an episode file's frontmatter and notes, kept in the content cache", () => {
  it('loads the same content from the cache as without it, one entry per episode file, not counted as per-episode work', () => {
    const plain = loadContent(SAMPLE);
    expect(plain.content?.episodes.length).toBeGreaterThan(1);
    const cache = folder('episode-source-');
    configureParseCache(cache);
    const before = parseCacheStats();
    const first = loadContent(SAMPLE);
    const made = parseCacheStats().misses - before.misses;
    const entries = readdirSync(cache).length;
    const second = loadContent(SAMPLE);
    expect(first).toEqual(plain);
    expect(second).toEqual(plain);
    // The transcripts' entries (counted) and one per episode file (not counted).
    expect(made).toBeGreaterThan(0);
    expect(entries - made).toBe(readdirSync(join(SAMPLE, 'episodes')).filter((n) => n.endsWith('.md')).length);
    expect(readdirSync(cache)).toHaveLength(entries);
  });

  it('reads anew what JSON would not give back the same, and reports the same problems either way', () => {
    const content = folder('episode-source-content-');
    cpSync(join(SAMPLE, 'podcast.yaml'), join(content, 'podcast.yaml'));
    const episodes = join(content, 'episodes');
    cpSync(join(SAMPLE, 'episodes'), episodes, { recursive: true, filter: (p) => !p.endsWith('.md') || p.endsWith('013-chess.md') });
    const chess = join(episodes, readdirSync(episodes).find((n) => n.endsWith('.md'))!);
    const episode = (season: string) => `---\nid: 13\nseason: ${season}\ntitle: A game\ndate: 2025-03-04\n---\nNotes with **bold** text.\n`;
    // A valid file, a number JSON would write as null, YAML that does not parse, a list where a mapping belongs.
    const cases = [episode('1'), episode('.nan'), '---\nid: [unclosed\n---\nBody\n', '---\n- a list\n---\nBody\n'];
    const kept: string[] = [];
    for (const source of cases) {
      writeFileSync(chess, source);
      configureParseCache(undefined);
      const plain = loadContent(content);
      const cache = folder('episode-source-cache-');
      configureParseCache(cache);
      expect(loadContent(content), source).toEqual(plain);
      expect(loadContent(content), source).toEqual(plain);
      kept.push(readdirSync(cache).map((name) => readFileSync(join(cache, name), 'utf8')).join(''));
    }
    expect(loadContent(content).errors.join('\n')).toMatch(/mapping/);
    writeFileSync(chess, cases[0]!);
    expect(loadContent(content).content?.episodes[0]?.html).toContain('<strong>bold</strong>');
    expect(kept[0]).toContain('<strong>bold</strong>');
    // NaN is not kept (JSON would give null back): the entry says to read the file anew.
    expect(kept[1]).toBe('{"live":true}');
    expect(kept[2]).toContain('"error"');
  });

  it('knows what JSON gives back unchanged', () => {
    for (const value of [null, 'text', true, 0, 1.5, [1, 'a', [null]], { a: { b: [false] } }]) expect(isJsonData(value), JSON.stringify(value)).toBe(true);
    const not: Array<[string, unknown]> = [
      ['undefined', undefined], ['NaN', Number.NaN], ['Infinity', Infinity], ['-0', -0], ['a Date', new Date(0)], ['a nested Date', { when: new Date(0) }],
      ['undefined in an array', [1, undefined]], ['a Map', new Map()], ['a null-prototype object', Object.create(null)], ['an own __proto__', JSON.parse('{"__proto__": 1}')], ['a bigint', 1n],
    ];
    for (const [label, value] of not) expect(isJsonData(value), label).toBe(false);
  });
});

describe("a transcript's digest", () => {
  it('names its text: the same from another folder, another once the text changes', () => {
    const digests = (dir: string) => new Map(loadContent(dir).content!.episodes.map((e) => [e.id, e.transcript?.digest]));
    const sample = digests(SAMPLE);
    expect([...sample.values()].filter(Boolean).length).toBeGreaterThan(1);
    const copy = folder('episode-digest-');
    cpSync(SAMPLE, copy, { recursive: true, filter: (p) => p !== join(SAMPLE, 'audio') });
    symlinkSync(join(SAMPLE, 'audio'), join(copy, 'audio'));
    expect(digests(copy)).toEqual(sample);
    const transcript = join(copy, 'transcripts', readdirSync(join(copy, 'transcripts')).find((n) => n.startsWith('001-'))!);
    writeFileSync(transcript, readFileSync(transcript, 'utf8').replace('starter', 'levain'));
    const edited = digests(copy);
    expect(edited.get(1)).not.toBe(sample.get(1));
    expect(new Map([...edited].filter(([id]) => id !== 1))).toEqual(new Map([...sample].filter(([id]) => id !== 1)));
  });
});
