/** Bad input: one clear line on stderr, exit 1, and nothing written — neither a new folder nor a change to an existing one. */
import { createServer, type AddressInfo } from 'node:net';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFeed } from '../../src/import/import.ts';
import { FEEDS, FIXTURES, offlineFetch, ROOT, runImportCli, snapshot } from './helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'import-bad-'));
const existing = join(work, 'existing');
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeAll(async () => {
  await importFeed({ source: join(FEEDS, 'homegrown-hits.xml'), contentDir: existing, fetch: offlineFetch });
});

const cases: Array<[string, RegExp]> = [
  ['not-xml.xml', /^import: not-xml\.xml: is not XML \(it does not start with a tag\)$/],
  ['broken-xml.xml', /^import: broken-xml\.xml: is not well-formed XML: Expected closing tag 'item' .* \(line 8, column \d+\)$/],
  ['html-page.xml', /^import: html-page\.xml: is not well-formed XML: .*\(line 2, column \d+\)$/],
  ['not-rss.xml', /^import: not-rss\.xml: is XML but not an RSS feed \(its root element is <feed>, not <rss>\)$/],
  // The root element after a DOCTYPE whose entity holds a tag of its own.
  ['doctype-not-rss.xml', /^import: doctype-not-rss\.xml: is XML but not an RSS feed \(its root element is <feed>, not <rss>\)$/],
  // Nothing is read from file:///etc/passwd, and the parser's reason is the one given.
  ['external-entity.xml', /^import: external-entity\.xml: is an RSS feed that cannot be read: External entities are not supported$/],
  ['no-items.xml', /^import: no-items\.xml: the feed has no items \(no episodes to import\)$/],
  ['missing-enclosure.xml', /^import: missing-enclosure\.xml: an item has no enclosure \(no audio\): item 2 "A blog post, no audio"$/],
  ['duplicate-guids.xml', /^import: duplicate-guids\.xml: duplicate guids: item 3 "First" repeats the guid "ep-1" of item 1 "Third"$/],
];

describe.each(cases)('%s', (file, message) => {
  it('fails with one line and creates nothing', async () => {
    const target = join(work, `new-${file}`);
    const result = await runImportCli([join(FIXTURES, file), '--content', target]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr.trimEnd()).toMatch(message);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(work).filter((f) => f.includes('.import-'))).toEqual([]);
  });

  it('leaves an existing content folder exactly as it was', async () => {
    const before = snapshot(existing);
    await expect(importFeed({ source: join(FIXTURES, file), contentDir: existing, fetch: offlineFetch })).rejects.toThrow(/./);
    expect(snapshot(existing)).toEqual(before);
  });
});

describe('a content folder that no import wrote', () => {
  it('is not merged into (the bundled sample show): one line, nothing written', async () => {
    const sample = join(work, 'sample');
    cpSync(join(ROOT, 'content'), sample, { recursive: true });
    const before = snapshot(sample);
    const result = await runImportCli([join(FEEDS, 'homegrown-hits.xml'), '--content', sample]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `import: ${sample}: already holds a show that was not imported ("Deep Field", 13 episodes); import into another folder with --content DIR, or move it away first (--force imports into it anyway)`,
    );
    expect(snapshot(sample)).toEqual(before);
  });
});

describe('the command line', () => {
  it('rejects a missing feed, a bad --audio and no feed with one line each', async () => {
    const missing = await runImportCli([join(work, 'nope.xml'), '--content', join(work, 'x')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`import: ${join(work, 'nope.xml')}: no such file (give a feed file path or an http(s) URL)`);
    const audio = await runImportCli([join(FIXTURES, 'no-items.xml'), '--audio', 'stream']);
    expect(audio.code).toBe(1);
    expect(audio.stderr.trim()).toBe('import: --audio must be link or download, not "stream"');
    const none = await runImportCli([]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^import: give one feed/);
    expect(existsSync(join(work, 'x'))).toBe(false);
  });

  it('reports a feed URL that cannot be fetched as an error', async () => {
    const target = join(work, 'from-url');
    // A port that was free a moment ago: nothing listens there.
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    await new Promise((done) => server.close(done));
    const url = `http://127.0.0.1:${port}/feed.xml`;
    await expect(importFeed({ source: url, contentDir: target, timeoutMs: 5000 })).rejects.toThrow(
      `${url}: cannot fetch the feed: cannot connect (ECONNREFUSED)`,
    );
    expect(existsSync(target)).toBe(false);
  });
});
