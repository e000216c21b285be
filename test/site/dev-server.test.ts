/**
 * `npm run dev`, the editors' preview: Astro's dev server over a copy of the sample content. The pages read the
 * content through getContent(), outside Astro's content layer, so Astro alone would not see an edit: the content
 * check watches the folder (src/integration/content-check.ts). An edit, a new episode and a transcript change show
 * at the next request; a mistake is listed and its pages fail, and the server keeps running until it is fixed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../pipeline/util.ts';
import { vocabularyBucket } from '../../contract/schemas/search-passages.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'dev-server-'));
const content = join(work, 'content');
let dev: ChildProcess;
let base = '';
let log = '';

/** Resolves once the dev server's log has a line matching `pattern` past what it held when this was called. */
function logged(pattern: RegExp): Promise<string> {
  const from = log.length;
  return new Promise((done, fail) => {
    const look = () => {
      const match = pattern.exec(log.slice(from));
      if (!match) return false;
      for (const stream of [dev.stdout!, dev.stderr!]) stream.off('data', look);
      clearTimeout(timer);
      done(match[0]);
      return true;
    };
    const timer = setTimeout(() => fail(new Error(`no log line ${pattern} in:\n${log.slice(from)}`)), 30_000);
    // Astro logs errors to stderr, the rest to stdout.
    if (!look()) for (const stream of [dev.stdout!, dev.stderr!]) stream.on('data', look);
  });
}
const edit = (file: string, from: string, to: string) => {
  const path = join(content, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
};
/** The environment an editor's shell has: not Vitest's (NODE_ENV=test, VITEST*), which Astro's dev server reads. */
const editorsEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')));
const get = (path: string) => fetch(`${base}${path}`);
const text = async (path: string) => (await get(path)).text();

beforeAll(async () => {
  cpSync(join(ROOT, 'content'), content, { recursive: true });
  dev = spawn(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'dev', '--host', '127.0.0.1', '--port', String(await freePort())], {
    cwd: ROOT,
    env: { ...editorsEnv(), ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: content, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
  dev.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  const ready = logged(/http:\/\/127\.0\.0\.1:\d+\//);
  const exited = new Promise<never>((_, fail) => dev.once('exit', (code) => fail(new Error(`astro dev exited (${code}):\n${log}`))));
  base = (await Promise.race([ready, exited])).replace(/\/$/, '');
}, 60_000);

afterAll(async () => {
  if (dev.exitCode === null) {
    const exited = new Promise((done) => dev.once('exit', done));
    dev.kill('SIGTERM');
    await exited;
  }
  rmSync(work, { recursive: true, force: true });
});

describe('npm run dev serves the search documents at the paths the index names', () => {
  it("an episode's passage chunks and their analyses, by the layout's patterns", async () => {
    const top = JSON.parse(await text('/search/lunr-index.json')) as { layout: { passages: { path: string; terms: string; perChunk: number } } };
    const chunk = (pattern: string, id: number, c: number) => pattern.replace('{id}', String(id)).replace('{chunk}', String(c));
    for (const pattern of [top.layout.passages.path, top.layout.passages.terms]) {
      const first = await get(chunk(pattern, 12, 0));
      expect(first.status, pattern).toBe(200);
      expect(await first.json(), pattern).toBeTruthy();
    }
    // The chunk asked for, of the episode asked for.
    const second = JSON.parse(await text(chunk(top.layout.passages.path, 12, 1))) as { episode: number; from: number };
    expect(second).toMatchObject({ episode: 12, from: top.layout.passages.perChunk });
  });

  it("the transcript index's shards and vocabularies, by their segment's patterns", async () => {
    const top = JSON.parse(await text('/search/lunr-index.json')) as { layout: { shards: { segments: Array<{ path: string; first: string[]; vocabulary: string }> } } };
    const [segment] = top.layout.shards.segments;
    const last = segment!.first.length - 1;
    const shard = JSON.parse(await text(segment!.path.replace('{n}', String(last)))) as { invertedIndex: Array<[string, { df: number }]> };
    // The shard asked for: its terms start at its first term.
    expect(shard.invertedIndex[0]![0]).toBe(segment!.first[last]);
    expect(shard.invertedIndex[0]![1].df).toBeGreaterThan(0);
    expect((await get(segment!.path.replace('{n}', String(last + 1)))).status).toBe(404);
    // The segment's terms starting with that shard's first letter include its first term.
    const bucket = segment!.vocabulary.replace('{bucket}', vocabularyBucket(segment!.first[last]!.charAt(0)));
    expect((JSON.parse(await text(bucket)) as { terms: string[] }).terms).toContain(segment!.first[last]);
  });
});

describe('npm run dev shows each edit to the content at the next request', () => {
  it('an edited title: the episode page, the list and the feed', async () => {
    expect(await text('/episodes/013-chess/')).toContain('Chess openings after the engines');
    const reloaded = logged(/content changed: 13 episodes; pages reloaded/);
    edit('episodes/013-chess.md', 'title: "Chess openings after the engines"', 'title: "Chess openings, edited live"');
    await reloaded;
    expect(await text('/episodes/013-chess/')).toContain('Chess openings, edited live');
    expect(await text('/episodes.json')).toContain('Chess openings, edited live');
    expect(await text('/rss.xml')).toContain('Chess openings, edited live');
  });

  it('a new episode file: its page, and the list', async () => {
    expect((await get('/episodes/014-endgames/')).status).toBe(404);
    const reloaded = logged(/content changed: 14 episodes; pages reloaded/);
    copyFileSync(join(content, 'audio/013-chess.mp3'), join(content, 'audio/014-endgames.mp3'));
    const chess = readFileSync(join(content, 'episodes/013-chess.md'), 'utf8');
    writeFileSync(
      join(content, 'episodes/014-endgames.md'),
      chess
        .replace(/^id: 13$/m, 'id: 14')
        .replace(/^title: .*$/m, 'title: "Endgames for everyone"')
        .replace(/^date: .*$/m, 'date: 2025-12-02')
        .replace('audioFile: 013-chess.mp3', 'audioFile: 014-endgames.mp3'),
    );
    await reloaded;
    const page = await get('/episodes/014-endgames/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Endgames for everyone');
    expect((JSON.parse(await text('/episodes.json')) as Array<{ id: number }>).map((e) => e.id)).toContain(14);
  });

  it("an edited transcript: its files, its episode page and the contract's offline index", async () => {
    const reloaded = logged(/content changed: 14 episodes; pages reloaded/);
    edit('transcripts/001-sourdough.srt', 'Maya: Hello and welcome to Deep', 'Maya: Hello, live edit, and welcome to Deep');
    await reloaded;
    expect(await text('/transcripts/001-sourdough.vtt')).toContain('Hello, live edit, and welcome');
    expect(await text('/episodes/001-sourdough/')).toContain('Hello, live edit, and welcome');
    expect((JSON.parse(await text('/search-index.json')) as Record<string, string>)['1']).toContain('Hello, live edit, and welcome');
  });

  it('a mistake: listed with its file, its pages fail, and the server answers again once it is fixed', async () => {
    const listed = logged(/content changed, with mistakes:[\s\S]*014-endgames\.md: audioFile "013-chess\.mp3" is already used by [^\n]*013-chess\.md/);
    edit('episodes/014-endgames.md', 'audioFile: 014-endgames.mp3', 'audioFile: 013-chess.mp3');
    await listed;
    expect((await get('/episodes/014-endgames/')).status).toBe(500);
    expect((await get('/episodes.json')).status).toBe(500);
    const reloaded = logged(/content changed: 14 episodes; pages reloaded/);
    edit('episodes/014-endgames.md', 'audioFile: 013-chess.mp3', 'audioFile: 014-endgames.mp3');
    await reloaded;
    expect((await get('/episodes/014-endgames/')).status).toBe(200);
    expect(dev.exitCode).toBeNull();
  });
});
