/**
 * `npm run build:netlify`: after `npm run build`, writes the Netlify deploy: <dist>/netlify/functions/service.mjs
 * (the bundled function, with `config.path` listing the API's routes and the build's function-routed documents,
 * which it answers before the CDN so they carry X-RateLimit-*) and <dist>/client/_headers (headers for what the
 * CDN answers alone). netlify.toml at the repo root points Netlify at both.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { apiRoutes } from '../../functions/routes.ts';
import { readManifest } from '../node/static-store.ts';
import { bundleFunction } from '../shared/bundle.ts';
import { functionRoutedPatterns, headersFile } from '../shared/headers-file.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export async function writeNetlifyOutput(distDir: string): Promise<string> {
  const clientDir = join(distDir, 'client');
  const manifest = readManifest(clientDir);
  writeFileSync(join(clientDir, '_headers'), headersFile(manifest));
  const outDir = join(distDir, 'netlify', 'functions');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'service.mjs');
  // The bundle lives beside the entry (not in functions/, where Netlify would take it for a function of its own).
  mkdirSync(join(distDir, 'netlify', 'lib'), { recursive: true });
  await bundleFunction(join(ROOT, 'hosts/netlify/function.ts'), join(distDir, 'netlify', 'lib', 'service.mjs'), {
    // The deployed copy of the build, relative to the function's working directory (the repo root on Netlify).
    __CLIENT_DIR__: JSON.stringify(relative(ROOT, clientDir)),
  });
  const paths = [...apiRoutes.map((r) => r.path), '/.well-known/mcp', ...functionRoutedPatterns(manifest)];
  // Netlify reads `config` statically from the module's source: it must be a literal.
  writeFileSync(
    file,
    `export { default } from '../lib/service.mjs';\nexport const config = ${JSON.stringify({ path: [...new Set(paths)].sort(), preferStatic: false })};\n`,
  );
  return file;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const file = await writeNetlifyOutput(resolve(process.env.DIST_DIR || 'dist'));
  console.log(`wrote ${relative(process.cwd(), file)}`);
}
