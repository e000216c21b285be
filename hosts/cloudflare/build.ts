/**
 * `npm run build:cloudflare`: after `npm run build`, writes what Workers needs beside the output:
 * <dist>/cloudflare/wrangler.json (the Worker, its assets, run_worker_first from the build's manifest, the rate-
 * limit Durable Object) and <dist>/client/_headers (headers for what the assets layer answers alone).
 * Deploy: `npx wrangler deploy --config dist/cloudflare/wrangler.json`; secrets with `npx wrangler secret put`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { readManifest } from '../node/static-store.ts';
import { functionRoutedPatterns, headersFile } from '../shared/headers-file.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The newest date the bundled workerd (wrangler's dependency) supports; raise it with wrangler. */
export const COMPATIBILITY_DATE = '2026-04-01';

export function writeCloudflareConfig(distDir: string): string {
  const clientDir = join(distDir, 'client');
  const manifest = readManifest(clientDir);
  const outDir = join(distDir, 'cloudflare');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(clientDir, '_headers'), headersFile(manifest));
  // Cloudflare compresses at the edge: the build's .br/.gz copies need not be uploaded.
  writeFileSync(join(clientDir, '.assetsignore'), '*.br\n*.gz\n_manifest.json.br\n');
  const config = {
    $schema: relative(outDir, join(ROOT, 'node_modules/wrangler/config-schema.json')),
    name: 'podcast-listener-service',
    main: relative(outDir, join(ROOT, 'hosts/cloudflare/worker.ts')),
    compatibility_date: COMPATIBILITY_DATE,
    assets: {
      directory: relative(outDir, clientDir),
      binding: 'ASSETS',
      // Unknown paths reach the Worker, which answers the contract's 404 envelope (or the HTML 404 page).
      not_found_handling: 'none',
      run_worker_first: functionRoutedPatterns(manifest),
    },
    durable_objects: {
      bindings: [
        { name: 'RATE_LIMIT', class_name: 'RateLimitCounter' },
        { name: 'SINGLE_USE', class_name: 'SingleUseEntry' },
      ],
    },
    migrations: [{ tag: 'v1', new_sqlite_classes: ['RateLimitCounter', 'SingleUseEntry'] }],
    observability: { enabled: true },
  };
  const file = join(outDir, 'wrangler.json');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const file = writeCloudflareConfig(resolve(process.env.DIST_DIR || 'dist'));
  console.log(`wrote ${relative(process.cwd(), file)}`);
}
