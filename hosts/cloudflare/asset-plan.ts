/**
 * Which files of a build Workers takes as static assets, and whether they fit its limits: what
 * `npm run build:cloudflare` reports before a deploy (build.ts), and what bench/isolate.ts uploads to the local
 * preview. Workers counts files per Worker version and refuses a version over its plan's count or holding a file
 * over the size limit, after the upload; a show that has grown past them hears it here first.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore from 'ignore';

/**
 * Workers static assets (developers.cloudflare.com/workers/platform/limits): files per Worker version on the Free
 * and on the Paid plan, and bytes per file on both.
 */
export const ASSET_LIMITS = { files: 20_000, paidFiles: 100_000, fileBytes: 25 * 1024 * 1024 };

/** What wrangler never uploads as an asset, whatever .assetsignore says (its own control files), as it lists them. */
const ALWAYS_IGNORED = ['/.assetsignore', '/_redirects', '/_headers'];

/**
 * Matches .assetsignore lines as wrangler does: with the `ignore` package (gitignore's rules), which wrangler
 * bundles, after its own control files. `relativePath` is relative to the assets folder, with `/` separators.
 */
export function ignoreMatcher(patterns: readonly string[]): (relativePath: string) => boolean {
  const ignorer = ignore().add([...ALWAYS_IGNORED, ...patterns]);
  return (relativePath) => ignorer.ignores(relativePath);
}

export interface AssetFile {
  /** Path relative to the assets directory, with `/` separators. */
  path: string;
  bytes: number;
}

export interface AssetPlan {
  /** Files Workers would upload (the static-asset file count). */
  uploaded: AssetFile[];
  /** Files over the per-file limit: `wrangler dev` and `wrangler deploy` refuse the whole directory for them. */
  oversize: AssetFile[];
  ignored: number;
  fileLimit: number;
  withinFileLimit: boolean;
}

/** Sorts a build's client files the way wrangler's asset manifest does: ignored, too large, uploaded. */
export function planAssets(files: readonly AssetFile[], ignorePatterns: readonly string[], limits = ASSET_LIMITS): AssetPlan {
  const ignored = ignoreMatcher(ignorePatterns);
  const plan: AssetPlan = { uploaded: [], oversize: [], ignored: 0, fileLimit: limits.files, withinFileLimit: true };
  for (const file of files) {
    if (ignored(file.path)) plan.ignored++;
    else if (file.bytes > limits.fileBytes) plan.oversize.push(file);
    else plan.uploaded.push(file);
  }
  plan.withinFileLimit = plan.uploaded.length + plan.oversize.length <= limits.files;
  return plan;
}

/** Every file under dir, with its path relative to dir and its size. */
export function listAssetFiles(dir: string): AssetFile[] {
  const out: AssetFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    out.push({ path: relative(dir, full).split(sep).join('/'), bytes: statSync(full).size });
  }
  return out;
}

/**
 * What a deploy of this plan runs into, or nothing when it fits the Free plan: one line per problem, naming the
 * count or the files and the limit.
 */
export function assetLimitProblems(plan: AssetPlan, limits = ASSET_LIMITS): string[] {
  const problems: string[] = [];
  const count = plan.uploaded.length + plan.oversize.length;
  const n = (x: number) => x.toLocaleString('en');
  if (count > limits.paidFiles) {
    problems.push(`${n(count)} static asset files: over Workers' ${n(limits.paidFiles)} files a version on the Paid plan; wrangler deploy will refuse them`);
  } else if (count > limits.files) {
    problems.push(`${n(count)} static asset files: over the Workers Free plan's ${n(limits.files)} files a version; deploying needs the Paid plan (${n(limits.paidFiles)})`);
  }
  if (plan.oversize.length) {
    const listed = plan.oversize.slice(0, 5).map((f) => f.path).join(', ');
    problems.push(`${plan.oversize.length} file(s) over Workers' ${n(limits.fileBytes / 1024 / 1024)} MiB a file: ${listed}${plan.oversize.length > 5 ? ', …' : ''}`);
  }
  return problems;
}
