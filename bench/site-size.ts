/**
 * The website's page sizes for a generated N-episode show, without the rest of the benchmark: corpus, the real
 * build, then bench/lib/site-pages.ts. `npm run bench` records the same figures in RESULTS.md.
 *
 *   npm run bench:site-size -- --episodes 1000 [--seed 42] [--keep]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withUsage } from './lib/args.ts';
import { generateCorpus } from './corpus.ts';
import { run } from './lib/proc.ts';
import { sitePages } from './lib/site-pages.ts';

const ROOT = resolve(import.meta.dirname, '..');
const USAGE = 'Usage: npm run bench:site-size -- --episodes 1000 [--seed 42] [--keep]';
const { values } = withUsage(USAGE, () =>
  parseArgs({ options: { episodes: { type: 'string', default: '1000' }, seed: { type: 'string', default: '42' }, keep: { type: 'boolean', default: false } } }),
);
const n = Number(values.episodes);
const work = mkdtempSync(join(tmpdir(), `podcast-site-size-${n}-`));
try {
  generateCorpus({ episodes: n, out: join(work, 'corpus'), seed: Number(values.seed) });
  const t = performance.now();
  const r = await run(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
    cwd: ROOT,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: join(work, 'corpus'), ASTRO_OUT_DIR: join(work, 'dist'), ASTRO_CACHE_DIR: join(work, 'cache'), SITE_URL: 'https://bench.example.com' },
    timeoutMs: Math.max(600_000, n * 1_500),
  });
  if (r.code !== 0) throw new Error(`astro build exited ${r.code}:\n${(r.stdout + r.stderr).slice(-3000)}`);
  console.log(JSON.stringify({ episodes: n, buildMs: Math.round(performance.now() - t), ...sitePages(join(work, 'dist', 'client')) }, null, 2));
} finally {
  if (values.keep) console.error(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
