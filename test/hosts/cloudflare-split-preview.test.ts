/**
 * The split of files over the Workers asset limit, end to end in workerd (`npm run preview:cloudflare`): the
 * sample's files are far below 25 MiB, so the limit is lowered (WORKERS_ASSET_MAX_BYTES) until the contract's
 * /search-index.json and the episodes' audio are uploaded as parts; the Worker must answer their exact bytes. A
 * copy of the sample build, since the split writes into the output the other host tests serve.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startHost } from '../helpers/hosts.ts';
import type { RunningServer } from '../helpers/server.ts';
import { PARTS_PATH, type PartsIndex } from '../../hosts/cloudflare/split-assets.ts';

const LIMIT = 64 * 1024;

describe('a file over the asset limit, in workerd', () => {
  let dist: string;
  let server: RunningServer;
  let index: PartsIndex;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'cf-split-preview-'));
    cpSync(join(inject('distDir'), 'client'), join(dist, 'client'), { recursive: true });
    server = await startHost('cloudflare', { distDir: dist, env: { WORKERS_ASSET_MAX_BYTES: String(LIMIT), RATE_LIMIT_MAX: '1000' } });
    index = JSON.parse(readFileSync(join(dist, 'client', PARTS_PATH.slice(1)), 'utf8')) as PartsIndex;
  });
  afterAll(async () => {
    await server?.stop();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('answers /search-index.json joined from its parts, byte for byte, with the document headers', async () => {
    expect(index['/search-index.json']?.parts.length).toBeGreaterThan(1);
    const res = await fetch(`${server.url}/search-index.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toBe(index['/search-index.json']!.etag);
    expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.equals(readFileSync(join(dist, 'client', 'search-index.json')))).toBe(true);
    const again = await fetch(`${server.url}/search-index.json`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('answers a range of a split file from the parts it spans: 206, those bytes, its Content-Length; 416 outside', async () => {
    const audio = Object.keys(index).find((path) => path.startsWith('/audio/'))!;
    const bytes = readFileSync(join(dist, 'client', audio.slice(1)));
    expect(index[audio]!.parts.length).toBeGreaterThan(4);
    const ranges: Array<[number, number]> = [
      [0, 9],
      [LIMIT - 10, 3 * LIMIT + 5],
      [4 * LIMIT + 1, 4 * LIMIT + 100],
      [bytes.length - 1000, bytes.length - 1],
    ];
    for (const [start, end] of ranges) {
      const res = await fetch(`${server.url}${audio}`, { headers: { Range: `bytes=${start}-${end}` } });
      expect(res.status, `${start}-${end}`).toBe(206);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    const outside = await fetch(`${server.url}${audio}`, { headers: { Range: `bytes=${bytes.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    await outside.arrayBuffer();
  });

  it('keeps the list of parts and the parts of the audio to itself: 404 to the public, while it reads them', async () => {
    for (const path of [PARTS_PATH, `${Object.keys(index).find((p) => p.startsWith('/audio/'))}.part0`]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('answers a split file the assets layer would have answered alone (audio) through the Worker', async () => {
    const audio = Object.keys(index).find((path) => path.startsWith('/audio/'));
    expect(audio).toBeDefined();
    const res = await fetch(`${server.url}${audio}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(index[audio!]!.type);
    // A podcast app shows the download's size and progress from it: workerd sends a stream made in JavaScript
    // chunked, without the header, unless the Worker gives it a length it can check.
    expect(res.headers.get('content-length')).toBe(String(index[audio!]!.size));
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(dist, 'client', audio!.slice(1))))).toBe(true);
  });
});
