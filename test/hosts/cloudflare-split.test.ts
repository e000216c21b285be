/**
 * Files over the Workers static-asset limit (25 MiB): build:cloudflare uploads them as parts
 * (hosts/cloudflare/build.ts) and the Worker joins the parts (hosts/cloudflare/split-assets.ts, worker.ts). Here
 * with a small limit on a made-up build, and the Worker called with a fake assets binding serving the upload.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploadPlan, writeCloudflareConfig, WORKERS_ASSET_MAX_BYTES } from '../../hosts/cloudflare/build.ts';
import { assetLimitProblems } from '../../hosts/cloudflare/asset-plan.ts';
import { loadStaticStore } from '../../hosts/node/static-store.ts';
import { packManifest } from '../../contract/schemas/asset-manifest.ts';
import { PARTS_PATH, withSplitAssets, type PartsIndex } from '../../hosts/cloudflare/split-assets.ts';

// worker.ts's Durable Objects extend the runtime's class; workerd provides the module, Node does not.
vi.mock('cloudflare:workers', () => ({ DurableObject: class {} }));

// Over 1 MiB: the Worker keeps smaller documents in memory (functions/static-remote.ts); larger ones are streamed.
const LIMIT = 400 * 1024;
const BIG = Buffer.from(Array.from({ length: 1_153_434 }, (_, i) => (i * 7 + (i >> 8)) & 0xff));
const SMALLER = 600 * 1024;
const ETAG = '"big-1"';

function entry(size: number, type = 'application/json; charset=utf-8', fn = true) {
  return { type, cacheControl: 'public, max-age=300', mtime: 1_700_000_000, identity: { etag: `"e${size}"`, size }, ...(fn ? { fn } : {}) };
}

let dist: string;
let client: string;

function build(limit = LIMIT) {
  writeCloudflareConfig(dist, { maxAssetBytes: limit });
  return JSON.parse(readFileSync(join(client, PARTS_PATH.slice(1)), 'utf8')) as PartsIndex;
}

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'cf-split-'));
  client = join(dist, 'client');
  mkdirSync(join(client, 'transcripts'), { recursive: true });
  writeFileSync(join(client, 'search-index.json'), BIG);
  writeFileSync(join(client, 'episodes.json'), '[]');
  writeFileSync(join(client, 'transcripts', 'one two.txt'), BIG.subarray(0, SMALLER));
  const manifest = packManifest(
    { generated_at: new Date(0).toISOString(), siteUrl: 'https://podcast.example' },
    {
      '/search-index.json': { ...entry(BIG.length), identity: { etag: ETAG, size: BIG.length } },
      '/episodes.json': entry(2),
      '/transcripts/one two.txt': entry(SMALLER, 'text/plain; charset=utf-8'),
    },
  );
  writeFileSync(join(client, '_manifest.json'), JSON.stringify(manifest));
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('build:cloudflare on files over the limit', () => {
  it('keeps the real limit at 25 MiB and never raises it', () => {
    expect(WORKERS_ASSET_MAX_BYTES).toBe(25 * 1024 * 1024);
  });

  it('writes each as parts of at most the limit whose bytes joined are the file, and lists them', () => {
    const index = build();
    expect(Object.keys(index).sort()).toEqual(['/search-index.json', '/transcripts/one two.txt']);
    const big = index['/search-index.json']!;
    expect(big).toEqual({ parts: ['/search-index.json.part0', '/search-index.json.part1', '/search-index.json.part2'], size: BIG.length, partSize: LIMIT, type: 'application/json; charset=utf-8', etag: ETAG });
    const bytes = big.parts.map((p) => readFileSync(join(client, p.slice(1))));
    for (const part of bytes) expect(part.length).toBeLessThanOrEqual(LIMIT);
    expect(Buffer.concat(bytes).equals(BIG)).toBe(true);
    expect(index['/transcripts/one two.txt']!.parts).toHaveLength(2);
    expect(existsSync(join(client, 'episodes.json.part0'))).toBe(false);
  });

  it('adds nothing the Node (and Bun) host serves: it answers only the files of the manifest', () => {
    build();
    const store = loadStaticStore(client);
    expect(store.resolve('/search-index.json.part0')).toBeUndefined();
    expect(store.resolve(PARTS_PATH)).toBeUndefined();
    expect(store.resolve('/search-index.json')?.type).toBe('application/json; charset=utf-8');
  });

  it('leaves the originals out of the upload, keeping the other ignore rules', () => {
    build();
    const lines = readFileSync(join(client, '.assetsignore'), 'utf8').trim().split('\n');
    expect(lines).toEqual(['*.br', '*.gz', '_manifest.json.br', '/search-index.json', '/transcripts/one\\ two.txt']);
    // The parts themselves are uploaded: no rule matches them.
    expect(lines.some((l) => l.includes('part'))).toBe(false);
  });

  it('counts what wrangler would upload: the parts and the other files, not the originals, variants or control files', () => {
    build();
    writeFileSync(join(client, 'episodes.json.gz'), 'gz');
    writeFileSync(join(client, 'episodes.json.br'), 'br');
    try {
      const plan = uploadPlan(dist);
      expect(plan.uploaded.map((f) => f.path).sort()).toEqual([
        '_manifest.json',
        PARTS_PATH.slice(1),
        'episodes.json',
        'search-index.json.part0',
        'search-index.json.part1',
        'search-index.json.part2',
        'transcripts/one two.txt.part0',
        'transcripts/one two.txt.part1',
      ]);
      expect(plan.oversize).toEqual([]);
      expect(assetLimitProblems(plan)).toEqual([]);
    } finally {
      rmSync(join(client, 'episodes.json.gz'));
      rmSync(join(client, 'episodes.json.br'));
    }
  });

  it('gives the same output when run again, and removes parts a larger limit no longer needs', () => {
    const listing = () => readdirSync(client, { recursive: true }).map(String).sort();
    build();
    const first = listing();
    build();
    expect(listing()).toEqual(first);
    const index = build(2 * LIMIT);
    expect(index['/search-index.json']!.parts).toHaveLength(2);
    expect(statSync(join(client, 'search-index.json.part1')).size).toBe(BIG.length - 2 * LIMIT);
    expect(existsSync(join(client, 'search-index.json.part2'))).toBe(false);
    expect(index['/transcripts/one two.txt']).toBeUndefined();
    expect(existsSync(join(client, 'transcripts', 'one two.txt.part0'))).toBe(false);
    build(WORKERS_ASSET_MAX_BYTES);
    expect(listing().filter((f) => /\.part\d+$/.test(f))).toEqual([]);
    expect(readFileSync(join(client, PARTS_PATH.slice(1)), 'utf8').trim()).toBe('{}');
  });
});

/** The assets binding as Workers would have it after the upload: every file not ignored, by URL path. */
function uploadedAssets() {
  const ignored = new Set(Object.keys(JSON.parse(readFileSync(join(client, PARTS_PATH.slice(1)), 'utf8')) as PartsIndex));
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(client, { recursive: true }).map(String)) {
    const path = `/${name}`;
    if (!ignored.has(path) && statSync(join(client, name)).isFile()) files.set(path, readFileSync(join(client, name)));
  }
  const fetched: string[] = [];
  const fetch = async (request: Request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    fetched.push(path);
    const body = files.get(path);
    if (!body) return new Response(null, { status: 404 });
    // Small chunks, as a real body arrives.
    let at = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= body.length) return controller.close();
        controller.enqueue(new Uint8Array(body.subarray(at, (at += 64 * 1024))));
      },
    });
    return new Response(request.method === 'HEAD' ? null : stream, { status: 200 });
  };
  return { fetch, fetched, files };
}

describe('the Worker on a split file', () => {
  it('streams the parts in order, reading each only when the previous one is done', async () => {
    build();
    const assets = uploadedAssets();
    const index = JSON.parse(readFileSync(join(client, PARTS_PATH.slice(1)), 'utf8')) as PartsIndex;
    const joined = withSplitAssets(assets, index);
    const res = await joined.fetch(new Request('https://assets.invalid/search-index.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(BIG.length));
    expect(res.headers.get('etag')).toBe(ETAG);
    expect(assets.fetched).toEqual([]);
    const reader = res.body!.getReader();
    await reader.read();
    expect(assets.fetched).toEqual(['/search-index.json.part0']);
    const rest: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value);
    expect(assets.fetched).toEqual(['/search-index.json.part0', '/search-index.json.part1', '/search-index.json.part2']);
    const spaced = await joined.fetch(new Request('https://assets.invalid/transcripts/one%20two.txt'));
    expect(Buffer.from(await spaced.arrayBuffer()).equals(BIG.subarray(0, SMALLER))).toBe(true);
    expect((await joined.fetch(new Request('https://assets.invalid/episodes.json'))).status).toBe(200);
  });

  it('fails the body (not a short 200 that looks whole) when a part is missing', async () => {
    build();
    const assets = uploadedAssets();
    assets.files.delete('/search-index.json.part1');
    const index = JSON.parse(readFileSync(join(client, PARTS_PATH.slice(1)), 'utf8')) as PartsIndex;
    const res = await withSplitAssets(assets, index).fetch(new Request('https://assets.invalid/search-index.json'));
    await expect(res.arrayBuffer()).rejects.toThrow(/part1/);
  });

  it('answers a range from the parts it spans only, cut to its bytes; 416 outside the file; the whole file for a stale If-Range', async () => {
    build();
    const assets = uploadedAssets();
    const index = JSON.parse(readFileSync(join(client, PARTS_PATH.slice(1)), 'utf8')) as PartsIndex;
    const joined = withSplitAssets(assets, index);
    const ranged = (range: string, ifRange?: string) =>
      joined.fetch(new Request('https://assets.invalid/search-index.json', { headers: { Range: range, ...(ifRange ? { 'If-Range': ifRange } : {}) } }));
    const start = 2 * LIMIT + 1000;
    const res = await ranged(`bytes=${start}-${start + 99}`);
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${start + 99}/${BIG.length}`);
    expect(res.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await res.arrayBuffer()).equals(BIG.subarray(start, start + 100))).toBe(true);
    expect(assets.fetched).toEqual(['/search-index.json.part2']);
    const across = await ranged(`bytes=${LIMIT - 5}-${LIMIT + 4}`);
    expect(Buffer.from(await across.arrayBuffer()).equals(BIG.subarray(LIMIT - 5, LIMIT + 5))).toBe(true);
    expect(assets.fetched.slice(1)).toEqual(['/search-index.json.part0', '/search-index.json.part1']);
    const outside = await ranged(`bytes=${BIG.length}-`);
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${BIG.length}`);
    const stale = await ranged('bytes=0-9', '"another"');
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(BIG.length);
  });

  it('answers through the service like any static document: GET, HEAD, 304, a range 206', async () => {
    build();
    const assets = uploadedAssets();
    const failing = () => {
      throw new Error('no Durable Objects here');
    };
    const env = { ASSETS: assets, RATE_LIMIT: { idFromName: (n: string) => n, get: failing }, SINGLE_USE: { idFromName: (n: string) => n, get: failing }, LOG_LEVEL: 'silent', SITE_URL: 'https://podcast.example' };
    const worker = (await import('../../hosts/cloudflare/worker.ts')).default;
    const call = (init?: RequestInit) => worker.fetch(new Request('https://podcast.example/search-index.json', init), env as never);

    const res = await call();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toBe(ETAG);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(BIG)).toBe(true);

    const head = await call({ method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(BIG.length));
    expect(await head.text()).toBe('');

    const cached = await call({ headers: { 'If-None-Match': `W/${ETAG}` } });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(ETAG);

    const ranged = await call({ headers: { Range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 0-9/${BIG.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(BIG.subarray(0, 10))).toBe(true);
  });
});
