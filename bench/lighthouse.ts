/**
 * Lighthouse scores of the website's pages, served by the real server from a build:
 *
 *   npm run bench:lighthouse                       the sample show, built into dist/ (npm run build first)
 *   npm run bench:lighthouse -- --dist <dir> --paths /,/episodes/,/search/
 *
 * Prints one line per page and a JSON summary. Chromium: CHROME_PATH, default /usr/bin/chromium.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withUsage } from './lib/args.ts';
import { startServer } from './lib/proc.ts';
import { auditPage, withChrome } from './lib/lighthouse.ts';

const ROOT = resolve(import.meta.dirname, '..');
const USAGE = 'Usage: npm run bench:lighthouse [-- --dist <dir> --paths /,/episodes/,/search/ --attempts <n>]';
const { values } = withUsage(USAGE, () =>
  parseArgs({
    options: {
      dist: { type: 'string', default: join(ROOT, 'dist') },
      paths: { type: 'string' },
      attempts: { type: 'string', default: '3' },
    },
  }),
);

const server = await startServer([join(ROOT, 'hosts/node/main.ts')], {
  env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DIST_DIR: resolve(values.dist!), RATE_LIMIT_MAX: '100000', LOG_LEVEL: 'warn' },
  cwd: ROOT,
  timeoutMs: 120_000,
});
try {
  let paths = values.paths?.split(',').filter(Boolean);
  if (!paths) {
    const service = (await (await fetch(`${server.url}/service.json`)).json()) as { episodes: Array<{ url: string }> };
    paths = ['/', new URL(service.episodes[0]!.url).pathname, '/search/', '/episodes/'];
  }
  const results = await withChrome(async (port) => {
    const out = [];
    for (const path of paths!) {
      const r = await auditPage(`${server.url}${path}`, port, { attempts: Number(values.attempts) });
      console.error(`${path}: ${Object.entries(r.scores).map(([k, v]) => `${k} ${v}`).join(', ')} (${r.runs} run${r.runs === 1 ? '' : 's'}, ${(r.ms / 1000).toFixed(1)} s)`);
      for (const f of r.failing) console.error(`  ${f.category}: ${f.id} ${f.score}${f.value ? ` (${f.value})` : ''}`);
      out.push({ path, ...r });
    }
    return out;
  });
  console.log(JSON.stringify(results.map(({ path, scores, runs }) => ({ path, scores, runs })), null, 2));
} finally {
  await server.stop();
}
