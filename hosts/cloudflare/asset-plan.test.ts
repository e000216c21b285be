/** Which files of a build Workers takes as static assets, and the limits a deploy runs into (asset-plan.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ASSET_LIMITS, assetLimitProblems, ignoreMatcher, listAssetFiles, planAssets } from './asset-plan.ts';

describe('static assets as Workers takes them', () => {
  it('ignores what .assetsignore and wrangler itself ignore', () => {
    const ignored = ignoreMatcher(['*.br', '*.gz', '# comment', '', '/drafts']);
    expect(ignored('search/shards/1.json.br')).toBe(true);
    expect(ignored('rss.xml.gz')).toBe(true);
    expect(ignored('_headers')).toBe(true);
    expect(ignored('.assetsignore')).toBe(true);
    expect(ignored('drafts/a.html')).toBe(true);
    expect(ignored('episodes/drafts/a.html')).toBe(false);
    expect(ignored('search/lunr-index.json')).toBe(false);
    expect(ignored('brochure.html')).toBe(false);
  });

  it('reads a path with a space as build.ts writes it (escaped), as wrangler does', () => {
    const ignored = ignoreMatcher(['/transcripts/one\\ two.txt']);
    expect(ignored('transcripts/one two.txt')).toBe(true);
    expect(ignored('transcripts/one two.txt.part0')).toBe(false);
    expect(ignored('transcripts/one')).toBe(false);
  });

  it('counts uploaded files against the per-version limit and lists files over 25 MiB', () => {
    const files = [
      { path: 'index.html', bytes: 10 },
      { path: 'index.html.br', bytes: 5 },
      { path: 'search-index.json', bytes: 58_456_542 },
      { path: 'a.json', bytes: 25 * 1024 * 1024 },
    ];
    const plan = planAssets(files, ['*.br']);
    expect(plan.uploaded.map((f) => f.path)).toEqual(['index.html', 'a.json']);
    expect(plan.oversize.map((f) => f.path)).toEqual(['search-index.json']);
    expect(plan.ignored).toBe(1);
    expect(plan.withinFileLimit).toBe(true);
    expect(planAssets(files, [], { files: 2, paidFiles: 10, fileBytes: 1e9 }).withinFileLimit).toBe(false);
  });
});


describe('what a deploy runs into', () => {
  const files = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `f${i}.json`, bytes: 1 }));
  const limits = { files: 3, paidFiles: 5, fileBytes: 100 };

  it('says nothing while the files fit the Free plan', () => {
    expect(assetLimitProblems(planAssets(files(3), [], limits), limits)).toEqual([]);
  });

  it('names the count and the Paid plan past the Free plan, and the refusal past the Paid plan', () => {
    expect(assetLimitProblems(planAssets(files(4), [], limits), limits)).toEqual([
      "4 static asset files: over the Workers Free plan's 3 files a version; deploying needs the Paid plan (5)",
    ]);
    const [over] = assetLimitProblems(planAssets(files(6), [], limits), limits);
    expect(over).toMatch(/^6 static asset files: over Workers' 5 files a version on the Paid plan/);
  });

  it('lists files over the size limit', () => {
    const mib = { ...limits, fileBytes: 2 * 1024 * 1024 };
    const plan = planAssets([...files(1), { path: 'search-index.json', bytes: 3 * 1024 * 1024 }], [], mib);
    expect(assetLimitProblems(plan, mib)).toEqual(["1 file(s) over Workers' 2 MiB a file: search-index.json"]);
  });

  it('keeps Cloudflare\'s published limits', () => {
    expect(ASSET_LIMITS).toEqual({ files: 20_000, paidFiles: 100_000, fileBytes: 25 * 1024 * 1024 });
  });
});

describe('listing a build folder', () => {
  it('lists every file below it with its size and a / path, and no folders', () => {
    const dir = mkdtempSync(join(tmpdir(), 'asset-plan-'));
    try {
      mkdirSync(join(dir, 'search', 'shards'), { recursive: true });
      writeFileSync(join(dir, 'index.html'), 'hello');
      writeFileSync(join(dir, 'search', 'shards', '1.json'), '{}');
      writeFileSync(join(dir, '.assetsignore'), '*.br\n');
      expect(listAssetFiles(dir).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
        { path: '.assetsignore', bytes: 5 },
        { path: 'index.html', bytes: 5 },
        { path: 'search/shards/1.json', bytes: 2 },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
