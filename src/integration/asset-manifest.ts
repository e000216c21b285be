/**
 * Build step, after precompress: writes /_manifest.json, what every host needs to answer each file of the output
 * the same way (media type, cache policy, ETags of each stored representation, the CSP of each page with its
 * inline scripts allowed by hash, and which files go through the function layer on a CDN). Hosts read it at
 * start instead of walking, hashing and classifying the output themselves (contract/http-policy.ts decides).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import {
  cacheControlFor,
  contentSecurityPolicy,
  contentTypeFor,
  isCompressible,
  isFunctionRouted,
  MANIFEST_PATH,
  MIN_COMPRESS_BYTES,
} from '../../contract/http-policy.ts';
import { AssetFiles, packManifest, type AssetEntry, type AssetManifest } from '../../contract/schemas/asset-manifest.ts';
import { precompressedFacts, precompressedFiles, type FileFacts } from './precompress.ts';
import { inlineScriptHashes } from './inline-scripts.ts';

export function assetManifest(): AstroIntegration {
  let site = 'http://localhost:4321';
  return {
    name: 'asset-manifest',
    hooks: {
      'astro:config:done': ({ config }) => {
        if (config.site) site = config.site.replace(/\/+$/, '');
      },
      'astro:build:done': async ({ dir, logger }) => {
        const manifest = await writeAssetManifest(fileURLToPath(dir), site);
        logger.info(`${manifest.files.size} files in ${MANIFEST_PATH}`);
      },
    },
  };
}

/**
 * `known`: what precompress learnt about the text files it just handled (sha1, sizes of the variants, a page's
 * inline scripts), so they are not read and hashed a second time.
 */
export async function writeAssetManifest(
  root: string,
  siteUrl: string,
  known: Map<string, FileFacts> | undefined = precompressedFacts(root),
  listed: ReadonlySet<string> | 'walk' = precompressedFiles(root) ?? 'walk',
): Promise<AssetManifest> {
  const found = new Map<string, string>();
  // Folders read side by side, and files looked at IN_FLIGHT at a time below: awaited one by one, the ~50,000
  // files of a 1,000-episode output kept this step (the last of a build, after everything else) 3-4 s on stats.
  const walk = async (dir: string, urlDir: string): Promise<void> => {
    const subdirs: Array<Promise<void>> = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      const urlPath = `${urlDir}/${entry.name}`;
      if (!published(urlPath)) continue;
      if (entry.isDirectory()) subdirs.push(walk(full, urlPath));
      else if (entry.isFile()) found.set(urlPath, full);
    }
    await Promise.all(subdirs);
  };
  if (listed === 'walk') await walk(root, '');
  else for (const path of listed) if (published(path)) found.set(path, join(root, path.slice(1)));
  found.delete(MANIFEST_PATH);

  const describe = async (path: string, full: string): Promise<AssetEntry> => {
    const type = contentTypeFor(path);
    const facts = known?.get(path);
    // Precompress, this build's step before this one, read or wrote the file and took its time then: nothing writes
    // into the output between the two. A file it has no time for is looked at, and facts of a file changed since
    // (nothing should, but a mismatch costs only a read) are not used.
    const info = facts?.mtimeMs !== undefined ? { size: facts.size, mtimeMs: facts.mtimeMs } : await stat(full);
    const fresh = facts && facts.size === info.size ? facts : undefined;
    const html = type.startsWith('text/html');
    const body = !fresh || (html && !fresh.scripts) ? await readFile(full) : undefined;
    const tag = fresh ? fresh.sha1.slice(0, 22) : etag(body!);
    const entry: AssetEntry = {
      type,
      cacheControl: cacheControlFor(path, type),
      mtime: Math.floor(info.mtimeMs / 1000),
      identity: { etag: `"${tag}"`, size: info.size },
    };
    if (isCompressible(type) && info.size >= MIN_COMPRESS_BYTES) {
      for (const [encoding, suffix, mark] of [['br', '.br', 'br'], ['gzip', '.gz', 'gz']] as const) {
        const variant = found.get(`${path}${suffix}`);
        if (!variant) continue;
        const size = fresh ? fresh[mark] : undefined;
        entry[encoding] = { etag: `"${tag}-${mark}"`, size: size ?? (await stat(variant)).size };
      }
    }
    if (html) entry.csp = contentSecurityPolicy(fresh?.scripts ?? inlineScriptHashes(body!));
    if (/^(audio|video)\//.test(type)) entry.seekable = true;
    if (isFunctionRouted(path)) entry.fn = true;
    return entry;
  };

  // foo.br / foo.gz beside foo are foo's stored variants, not documents of their own.
  const documents = [...found]
    .filter(([path]) => !(/\.(br|gz)$/.test(path) && found.has(path.slice(0, -3))))
    // Code-unit order, as packManifest keeps them (a collation, localeCompare, is ~3x slower over 40,000 paths).
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const entries: AssetEntry[] = new Array(documents.length);
  for (let i = 0; i < documents.length; i += IN_FLIGHT) {
    await Promise.all(documents.slice(i, i + IN_FLIGHT).map(async ([path, full], k) => (entries[i + k] = await describe(path, full))));
  }
  const files: Record<string, AssetEntry> = {};
  documents.forEach(([path], i) => (files[path] = entries[i]!));
  const stored = packManifest({ generated_at: new Date().toISOString(), siteUrl }, files);
  await writeFile(join(root, MANIFEST_PATH.slice(1)), JSON.stringify(stored));
  return { version: stored.version, generated_at: stored.generated_at, siteUrl: stored.siteUrl, files: new AssetFiles(stored) };
}

const IN_FLIGHT = 64;

/** Dot-files (and what is under a dot-folder) are never published, except the .well-known documents. */
function published(urlPath: string): boolean {
  const wellKnown = urlPath === '/.well-known' || urlPath.startsWith('/.well-known/');
  return !/\/\./.test(wellKnown ? urlPath.slice('/.well-known'.length) : urlPath);
}

function etag(body: Buffer): string {
  return createHash('sha1').update(body).digest('base64url').slice(0, 22);
}
