import { describe, expect, it } from 'vitest';
import { trustedManifest } from './asset-manifest.ts';

const entry = { type: 'text/html; charset=utf-8', cacheControl: 'public, max-age=0, must-revalidate', mtime: 1764000000, identity: { etag: '"a"', size: 10 } };
const manifest = { version: 1, generated_at: '2026-11-25T00:00:00.000Z', siteUrl: 'https://pod.example', files: { '/index.html': entry } };

describe('trustedManifest (what a host checks of /_manifest.json at start)', () => {
  it('takes a manifest as the build writes it', () => {
    expect(trustedManifest(manifest).files['/index.html']).toEqual(entry);
  });

  it('refuses a wrong envelope, files that are not an object, and a malformed first entry', () => {
    expect(() => trustedManifest({ ...manifest, version: 2 })).toThrow();
    expect(() => trustedManifest({ ...manifest, files: [entry] })).toThrow();
    expect(() => trustedManifest({ ...manifest, files: null })).toThrow();
    expect(() => trustedManifest({ ...manifest, files: { '/index.html': { ...entry, identity: {} } } })).toThrow();
  });
});
