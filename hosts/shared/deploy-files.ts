/**
 * What a function platform deploys from the build, in two parts (Netlify and Vercel alike): the site for the CDN,
 * and the function's own copy of the files it answers or reads. Neither carries what the other needs alone: the
 * audio never goes into a function bundle (Netlify refuses bundles over 250 MB), and the CDN gets no .br/.gz
 * copies (it compresses itself, and would serve them as files of their own) nor the files only hosts read.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MANIFEST_PATH } from '../../contract/http-policy.ts';
import type { AssetManifest } from '../../contract/schemas/asset-manifest.ts';

/** Files of the output that tell a host or a platform what to do; no client asks for them. */
const HOST_FILES = new Set([MANIFEST_PATH, '/_headers', '/_redirects', '/.assetsignore']);

/** The site for the CDN, into targetDir (emptied first). */
export function copyCdnFiles(clientDir: string, targetDir: string): void {
  rmSync(targetDir, { recursive: true, force: true });
  cpSync(clientDir, targetDir, {
    recursive: true,
    filter: (src) => {
      const path = src.slice(clientDir.length).replaceAll('\\', '/') || '/';
      return !/\.(br|gz)$/.test(path) && !HOST_FILES.has(path);
    },
  });
}

/** The function's copy, into targetDir (emptied first): the manifest's `fn` files with their .br/.gz, the 404 page, the manifest. */
export function copyFunctionFiles(clientDir: string, manifest: AssetManifest, targetDir: string): void {
  rmSync(targetDir, { recursive: true, force: true });
  const copy = (path: string) => {
    const target = join(targetDir, path);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(clientDir, path), target);
  };
  for (const [path, entry] of manifest.files.entries()) {
    if (!entry.fn && path !== '/404.html') continue;
    for (const suffix of ['', ...(entry.br ? ['.br'] : []), ...(entry.gzip ? ['.gz'] : [])]) copy(`${path}${suffix}`);
  }
  copy(MANIFEST_PATH);
}
