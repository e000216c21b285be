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
  // URL paths; a file's own path is made only when it has to be read or looked at (join() for ~80,000 paths, files
  // and variants, was a fifth of this step).
  const found = new Set<string>();
  const fileOf = (path: string) => join(root, path.slice(1));
  // Folders read side by side, and files looked at IN_FLIGHT at a time below: awaited one by one, the ~50,000
  // files of a 1,000-episode output kept this step (the last of a build, after everything else) 3-4 s on stats.
  const walk = async (dir: string, urlDir: string): Promise<void> => {
    const subdirs: Array<Promise<void>> = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const urlPath = `${urlDir}/${entry.name}`;
      if (!published(urlPath)) continue;
      if (entry.isDirectory()) subdirs.push(walk(join(dir, entry.name), urlPath));
      else if (entry.isFile()) found.add(urlPath);
    }
    await Promise.all(subdirs);
  };
  if (listed === 'walk') await walk(root, '');
  else for (const path of listed) if (published(path)) found.add(path);
  found.delete(MANIFEST_PATH);

  /** A file's entry from its size and time, its tag, its variants' sizes and, for a page, its inline scripts' hashes. */
  const entryOf = (path: string, type: string, info: { size: number; mtimeMs: number }, tag: string, variantSize: (mark: 'br' | 'gz') => number | undefined, scripts: () => string[]): AssetEntry => {
    const entry: AssetEntry = {
      type,
      cacheControl: cacheControlFor(path, type),
      mtime: Math.floor(info.mtimeMs / 1000),
      identity: { etag: `"${tag}"`, size: info.size },
    };
    if (info.size >= MIN_COMPRESS_BYTES && isCompressible(type)) {
      for (const [encoding, mark] of [['br', 'br'], ['gzip', 'gz']] as const) {
        const size = variantSize(mark);
        if (size !== undefined) entry[encoding] = { etag: `"${tag}-${mark}"`, size };
      }
    }
    if (type.startsWith('text/html')) entry.csp = contentSecurityPolicy(scripts());
    if (/^(audio|video)\//.test(type)) entry.seekable = true;
    if (isFunctionRouted(path)) entry.fn = true;
    return entry;
  };
  const suffix = { br: '.br', gz: '.gz' } as const;

  // Precompress, this build's step before this one, read or wrote the file and took its time then: nothing writes
  // into the output between the two. Most files are described from that alone, without a promise each.
  const fromFacts = (path: string): AssetEntry | undefined => {
    const facts = known?.get(path);
    if (facts?.mtimeMs === undefined) return undefined;
    const type = contentTypeFor(path);
    if (type.startsWith('text/html') && !facts.scripts) return undefined;
    // A variant on disk that precompress gave no size for is looked at (describe below).
    for (const mark of ['br', 'gz'] as const) if (facts[mark] === undefined && found.has(`${path}${suffix[mark]}`)) return undefined;
    return entryOf(path, type, { size: facts.size, mtimeMs: facts.mtimeMs }, facts.sha1.slice(0, 22), (mark) => (found.has(`${path}${suffix[mark]}`) ? facts[mark] : undefined), () => facts.scripts!);
  };
  const describe = async (path: string): Promise<AssetEntry> => {
    const full = fileOf(path);
    const type = contentTypeFor(path);
    const facts = known?.get(path);
    // A file precompress has no time for is looked at, and facts of a file changed since (nothing should, but a
    // mismatch costs only a read) are not used.
    const info = facts?.mtimeMs !== undefined ? { size: facts.size, mtimeMs: facts.mtimeMs } : await stat(full);
    const fresh = facts && facts.size === info.size ? facts : undefined;
    const html = type.startsWith('text/html');
    const body = !fresh || (html && !fresh.scripts) ? await readFile(full) : undefined;
    const tag = fresh ? fresh.sha1.slice(0, 22) : etag(body!);
    const sizes: Partial<Record<'br' | 'gz', number>> = {};
    if (info.size >= MIN_COMPRESS_BYTES && isCompressible(type)) {
      for (const mark of ['br', 'gz'] as const) {
        if (!found.has(`${path}${suffix[mark]}`)) continue;
        sizes[mark] = fresh?.[mark] ?? (await stat(fileOf(`${path}${suffix[mark]}`))).size;
      }
    }
    return entryOf(path, type, info, tag, (mark) => sizes[mark], () => fresh?.scripts ?? inlineScriptHashes(body!));
  };

  // foo.br / foo.gz beside foo are foo's stored variants, not documents of their own.
  const documents = [...found]
    .filter((path) => !(/\.(br|gz)$/.test(path) && found.has(path.slice(0, -3))))
    // Code-unit order, as packManifest keeps them (a collation, localeCompare, is ~3x slower over 40,000 paths).
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const entries: AssetEntry[] = new Array(documents.length);
  const looked: number[] = [];
  documents.forEach((path, i) => {
    const entry = fromFacts(path);
    if (entry) entries[i] = entry;
    else looked.push(i);
  });
  for (let i = 0; i < looked.length; i += IN_FLIGHT) {
    await Promise.all(looked.slice(i, i + IN_FLIGHT).map(async (k) => (entries[k] = await describe(documents[k]!))));
  }
  const files: Record<string, AssetEntry> = {};
  documents.forEach((path, i) => (files[path] = entries[i]!));
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
