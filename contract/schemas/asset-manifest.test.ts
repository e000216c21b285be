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

describe('/_manifest.json, stored compactly (version 2)', () => {
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

  it('says what files share once, and leaves out trailing fields that are absent', () => {
    const s = stored();
    expect(s.types).toEqual(['text/html; charset=utf-8', 'audio/mpeg', 'application/json']);
    expect(s.csps).toEqual(["default-src 'self'"]);
    expect(s.files['/status.json']).toEqual([2, 2, 1764000003, 'd4', 20]);
    expect(s.files['/audio/1.mp3']).toEqual([1, 1, 1764000001, 'b2', 4096, -1, -1, -1, 1]);
    expect(s.files['/search/shards/0.json']).toEqual([2, 2, 1764000002, 'c3', 900, -1, 300, -1, 2]);
  });

  it('answers only the paths it lists, not the names of an object’s properties', () => {
    const manifest = trustedManifest(stored());
    for (const path of ['/missing.html', 'toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect(manifest.files.get(path)).toBeUndefined();
      expect(manifest.files.has(path)).toBe(false);
    }
  });

  it('refuses a wrong envelope, files that are not an object, a version 1 manifest and a malformed first entry', () => {
    expect(() => trustedManifest({ ...stored(), version: 1 })).toThrow();
    expect(() => trustedManifest({ ...meta, version: 1, files: { '/index.html': page } })).toThrow();
    expect(() => trustedManifest({ ...stored(), files: [] })).toThrow();
    expect(() => trustedManifest({ ...stored(), files: null })).toThrow();
    expect(() => trustedManifest({ ...stored(), types: 'text/html' })).toThrow();
    expect(() => trustedManifest({ ...stored(), files: { '/index.html': [9, 0, 1, 'a', 1] } })).toThrow();
    expect(() => trustedManifest({ ...stored(), files: { '/index.html': { type: 'text/html' } } })).toThrow();
  });

  it('throws a ManifestError for a malformed entry it had not checked at start', () => {
    const s = stored();
    const many = Object.fromEntries([...Array.from({ length: 10 }, (_, i) => [`/f${i}.json`, s.files['/status.json']!]), ['/bad.json', [0, 7, 1, 'x', 1]]]);
    const manifest = trustedManifest({ ...s, files: many });
    expect(manifest.files.get('/f9.json')).toEqual(small);
    expect(() => manifest.files.get('/bad.json')).toThrow(ManifestError);
  });

  it('refuses to pack ETags it could not give back (the variants’ must be the file’s with -br / -gz)', () => {
    expect(() => packManifest(meta, { '/a.html': { ...page, identity: { etag: 'W/"a1"', size: 1 } } })).toThrow(ManifestError);
    expect(() => packManifest(meta, { '/a.html': { ...page, br: { etag: '"zz-br"', size: 1 } } })).toThrow(ManifestError);
    expect(() => packManifest(meta, { '/a.html': { ...page, mtime: 1.5 } })).toThrow();
  });
});
