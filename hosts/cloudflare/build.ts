/**
 * `npm run build:cloudflare`: after `npm run build`, writes what Workers needs beside the output:
 * <dist>/cloudflare/wrangler.json (the Worker, its assets, run_worker_first from the build's manifest: the contract's
 * documents and the seekable audio, the rate-limit Durable Object) and <dist>/client/_headers (headers for what the
 * assets layer answers alone).
 * Deploy: `npx wrangler deploy --config dist/cloudflare/wrangler.json`; secrets with `npx wrangler secret put`.
 * Run as a script it also says how many files the deploy will upload, and warns past Workers' limits (asset-plan.ts).
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { readManifest } from '../node/static-store.ts';
import { functionRoutedPatterns, headersFile } from '../shared/headers-file.ts';
import type { AssetManifest } from '../../contract/schemas/asset-manifest.ts';
import { MANIFEST_PATH } from '../../contract/http-policy.ts';
import { PARTS_PATH, type PartsIndex } from './split-assets.ts';
import { ASSET_LIMITS, assetLimitProblems, listAssetFiles, planAssets, type AssetPlan } from './asset-plan.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** The newest date the bundled workerd (wrangler's dependency) supports; raise it with wrangler. */
export const COMPATIBILITY_DATE = '2026-04-01';

/**
 * Files the Worker reads through its assets binding but the public must not get (the list of every file of the
 * build, the list of split files). The binding reads any uploaded file whatever run_worker_first says, while a
 * request from outside for these paths reaches the Worker, which has no document there and answers the 404
 * envelope; the assets layer redirects another spelling of the path (`/%5Fmanifest.json`, `//_manifest.json`) to
 * this one first. Left out of the upload they could not be read at all, and bundled into the Worker the manifest
 * (~1 MB at 1,000 episodes, growing with the show) would count against the Worker's size limit (3 MB compressed
 * on the Free plan).
 */
const WORKER_ONLY_FILES = [MANIFEST_PATH, PARTS_PATH];

/** Workers static assets refuse any file larger than this (25 MiB). */
export const WORKERS_ASSET_MAX_BYTES = ASSET_LIMITS.fileBytes;

export interface CloudflareBuildOptions {
  /** Files larger than this are uploaded as parts (default and upper bound: WORKERS_ASSET_MAX_BYTES; smaller for tests). */
  maxAssetBytes?: number;
}

export function writeCloudflareConfig(distDir: string, options: CloudflareBuildOptions = {}): string {
  const clientDir = join(distDir, 'client');
  const manifest = readManifest(clientDir);
  const outDir = join(distDir, 'cloudflare');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(clientDir, '_headers'), headersFile(manifest, { throughFunction: (entry) => Boolean(entry.seekable) }));
  const maxBytes = Math.min(options.maxAssetBytes || WORKERS_ASSET_MAX_BYTES, WORKERS_ASSET_MAX_BYTES);
  const split = splitLargeAssets(clientDir, manifest, maxBytes);
  // Cloudflare compresses at the edge: the build's .br/.gz copies need not be uploaded. A file too large for the
  // assets layer is uploaded as its parts instead; the Worker answers it by joining them (worker.ts).
  const ignored = Object.keys(split).map(ignorePattern);
  writeFileSync(join(clientDir, '.assetsignore'), ['*.br', '*.gz', '_manifest.json.br', ...ignored].join('\n') + '\n');
  const config = {
    $schema: relative(outDir, join(ROOT, 'node_modules/wrangler/config-schema.json')),
    name: 'podcast-listener-service',
    main: relative(outDir, join(ROOT, 'hosts/cloudflare/worker.ts')),
    compatibility_date: COMPATIBILITY_DATE,
    // This config names no vars: the settings (SITE_URL, RATE_LIMIT_MAX, ...) are set in the dashboard or with
    // `wrangler secret put`, and without this every `wrangler deploy` would delete the vars set there.
    keep_vars: true,
    assets: {
      directory: relative(outDir, clientDir),
      binding: 'ASSETS',
      // Unknown paths reach the Worker, which answers the contract's 404 envelope (or the HTML 404 page).
      not_found_handling: 'none',
      run_worker_first: [...functionRoutedPatterns(manifest), ...seekablePatterns(manifest), ...WORKER_ONLY_FILES],
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

/**
 * Route patterns for the files players seek in (audio): the Worker answers them, because the assets layer answers
 * a range with the whole file and a 200 (its asset worker in workers-sdk, packages/workers-shared/asset-worker,
 * has no Range handling), and a podcast app could not seek. The Worker cuts the range from the asset
 * (functions/static-remote.ts). A folder whose files are all seekable is one pattern, so the list stays short at
 * any number of episodes.
 */
export function seekablePatterns(manifest: AssetManifest): string[] {
  const folders = new Map<string, boolean>();
  for (const [path, entry] of manifest.files.entries()) {
    const folder = /^\/[^/]+\//.exec(path)?.[0];
    if (folder) folders.set(folder, (folders.get(folder) ?? true) && Boolean(entry.seekable));
  }
  const patterns = new Set<string>();
  for (const [path, entry] of manifest.files.entries()) {
    if (!entry.seekable) continue;
    const folder = /^\/[^/]+\//.exec(path)?.[0];
    patterns.add(folder && folders.get(folder) ? `${folder}*` : path);
  }
  return [...patterns].sort();
}

/**
 * Writes every manifest file larger than maxBytes as `<file>.part<k>` byte slices of at most maxBytes beside it,
 * and the index of them at PARTS_PATH (always written, `{}` when nothing is split). Parts of an earlier run are
 * removed first, so running the build again gives the same output.
 */
export function splitLargeAssets(clientDir: string, manifest: AssetManifest, maxBytes: number): PartsIndex {
  if (!(maxBytes > 0)) throw new Error(`the asset size limit must be a positive number of bytes, not ${maxBytes}`);
  const index: PartsIndex = {};
  for (const [path, entry] of manifest.files.entries()) {
    const full = join(clientDir, path.slice(1));
    for (let k = 0; existsSync(`${full}.part${k}`); k++) unlinkSync(`${full}.part${k}`);
    if (entry.identity.size <= maxBytes) continue;
    const parts: string[] = [];
    const fd = openSync(full, 'r');
    try {
      if (fstatSync(fd).size !== entry.identity.size) throw new Error(`${path} is not the size the manifest says (${entry.identity.size} bytes): build again`);
      // Parts are read and written in steps of at most 8 MiB, whatever the limit.
      const buffer = Buffer.allocUnsafe(Math.min(maxBytes, 8 * 1024 * 1024));
      for (let start = 0; start < entry.identity.size; start += maxBytes) {
        const end = Math.min(start + maxBytes, entry.identity.size);
        const out = openSync(`${full}.part${parts.length}`, 'w');
        try {
          for (let at = start; at < end; ) {
            const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - at), at);
            if (n === 0) throw new Error(`${path} is shorter than the manifest says (${entry.identity.size} bytes): build again`);
            writeFileSync(out, buffer.subarray(0, n));
            at += n;
          }
        } finally {
          closeSync(out);
        }
        parts.push(`${path}.part${parts.length}`);
      }
    } finally {
      closeSync(fd);
    }
    index[path] = { parts, size: entry.identity.size, partSize: maxBytes, type: entry.type, etag: entry.identity.etag };
  }
  writeFileSync(join(clientDir, PARTS_PATH.slice(1)), `${JSON.stringify(index)}\n`);
  return index;
}

/** What `wrangler deploy` would upload of the Cloudflare build in distDir (written by writeCloudflareConfig). */
export function uploadPlan(distDir: string): AssetPlan {
  const clientDir = join(distDir, 'client');
  return planAssets(listAssetFiles(clientDir), readFileSync(join(clientDir, '.assetsignore'), 'utf8').split('\n'));
}

/** An .assetsignore (gitignore syntax) line matching exactly this path from the assets directory. */
function ignorePattern(path: string): string {
  return path.replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const distDir = resolve(process.env.DIST_DIR || 'dist');
  const file = writeCloudflareConfig(distDir, { maxAssetBytes: Number(process.env.WORKERS_ASSET_MAX_BYTES) || undefined });
  const plan = uploadPlan(distDir);
  console.log(`wrote ${relative(process.cwd(), file)} (${plan.uploaded.length.toLocaleString('en')} static asset files to upload)`);
  // A warning, not a failure: the limits are Cloudflare's and may change; the deploy is where they are enforced.
  for (const problem of assetLimitProblems(plan)) console.warn(`warning: ${problem}`);
}
