import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CompressPool, CompressQueue, levelsFor, precompressDir, precompressedFacts, precompressedFiles, registerPrecompressed } from './precompress.ts';
import { writeAssetManifest } from './asset-manifest.ts';
import { inlineScriptHashes } from './inline-scripts.ts';
import { runJob, type JobResult } from './precompress-job.ts';

const dirs: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Text that compresses, different per seed. */
const text = (seed: number, words = 2000) =>
  Array.from({ length: words }, (_, i) => `word${(i * 7919 + seed * 104729) % 997}`).join(' ');

function site(): string {
  const root = temp('precompress-site');
  mkdirSync(join(root, 'search', 'shards'), { recursive: true });
  mkdirSync(join(root, 'transcripts'));
  mkdirSync(join(root, '.well-known'));
  writeFileSync(join(root, 'index.html'), `<html><script>go()</script>${text(1)}</html>`);
  writeFileSync(join(root, 'search', 'shards', '0.json'), JSON.stringify({ t: text(2) }));
  writeFileSync(join(root, 'transcripts', '1.vtt'), `WEBVTT\n\n${text(3)}`);
  writeFileSync(join(root, '.well-known', 'api-catalog'), JSON.stringify({ t: text(4) }));
  writeFileSync(join(root, 'small.txt'), 'tiny');
  writeFileSync(join(root, 'audio.mp3'), Buffer.alloc(4096, 7));
  return root;
}

describe('precompress', () => {
  it('writes .br and .gz that decompress to the same bytes, in worker threads, for text files worth it only', async () => {
    const root = site();
    const result = await precompressDir(root, { workers: 2 });
    expect(result).toMatchObject({ files: 4, reused: 0 });
    for (const file of ['index.html', 'search/shards/0.json', 'transcripts/1.vtt', '.well-known/api-catalog']) {
      const body = readFileSync(join(root, file));
      expect(gunzipSync(readFileSync(join(root, `${file}.gz`)))).toEqual(body);
    }
    for (const file of ['index.html', '.well-known/api-catalog']) {
      expect(brotliDecompressSync(readFileSync(join(root, `${file}.br`)))).toEqual(readFileSync(join(root, file)));
    }
    // The bulk families get a .gz only (levelsFor): their brotli was no smaller.
    expect(existsSync(join(root, 'search/shards/0.json.br'))).toBe(false);
    expect(existsSync(join(root, 'transcripts/1.vtt.br'))).toBe(false);
    expect(existsSync(join(root, 'small.txt.br'))).toBe(false);
    expect(existsSync(join(root, 'audio.mp3.gz'))).toBe(false);
  });

  it('reuses the cached variants of unchanged files and compresses only what changed', async () => {
    const cacheDir = join(temp('precompress-cache'), 'precompress');
    const first = site();
    await precompressDir(first, { cacheDir, workers: 1 });
    const entries = () => readdirSync(cacheDir).filter((n) => /\.(br|gz)$/.test(n));
    const cached = entries().sort();
    // .br and .gz of index.html and the api-catalog, .gz of the shard and the transcript.
    expect(cached).toHaveLength(6);

    // Another output folder (as the one-episode rebuild writes), one file changed.
    const second = site();
    writeFileSync(join(second, 'search', 'shards', '0.json'), JSON.stringify({ t: text(5) }));
    const result = await precompressDir(second, { cacheDir, workers: 0 });
    expect(result).toMatchObject({ files: 4, reused: 3 });
    for (const file of ['index.html', 'search/shards/0.json', 'transcripts/1.vtt']) {
      expect(gunzipSync(readFileSync(join(second, `${file}.gz`)))).toEqual(readFileSync(join(second, file)));
    }
    expect(brotliDecompressSync(readFileSync(join(second, 'index.html.br')))).toEqual(readFileSync(join(second, 'index.html')));
    // The entries of the old shard, which this build did not use, are gone; the new one's are there.
    const now = entries();
    expect(now).toHaveLength(6);
    expect(now.filter((n) => !cached.includes(n))).toHaveLength(1);
  });

  it("takes a file nothing has written since the last run from that run's record, and reads one written since", async () => {
    const cacheDir = join(temp('precompress-cache'), 'precompress');
    const root = site();
    await precompressDir(root, { cacheDir, workers: 0 });
    const sha1 = (path: string) => precompressedFacts(root)?.get(path)?.sha1;
    const real = { page: sha1('/index.html'), vtt: sha1('/transcripts/1.vtt') };
    // A record whose hashes are not the files' shows which files were taken from it rather than read.
    const recordFile = join(cacheDir, 'record.json');
    const record = JSON.parse(readFileSync(recordFile, 'utf8')) as { files: Record<string, { result: { sha1: string } }> };
    for (const path of ['/index.html', '/transcripts/1.vtt']) record.files[path]!.result.sha1 = 'recorded';
    writeFileSync(recordFile, JSON.stringify(record));

    // The page written again (same bytes, a new time), the transcript's .gz gone: both read, the rest recorded.
    const page = join(root, 'index.html');
    writeFileSync(page, readFileSync(page));
    rmSync(join(root, 'transcripts/1.vtt.gz'));
    const again = await precompressDir(root, { cacheDir, workers: 0 });
    expect(again).toMatchObject({ files: 4, reused: 4 });
    expect(sha1('/index.html')).toBe(real.page);
    expect(sha1('/transcripts/1.vtt')).toBe(real.vtt);
    expect(gunzipSync(readFileSync(join(root, 'transcripts/1.vtt.gz')))).toEqual(readFileSync(join(root, 'transcripts/1.vtt')));

    // Untouched since: taken from the record, hash, time and all, without reading the file.
    const latest = JSON.parse(readFileSync(recordFile, 'utf8')) as typeof record;
    latest.files['/search/shards/0.json']!.result.sha1 = 'recorded';
    writeFileSync(recordFile, JSON.stringify(latest));
    await precompressDir(root, { cacheDir, workers: 0 });
    expect(sha1('/search/shards/0.json')).toBe('recorded');
    expect(sha1('/index.html')).toBe(real.page);
    expect(precompressedFacts(root)?.get('/search/shards/0.json')?.mtimeMs).toBe(statSync(join(root, 'search/shards/0.json')).mtimeMs);
  });

  it('an idle pool does not keep the process alive (a build that fails before closing it still ends)', () => {
    const url = new URL('./precompress.ts', import.meta.url).href;
    const script = join(temp('precompress-idle'), 'idle.mjs');
    // A file, not --input-type=module -e: the pool's threads would inherit the flag.
    writeFileSync(script, `const { CompressPool } = await import(${JSON.stringify(url)});\nconst pool = new CompressPool(2);\nawait pool.run({ file: ${JSON.stringify(join(site(), 'index.html'))}, levels: { gz: 5 } });\nconsole.log('ran');\n`);
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).toBe('');
    expect([run.status, run.signal, run.stdout.trim()]).toEqual([0, null, 'ran']);
  });

  it('a cached "not smaller" result writes no variant', async () => {
    const cacheDir = temp('precompress-cache');
    const noise = randomBytes(4096);
    for (let run = 0; run < 2; run++) {
      const root = temp('precompress-incompressible');
      writeFileSync(join(root, 'noise.txt'), noise);
      const result = await precompressDir(root, { cacheDir, workers: 0 });
      expect(result.reused).toBe(run);
      expect(existsSync(join(root, 'noise.txt.gz'))).toBe(false);
    }
  });

  it('keeps a variant already beside a file when it is the cached one, and replaces or removes any other', async () => {
    const cacheDir = join(temp('precompress-cache'), 'precompress');
    const first = site();
    await precompressDir(first, { cacheDir, workers: 0 });
    // A folder moved over whole from the last output (kept-pages-worker.ts): the page's variants come with it.
    const second = temp('precompress-kept');
    for (const name of ['index.html', 'index.html.br', 'index.html.gz']) {
      mkdirSync(second, { recursive: true });
      linkSync(join(first, name), join(second, name));
    }
    // Left as it is: not even unlinked and linked again (which would change its inode's ctime).
    const before = statSync(join(second, 'index.html.gz'));
    await precompressDir(second, { cacheDir, workers: 0 });
    const after = statSync(join(second, 'index.html.gz'));
    expect([after.ino, after.ctimeMs]).toEqual([before.ino, before.ctimeMs]);
    // The page rendered anew into its moved folder: the old variants are replaced, the cache entries left as they were.
    const cachedGz = readdirSync(cacheDir).filter((n) => n.endsWith('.gz')).map((n) => [n, readFileSync(join(cacheDir, n))] as const);
    writeFileSync(join(second, 'index.html'), `<html>${text(9)}</html>`);
    await precompressDir(second, { cacheDir, workers: 0 });
    expect(gunzipSync(readFileSync(join(second, 'index.html.gz'))).toString()).toBe(`<html>${text(9)}</html>`);
    expect(brotliDecompressSync(readFileSync(join(second, 'index.html.br'))).toString()).toBe(`<html>${text(9)}</html>`);
    for (const [name, bytes] of cachedGz) if (existsSync(join(cacheDir, name))) expect(readFileSync(join(cacheDir, name))).toEqual(bytes);
    // A file that now takes no variant (too small) loses the ones it had.
    writeFileSync(join(second, 'index.html'), '<p>short</p>');
    await precompressDir(second, { cacheDir, workers: 0 });
    expect(existsSync(join(second, 'index.html.br'))).toBe(false);
    expect(existsSync(join(second, 'index.html.gz'))).toBe(false);
  });

  it('takes files compressed ahead (the bulk documents) as done, and compresses the rest', async () => {
    const root = site();
    const pool = new CompressPool(1);
    const shard = join(root, 'search', 'shards', '0.json');
    const ahead = await pool.run({ file: shard, levels: { br: 4, gz: 5 } }).finally(() => pool.close());
    registerPrecompressed(root, new Map([['/search/shards/0.json', ahead]]));
    const result = await precompressDir(root, { workers: 0 });
    expect(result.files).toBe(4);
    expect(precompressedFacts(root)?.get('/search/shards/0.json')).toMatchObject({ size: ahead.size, sha1: ahead.sha1, br: ahead.br });
    expect(brotliDecompressSync(readFileSync(`${shard}.br`))).toEqual(readFileSync(shard));
  });

  it('brings in the documents made ahead only after compressing the folder\'s own files', async () => {
    const root = site();
    const outside = temp('precompress-ahead');
    const made = join(outside, 'made.json');
    writeFileSync(made, JSON.stringify({ t: text(6) }));
    const pool = new CompressPool(1);
    const ahead = await pool.run({ file: made, levels: { gz: 5 } }).finally(() => pool.close());
    let listedBefore: boolean | undefined;
    registerPrecompressed(root, async () => {
      // The folder's own files are compressed by now; the document made ahead is not yet in it.
      listedBefore = existsSync(join(root, 'index.html.br'));
      mkdirSync(join(root, 'search', 'made'));
      for (const suffix of ['', '.gz']) writeFileSync(join(root, 'search', 'made', `0.json${suffix}`), readFileSync(`${made}${suffix}`));
      return new Map([['/search/made/0.json', { ...ahead, file: join(root, 'search', 'made', '0.json') }]]);
    });
    const result = await precompressDir(root, { workers: 0 });
    expect(listedBefore).toBe(true);
    expect(result.files).toBe(5);
    expect(precompressedFacts(root)?.get('/search/made/0.json')).toMatchObject({ size: ahead.size, sha1: ahead.sha1, gz: ahead.gz });
    expect(existsSync(join(root, 'search', 'made', '0.json.br'))).toBe(false);
    // The asset manifest takes the folder's files from precompress, the documents brought in with them, as a walk finds them.
    expect(precompressedFiles(root)?.has('/search/made/0.json.gz')).toBe(true);
    const listed = await writeAssetManifest(root, 'https://example.com');
    const walked = await writeAssetManifest(root, 'https://example.com', precompressedFacts(root), 'walk');
    expect(Object.fromEntries(listed.files.entries())).toEqual(Object.fromEntries(walked.files.entries()));
    expect(Object.keys(Object.fromEntries(listed.files.entries())).sort()).toEqual(['/.well-known/api-catalog', '/audio.mp3', '/index.html', '/search/made/0.json', '/search/shards/0.json', '/small.txt', '/transcripts/1.vtt']);
    expect(listed.files.get('/search/made/0.json')?.gzip?.size).toBe(ahead.gz);
  });

  it("writes a producer's own gzip as it is, not kept in the cache, and not for a family that takes brotli too", () => {
    const root = temp('made-gzip');
    const cacheDir = join(root, 'cache');
    const file = join(root, 'index.json');
    const body = Buffer.from(JSON.stringify({ t: text(30) }));
    writeFileSync(file, body);
    const made = gzipSync(body, { level: 1 });
    const result = runJob({ file, body, levels: { gz: 5 }, cacheDir, gz: made });
    expect(result).toMatchObject({ size: body.byteLength, gz: made.byteLength });
    expect(readFileSync(`${file}.gz`)).toEqual(made);
    expect(existsSync(cacheDir)).toBe(false);
    // Not smaller than the file: no .gz, as for a file compressed here.
    const small = join(root, 'small.json');
    const incompressible = randomBytes(2048);
    writeFileSync(small, incompressible);
    expect(runJob({ file: small, body: incompressible, levels: { gz: 5 }, gz: gzipSync(incompressible) }).gz).toBeUndefined();
    expect(existsSync(`${small}.gz`)).toBe(false);
    expect(() => runJob({ file, body, levels: { br: 5, gz: 5 }, gz: made })).toThrow(/brotli/);
  });

  it('compresses a producer\'s documents on its thread, each result handed back, the bodies waiting bounded', async () => {
    const root = temp('compress-queue');
    const queue = new CompressQueue({ maxQueued: 1 });
    const results: string[] = [];
    const resultsWhenQueued: number[] = [];
    try {
      for (let n = 0; n < 4; n++) {
        const file = join(root, `${n}.json`);
        const body = Buffer.from(JSON.stringify({ t: text(10 + n) }));
        writeFileSync(file, body);
        await queue.run({ file, body, levels: { gz: 5 } }, (r) => results.push(r.file));
        resultsWhenQueued.push(results.length);
      }
      await queue.drain();
    } finally {
      await queue.close();
    }
    expect(results).toEqual([0, 1, 2, 3].map((n) => join(root, `${n}.json`)));
    // At most one byte may wait: each job is queued only once the one before it is done.
    expect(resultsWhenQueued).toEqual([0, 1, 2, 3]);
    for (const file of results) expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(readFileSync(file));
  });

  it('compresses on as many threads as it is given, every result handed back', async () => {
    const root = temp('compress-queue-threads');
    const queue = new CompressQueue({ threads: 2 });
    const results = new Map<string, JobResult>();
    const files = Array.from({ length: 6 }, (_, n) => join(root, `${n}.json`));
    try {
      expect(queue.threads).toBe(2);
      for (const [n, file] of files.entries()) {
        const body = Buffer.from(JSON.stringify({ t: text(20 + 5 * n) }));
        await queue.run({ file, body, levels: { gz: 5 }, write: true }, (r) => results.set(r.file, r));
      }
      await queue.drain();
    } finally {
      await queue.close();
    }
    expect([...results.keys()].sort()).toEqual([...files].sort());
    for (const file of files) {
      expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(readFileSync(file));
      expect(results.get(file)?.size).toBe(readFileSync(file).byteLength);
    }
    // Never none: the producer does not compress on its own thread.
    const one = new CompressQueue({ threads: 0 });
    expect(one.threads).toBe(1);
    await one.close();
  });

  it('writes the file itself when the job says so (the producer hands its writes to the compression threads)', async () => {
    const root = temp('compress-queue-write');
    const queue = new CompressQueue();
    const file = join(root, 'shard.json');
    const body = Buffer.from(JSON.stringify({ t: text(25) }));
    let result: JobResult | undefined;
    try {
      await queue.run({ file, body, levels: { gz: 5 }, write: true }, (r) => (result = r));
      await queue.drain();
    } finally {
      await queue.close();
    }
    expect(readFileSync(file)).toEqual(body);
    expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(body);
    expect(result).toMatchObject({ file, size: body.byteLength, sha1: createHash('sha1').update(body).digest('base64url') });
    // Without it the job reads the file, which must then exist.
    expect(() => runJob({ file: join(root, 'absent.json'), levels: { gz: 5 } })).toThrow(/ENOENT/);
  });

  it('hands a failed compression to the producer', async () => {
    const root = temp('compress-queue-failure');
    const queue = new CompressQueue();
    const body = Buffer.from(JSON.stringify({ t: text(20) }));
    try {
      // Its variants would go into a folder that does not exist.
      await queue.run({ file: join(root, 'missing', 'a.json'), body, levels: { gz: 5 } }, () => {});
      await expect(queue.drain()).rejects.toThrow(/ENOENT/);
      await expect(queue.run({ file: join(root, 'b.json'), body, levels: { gz: 5 } }, () => {})).rejects.toThrow(/ENOENT/);
    } finally {
      await queue.close();
    }
  });

  it('chooses levels by family: the maximum for small documents, less for large or machine-read ones', () => {
    expect(levelsFor('/index.html', 20_000)).toEqual({ br: 11, gz: 9 });
    expect(levelsFor('/_astro/client.js', 200_000)).toEqual({ br: 8, gz: 9 });
    expect(levelsFor('/episodes/topic/chess/index.html', 7_000)).toEqual({ br: 8, gz: 9 });
    expect(levelsFor('/episodes/0001-episode/index.html', 84_000)).toEqual({ br: 5, gz: 4 });
    expect(levelsFor('/search/records/12.json', 1_400)).toEqual({ br: 8, gz: 9 });
    expect(levelsFor('/search/shards/3.json', 65_000)).toEqual({ gz: 5 });
    expect(levelsFor('/search/passages/3.json', 20_000)).toEqual({ gz: 5 });
    expect(levelsFor('/search/passage-terms/3-0.json', 9_000)).toEqual({ gz: 5 });
    expect(levelsFor('/transcripts/0001-episode.vtt', 90_000)).toEqual({ gz: 4 });
    expect(levelsFor('/transcripts/0001-episode.json', 900_000)).toEqual({ gz: 4 });
    expect(levelsFor('/search-index.json', 50 * 1024 * 1024)).toEqual({ gz: 5 });
    expect(levelsFor('/rss.xml', 3 * 1024 * 1024)).toEqual({ br: 5, gz: 6 });
  });

  it('hands the asset manifest the same ETags and sizes it would compute by reading the files', async () => {
    const root = site();
    await precompressDir(root, { workers: 0 });
    const fromFacts = await writeAssetManifest(root, 'https://example.com');
    expect(precompressedFacts(root)?.size).toBeGreaterThan(0);
    const fromFiles = await writeAssetManifest(root, 'https://example.com', undefined, 'walk');
    const files = (m: typeof fromFacts) => Object.fromEntries(m.files.entries());
    expect(files(fromFacts)).toEqual(files(fromFiles));
    expect(fromFacts.files.size).toBeGreaterThan(3);
    // The page's inline script came from the job that compressed it, the manifest did not read the page for it.
    const scripts = inlineScriptHashes(readFileSync(join(root, 'index.html')));
    expect(scripts).toHaveLength(1);
    expect(precompressedFacts(root)?.get('/index.html')?.scripts).toEqual(scripts);
    expect(fromFacts.files.get('/index.html')?.csp).toContain(`'${scripts[0]}'`);
  });
});
