/**
 * What build:cloudflare writes for `wrangler deploy` (hosts/cloudflare/build.ts): the Worker's config and the assets
 * layer's `_headers`, on a made-up build with a contract document, a page and two episodes' audio; and what it
 * says of the sample build.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uploadPlan, writeCloudflareConfig } from '../../hosts/cloudflare/build.ts';
import { packManifest } from '../../contract/schemas/asset-manifest.ts';

const ROOT = resolve(import.meta.dirname, '../..');

let dist: string;
let config: { assets: { run_worker_first: string[] } } & Record<string, unknown>;
let headers: string;

beforeAll(() => {
  dist = mkdtempSync(join(tmpdir(), 'cf-config-'));
  const client = join(dist, 'client');
  mkdirSync(join(client, 'audio'), { recursive: true });
  const files: Record<string, string> = { 'episodes.json': '[]', 'index.html': '<!doctype html>', 'audio/001-one.mp3': 'ID3one', 'audio/002-two.mp3': 'ID3two' };
  for (const [path, body] of Object.entries(files)) writeFileSync(join(client, path), body);
  const entry = (path: string, type: string, more: object = {}) => ({ type, cacheControl: 'public, max-age=300', mtime: 1_700_000_000, identity: { etag: `"${path}"`, size: files[path]!.length }, ...more });
  const manifest = packManifest(
    { generated_at: new Date(0).toISOString(), siteUrl: 'https://podcast.example' },
    {
      '/episodes.json': entry('episodes.json', 'application/json; charset=utf-8', { fn: true }),
      '/index.html': entry('index.html', 'text/html; charset=utf-8'),
      '/audio/001-one.mp3': entry('audio/001-one.mp3', 'audio/mpeg', { seekable: true }),
      '/audio/002-two.mp3': entry('audio/002-two.mp3', 'audio/mpeg', { seekable: true }),
    },
  );
  writeFileSync(join(client, '_manifest.json'), JSON.stringify(manifest));
  config = JSON.parse(readFileSync(writeCloudflareConfig(dist), 'utf8')) as typeof config;
  headers = readFileSync(join(client, '_headers'), 'utf8');
});
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('build:cloudflare', () => {
  it('routes the audio through the Worker, which honours ranges (the assets layer answers them with the whole file)', () => {
    expect(config.assets.run_worker_first).toEqual(expect.arrayContaining(['/episodes.json', '/audio/*']));
    expect(config.assets.run_worker_first).not.toContain('/index.html');
  });

  it('gives the assets layer no rules for what it never answers alone: no Accept-Ranges it would not honour', () => {
    expect(headers).not.toMatch(/Accept-Ranges/i);
    expect(headers).not.toContain('/audio/');
    expect(headers).toContain('X-Content-Type-Options: nosniff');
  });

  it('keeps the vars set in the dashboard on each deploy (wrangler deletes vars its config does not name)', () => {
    expect(config.keep_vars).toBe(true);
  });

  it('routes the files the Worker reads for itself through it (it answers them 404): the assets layer would publish them', () => {
    expect(config.assets.run_worker_first).toEqual(expect.arrayContaining(['/_manifest.json', '/_parts.json']));
  });
});

describe('build:cloudflare on the sample', () => {
  let copy: string;
  let printed: string;
  beforeAll(() => {
    // A copy: the build writes its control files into the output the other host tests serve.
    copy = mkdtempSync(join(tmpdir(), 'cf-count-'));
    cpSync(join(inject('distDir'), 'client'), join(copy, 'client'), { recursive: true });
    printed = execFileSync(process.execPath, [join(ROOT, 'hosts/cloudflare/build.ts')], { cwd: ROOT, env: { ...process.env, DIST_DIR: copy }, encoding: 'utf8' });
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('says how many files the deploy uploads, and the README states no other count for the sample', () => {
    const count = /\(([\d,]+) static asset files to upload\)/.exec(printed)?.[1];
    expect(count).toBeDefined();
    expect(Number(count!.replace(/,/g, ''))).toBe(uploadPlan(copy).uploaded.length);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const [, stated] of readme.matchAll(/the sample uploads ([\d,]+)/g)) expect(stated).toBe(count);
  });
});
