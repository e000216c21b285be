/**
 * `npm run build:vercel`: after `npm run build`, writes .vercel/output (Vercel's Build Output API v3), which
 * `vercel deploy --prebuilt` uploads as is: static/ (the site, for the CDN), functions/service.func (the bundled
 * function and its copy of the build's documents) and config.json (the function answers the contract's
 * documents before the CDN, and whatever the CDN has no file for: the API, and the contract's 404).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { readManifest } from '../node/static-store.ts';
import { bundleFunction } from '../shared/bundle.ts';
import { copyCdnFiles, copyFunctionFiles } from '../shared/deploy-files.ts';
import { cdnHeaderRules, functionRoutedPatterns } from '../shared/headers-file.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export async function writeVercelOutput(distDir: string, outDir = join(ROOT, '.vercel/output')): Promise<string> {
  const clientDir = join(distDir, 'client');
  const manifest = readManifest(clientDir);
  rmSync(outDir, { recursive: true, force: true });
  copyCdnFiles(clientDir, join(outDir, 'static'));
  const funcDir = join(outDir, 'functions', 'service.func');
  copyFunctionFiles(clientDir, manifest, join(funcDir, 'client'));
  await bundleFunction(join(ROOT, 'hosts/vercel/function.ts'), join(funcDir, 'index.mjs'));
  writeFileSync(join(funcDir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(
    join(funcDir, '.vc-config.json'),
    JSON.stringify({ runtime: 'nodejs22.x', handler: 'index.mjs', launcherType: 'Nodejs', supportsResponseStreaming: true }, null, 2),
  );
  const toRegex = (pattern: string) => `^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\\\*|\*/g, '.*')}$`;
  const config = {
    version: 3,
    routes: [
      // The same rules as the other CDNs' _headers, each applied on the way and the routing continued.
      ...cdnHeaderRules(manifest).map(({ pattern, headers }) => ({ src: toRegex(pattern), headers, continue: true })),
      ...functionRoutedPatterns(manifest).map((pattern) => ({ src: toRegex(pattern), dest: '/service' })),
      { handle: 'filesystem' },
      { src: '^/(.*)$', dest: '/service' },
    ],
  };
  writeFileSync(join(outDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);
  return outDir;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const out = await writeVercelOutput(resolve(process.env.DIST_DIR || 'dist'));
  console.log(`wrote ${relative(process.cwd(), out)}`);
}
