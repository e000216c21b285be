import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
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
    // But the episode files' facts (file-facts.ts), kept or not as the files' age decides.
    const entries = readdirSync(cache).filter((name) => !name.startsWith('episode-facts-')).length;
    const second = loadContent(SAMPLE);
    expect(first).toEqual(plain);
    expect(second).toEqual(plain);
    // The transcripts' entries (counted) and one per episode file (not counted).
    expect(made).toBeGreaterThan(0);
    expect(entries - made).toBe(readdirSync(join(SAMPLE, 'episodes')).filter((n) => n.endsWith('.md')).length);
    expect(readdirSync(cache).filter((name) => !name.startsWith('episode-facts-'))).toHaveLength(entries);
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

describe("an episode file's fields as an earlier load found them (file-facts.ts)", () => {
  /** The sample, its episode files last written an hour ago, and a cache folder. */
  function aged() {
    const content = folder('episode-facts-content-');
    cpSync(SAMPLE, content, { recursive: true });
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of readdirSync(join(content, 'episodes'))) utimesSync(join(content, 'episodes', name), hourAgo, hourAgo);
    const cache = folder('episode-facts-cache-');
    configureParseCache(cache);
    return { content, cache, hourAgo };
  }

  /** Rewrites an episode file in place (same inode) to `text`, then gives it back its time. */
  function rewrite(file: string, text: string, time: Date): void {
    writeFileSync(file, text);
    utimesSync(file, time, time);
  }

  it('are taken for a file as it was, without reading it, and read again once it changed', () => {
    const { content, cache, hourAgo } = aged();
    const first = loadContent(content);
    expect(first.errors).toEqual([]);
    expect(readdirSync(cache).filter((n) => n.startsWith('episode-facts-'))).toHaveLength(1);
    expect(loadContent(content)).toEqual(first);

    // The same size, time and inode with other bytes: the facts answer (the file is not read).
    const file = join(content, 'episodes/003-beekeeping.md');
    const text = readFileSync(file, 'utf8');
    const sameSize = text.replace(/^(title: "?)(\w)/m, (_, head: string, c: string) => `${head}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}`);
    expect(sameSize.length).toBe(text.length);
    rewrite(file, sameSize, hourAgo);
    const beekeeping = (r: ReturnType<typeof loadContent>) => r.content!.episodes.find((e) => e.id === 3)!.title;
    expect(beekeeping(loadContent(content))).toBe(beekeeping(first));

    // Another size: read again.
    rewrite(file, text.replace(/^title: .*$/m, 'title: "Bees, again"'), hourAgo);
    expect(beekeeping(loadContent(content))).toBe('Bees, again');
  });

  it('are not kept for a file written just before it was read, nor for a file with problems', () => {
    const { content, hourAgo } = aged();
    const file = join(content, 'episodes/003-beekeeping.md');
    const text = readFileSync(file, 'utf8');
    // Written now: racy, not remembered, so a same-size rewrite of it is seen.
    const now = new Date();
    rewrite(file, text, now);
    loadContent(content);
    const sameSize = text.replace(/^(title: "?)(\w)/m, (_, head: string, c: string) => `${head}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}`);
    rewrite(file, sameSize, now);
    expect(loadContent(content).content!.episodes.find((e) => e.id === 3)!.title).toBe(/^title: "?(.*?)"?$/m.exec(sameSize)![1]);

    // A file with a problem is reported by every load.
    const broken = join(content, 'episodes/004-volcanoes.md');
    rewrite(broken, readFileSync(broken, 'utf8').replace(/^id: \d+$/m, 'id: not-a-number'), hourAgo);
    expect(loadContent(content).errors.join('\n')).toMatch(/004-volcanoes\.md: id/);
    expect(loadContent(content).errors.join('\n')).toMatch(/004-volcanoes\.md: id/);
    expect(statSync(broken).mtimeMs).toBe(hourAgo.getTime());
  });
});
