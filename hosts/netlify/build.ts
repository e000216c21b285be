/**
 * `npm run build:netlify`: after `npm run build`, writes the Netlify deploy under <dist>/netlify, the folders
 * netlify.toml names:
 *   static/     the site for the CDN (publish), with _headers for what the CDN answers alone;
 *   client/     the function's copy of the documents it answers (included_files);
 *   functions/service.mjs, lib/service.mjs   the bundled function, with `config.path` listing the API's routes and
 *               the build's function-routed documents, which it answers before the CDN so they carry X-RateLimit-*.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { apiRoutes } from '../../functions/routes.ts';
import { readManifest } from '../node/static-store.ts';
import { bundleFunction } from '../shared/bundle.ts';
import { copyCdnFiles, copyFunctionFiles } from '../shared/deploy-files.ts';
import { functionRoutedPatterns, headersFile } from '../shared/headers-file.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export async function writeNetlifyOutput(distDir: string): Promise<string> {
  const clientDir = join(distDir, 'client');
  const manifest = readManifest(clientDir);
  const netlifyDir = join(distDir, 'netlify');
  copyCdnFiles(clientDir, join(netlifyDir, 'static'));
  writeFileSync(join(netlifyDir, 'static', '_headers'), headersFile(manifest));
  copyFunctionFiles(clientDir, manifest, join(netlifyDir, 'client'));
  const outDir = join(netlifyDir, 'functions');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'service.mjs');
  // The bundle lives beside the entry (not in functions/, where Netlify would take it for a function of its own).
  mkdirSync(join(netlifyDir, 'lib'), { recursive: true });
  await bundleFunction(join(ROOT, 'hosts/netlify/function.ts'), join(netlifyDir, 'lib', 'service.mjs'), {
    // The deployed copy of the documents, relative to the function's working directory (the repo root on Netlify).
    __CLIENT_DIR__: JSON.stringify(relative(ROOT, join(netlifyDir, 'client'))),
  });
  const routed = [...apiRoutes.map((r) => r.path), '/.well-known/mcp', ...functionRoutedPatterns(manifest)];
  // Netlify's router lower-cases the request's path before it compares it with a route written out in full, so
  // /AGENTS.md would never reach the function; both spellings are listed (the function answers the one it has).
  const paths = routed.flatMap((path) => (path.includes('*') || path === path.toLowerCase() ? [path] : [path, path.toLowerCase()]));
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
