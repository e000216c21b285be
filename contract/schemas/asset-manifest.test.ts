import { describe, expect, it } from 'vitest';
import { MANIFEST_VERSION, ManifestError, packManifest, parseManifest, trustedManifest, type AssetEntry } from './asset-manifest.ts';

const page: AssetEntry = {
  type: 'text/html; charset=utf-8',
  cacheControl: 'public, max-age=0, must-revalidate',
  mtime: 1764000000,
  identity: { etag: '"a1"', size: 10_000 },
  br: { etag: '"a1-br"', size: 2_000 },
  gzip: { etag: '"a1-gz"', size: 2_500 },
  csp: "default-src 'self'",
};
const audio: AssetEntry = { type: 'audio/mpeg', cacheControl: 'public, max-age=86400', mtime: 1764000001, identity: { etag: '"b2"', size: 4096 }, seekable: true };
const shard: AssetEntry = { type: 'application/json', cacheControl: 'public, max-age=300', mtime: 1764000002, identity: { etag: '"c3"', size: 900 }, gzip: { etag: '"c3-gz"', size: 300 }, fn: true };
const small: AssetEntry = { type: 'application/json', cacheControl: 'public, max-age=300', mtime: 1764000003, identity: { etag: '"d4"', size: 20 } };
const meta = { generated_at: '2026-11-25T00:00:00.000Z', siteUrl: 'https://pod.example' };
const files = { '/index.html': page, '/audio/1.mp3': audio, '/search/shards/0.json': shard, '/status.json': small, '/episodes/1/index.html': { ...page, identity: { etag: '"e5"', size: 9 }, br: undefined, gzip: undefined } };
const stored = () => JSON.parse(JSON.stringify(packManifest(meta, files))) as ReturnType<typeof packManifest>;

describe('/_manifest.json, stored compactly (version 3)', () => {
  it('gives back every entry as it was packed, through JSON', () => {
    const manifest = trustedManifest(stored());
    expect(manifest.version).toBe(MANIFEST_VERSION);
    expect(manifest.siteUrl).toBe(meta.siteUrl);
    expect(manifest.files.size).toBe(5);
    expect(manifest.files.get('/index.html')).toEqual(page);
    expect(manifest.files.get('/audio/1.mp3')).toEqual(audio);
    expect(manifest.files.get('/search/shards/0.json')).toEqual(shard);
    expect(manifest.files.get('/status.json')).toEqual(small);
    expect(manifest.files.get('/episodes/1/index.html')).toEqual({ ...page, identity: { etag: '"e5"', size: 9 }, br: undefined, gzip: undefined });
    expect(Object.fromEntries(parseManifest(stored()).files.entries())).toEqual(JSON.parse(JSON.stringify(files)));
  });

  it('says what files share once, a line a file sorted by path, and leaves out trailing fields that are absent', () => {
    const s = stored();
    expect(s.types).toEqual(['audio/mpeg', 'text/html; charset=utf-8', 'application/json']);
    expect(s.csps).toEqual(["default-src 'self'"]);
    expect(s.files.split('\n')).toEqual([
      '/audio/1.mp3\t0\t0\t1764000001\tb2\t4096\t-1\t-1\t-1\t1',
      '/episodes/1/index.html\t1\t1\t1764000000\te5\t9\t-1\t-1\t0',
      '/index.html\t1\t1\t1764000000\ta1\t10000\t2000\t2500\t0',
      '/search/shards/0.json\t2\t2\t1764000002\tc3\t900\t-1\t300\t-1\t2',
      '/status.json\t2\t2\t1764000003\td4\t20',
    ]);
  });

  it('finds every path of a large manifest by binary search, and none that sorts between them', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`/e/${i}/index.html`, small]));
    const manifest = trustedManifest(JSON.parse(JSON.stringify(packManifest(meta, many))));
    expect(manifest.files.size).toBe(500);
    expect([...manifest.files.paths()]).toEqual(Object.keys(many).sort());
    for (const path of Object.keys(many)) expect(manifest.files.get(path), path).toEqual(small);
    for (const path of ['/e/1', '/e/1/', '/e/1/index.htm', '/e/1/index.html/', '/e/10/index.html ', '/', '', '/f']) expect(manifest.files.has(path), path).toBe(false);
    expect(trustedManifest(JSON.parse(JSON.stringify(packManifest(meta, {})))).files.size).toBe(0);
  });

  it('answers only the paths it lists, not the names of an object’s properties', () => {
    const manifest = trustedManifest(stored());
    for (const path of ['/missing.html', 'toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect(manifest.files.get(path)).toBeUndefined();
      expect(manifest.files.has(path)).toBe(false);
    }
  });

  it('refuses a wrong envelope, files that are not a string, an older manifest and a malformed first entry', () => {
    expect(() => trustedManifest({ ...stored(), version: 2 })).toThrow();
    expect(() => trustedManifest({ ...meta, version: 2, types: [], policies: [], csps: [], files: { '/index.html': [0, 0, 1, 'a', 1] } })).toThrow();
    expect(() => trustedManifest({ ...stored(), files: [] })).toThrow();
    expect(() => trustedManifest({ ...stored(), files: null })).toThrow();
    expect(() => trustedManifest({ ...stored(), types: 'text/html' })).toThrow();
    expect(() => trustedManifest({ ...stored(), files: '/index.html\t9\t0\t1\ta\t1' })).toThrow(ManifestError);
    expect(() => trustedManifest({ ...stored(), files: '/index.html\t0\t0\t1\ta' })).toThrow(ManifestError);
    expect(() => trustedManifest({ ...stored(), files: '/index.html\t0\t0\tsoon\ta\t1' })).toThrow(ManifestError);
  });

  it('throws a ManifestError for a malformed entry it had not checked at start; parseManifest checks all, and the order', () => {
    const s = stored();
    const line = s.files.split('\n').find((l) => l.startsWith('/status.json'))!.slice('/status.json'.length);
    const lines = [...Array.from({ length: 10 }, (_, i) => `/f${i}.json${line}`), '/g.json\t0\t7\t1\tx\t1'];
    const manifest = trustedManifest({ ...s, files: lines.join('\n') });
    expect(manifest.files.get('/f9.json')).toEqual(small);
    expect(() => manifest.files.get('/g.json')).toThrow(ManifestError);
    expect(() => parseManifest({ ...s, files: lines.join('\n') })).toThrow(ManifestError);
    expect(() => parseManifest({ ...s, files: lines.slice(0, 10).reverse().join('\n') })).toThrow(/sorted/);
    expect([...parseManifest({ ...s, files: lines.slice(0, 10).join('\n') }).files.entries()]).toHaveLength(10);
  });

  it('refuses to pack ETags it could not give back (the variants’ must be the file’s with -br / -gz)', () => {
    expect(() => packManifest(meta, { '/a.html': { ...page, identity: { etag: 'W/"a1"', size: 1 } } })).toThrow(ManifestError);
    expect(() => packManifest(meta, { '/a.html': { ...page, br: { etag: '"zz-br"', size: 1 } } })).toThrow(ManifestError);
    expect(() => packManifest(meta, { '/a.html': { ...page, mtime: 1.5 } })).toThrow();
    expect(() => packManifest(meta, { '/a\tb.html': page })).toThrow(ManifestError);
    expect(() => packManifest(meta, { '/a\nb.html': page })).toThrow(ManifestError);
  });
});
