import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MANIFEST_VERSION, packManifest, type AssetEntry } from '../../contract/schemas/asset-manifest.ts';
import { loadStaticStore, manifestVersion, MissingManifestError, readManifest, StaleManifestError } from './static-store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function output(manifest?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'static-store-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'episodes'));
  writeFileSync(join(dir, 'episodes.json'), '{"episodes":[]}');
  writeFileSync(join(dir, 'secret.txt'), 'not listed');
  if (manifest !== undefined) writeFileSync(join(dir, '_manifest.json'), JSON.stringify(manifest));
  return dir;
}

const entry: AssetEntry = { type: 'application/json', cacheControl: 'public, max-age=300', mtime: 1764000000, identity: { etag: '"e1"', size: 15 }, fn: true };
const meta = { generated_at: '2026-11-25T00:00:00.000Z', siteUrl: 'https://pod.example' };

describe('the Node host’s static store over /_manifest.json', () => {
  it('serves the files the manifest lists, and nothing else in the folder', () => {
    const store = loadStaticStore(output(packManifest(meta, { '/episodes.json': entry })));
    expect(store.files.size).toBe(1);
    expect(new TextDecoder().decode(store.get('/episodes.json')!.identity.bytes)).toBe('{"episodes":[]}');
    expect(store.get('/episodes.json')!.identity.etag).toBe('"e1"');
    expect(store.get('/secret.txt')).toBeUndefined();
    expect(store.get('/_manifest.json')).toBeUndefined();
  });

  it('tells a missing manifest from one another version of the service wrote, and says to build again', () => {
    expect(() => readManifest(output())).toThrow(MissingManifestError);
    const old = output({ version: 1, ...meta, files: { '/episodes.json': { ...entry } } });
    expect(() => readManifest(old)).toThrow(StaleManifestError);
    expect(() => readManifest(old)).toThrow(new RegExp(`version 1, not ${MANIFEST_VERSION}.*build again`));
  });

  it('reads the version from the manifest’s first bytes (npm start rebuilds an output of another version)', () => {
    expect(manifestVersion(output(packManifest(meta, { '/episodes.json': entry })))).toBe(MANIFEST_VERSION);
    expect(manifestVersion(output({ version: 1, ...meta, files: {} }))).toBe(1);
    expect(manifestVersion(output())).toBeUndefined();
    expect(manifestVersion(output({ files: '', version: MANIFEST_VERSION }))).toBeUndefined();
  });

  it('holds at most maxBytes of files, the least recently used leaving first, and never one over a quarter of it', () => {
    const dir = output();
    const files: Record<string, AssetEntry> = {};
    for (const [name, size] of [['a', 200], ['b', 200], ['c', 200], ['d', 200], ['e', 200], ['big', 600]] as const) {
      writeFileSync(join(dir, `${name}.txt`), 'x'.repeat(size));
      files[`/${name}.txt`] = { ...entry, type: 'text/plain', identity: { etag: `"${name}"`, size } };
    }
    writeFileSync(join(dir, '_manifest.json'), JSON.stringify(packManifest(meta, files)));
    // A build that fits is read whole at start.
    const whole = loadStaticStore(dir, { maxBytes: 4000 });
    expect(whole.eager).toBe(true);
    expect(whole.heldBytes).toBe(1600);

    const store = loadStaticStore(dir, { maxBytes: 900 });
    expect(store.eager).toBe(false);
    expect(store.heldBytes).toBe(0);
    for (const name of 'abcd') store.get(`/${name}.txt`);
    expect(store.heldBytes).toBe(800);
    store.get('/a.txt');
    store.get('/e.txt');
    expect(store.heldBytes).toBe(800);
    // b was the least recently used: it alone is read from disk again.
    for (const name of 'abcde') writeFileSync(join(dir, `${name}.txt`), 'y'.repeat(200));
    const first = (name: string) => new TextDecoder().decode(store.get(`/${name}.txt`)!.identity.bytes)[0];
    expect(['a', 'c', 'd', 'e'].map(first)).toEqual(['x', 'x', 'x', 'x']);
    expect(first('b')).toBe('y');
    // 600 bytes is over a quarter of 900: answered each time, never kept.
    expect(store.get('/big.txt')!.identity.bytes.byteLength).toBe(600);
    expect(store.heldBytes).toBe(800);
  });
});
