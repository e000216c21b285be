/**
 * `npm start` and `npm run preview:cloudflare` build before serving when there is no build for their SITE_URL. A build
 * empties its output folder first (src/integration/replace-out-dir.ts), so before either builds, this says whether it
 * must not: the folder must hold nothing, or a build of the very content about to be built, never another show's
 * build (build-source.json says which content made it) or files that are no build at all.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUILD_SOURCE_FILE, BuildSourceSchema, isBuildEntry, type BuildSource } from '../../contract/schemas/build-source.ts';

export interface BuildTarget {
  /** The output folder the build would write. */
  distDir: string;
  /** The content it would be built from (CONTENT_DIR, else content/). */
  contentDir: string;
  /** The folder was named (DIST_DIR), rather than the project's own dist/. */
  named: boolean;
  siteUrl?: string;
}

/** Why the build that `reason` calls for must not run, as one line for the operator, or undefined. */
export function buildRefusal(reason: string, target: BuildTarget): string | undefined {
  const distDir = resolve(target.distDir);
  const contentDir = resolve(target.contentDir);
  const rebuildHint = `SITE_URL=${target.siteUrl ?? '<its address>'} CONTENT_DIR=<its content> ASTRO_OUT_DIR=${distDir} npm run build`;
  if (existsSync(join(distDir, 'client', 'episodes.json'))) {
    if (!existsSync(join(contentDir, 'podcast.yaml'))) {
      return target.siteUrl
        ? `${reason}, and there is no content/ here to rebuild it from: build it with that SITE_URL (SITE_URL=${target.siteUrl} npm run build), or start without SITE_URL`
        : `${reason}, and there is no content/ here to rebuild it from: build it with that setting, or start without it`;
    }
    const source = readBuildSource(distDir);
    if (source && realPath(source.contentDir) !== realPath(contentDir)) {
      return `${reason}, but ${distDir} holds a build of ${source.contentDir}, and rebuilding would replace it with a build of ${contentDir}: start with CONTENT_DIR=${source.contentDir}, or rebuild it yourself (${rebuildHint})`;
    }
    // A build made before build-source.json existed: the project's own dist/ is its content's; a named folder could
    // hold any show's.
    if (!source && target.named) {
      return `${reason}, and ${distDir} does not say which content it was built from (no ${BUILD_SOURCE_FILE}): rebuild it yourself (${rebuildHint})`;
    }
    return undefined;
  }
  // What a stopped build left (client/, the packages link, ...) is the build's to replace; anything else is not.
  const entries = target.named && existsSync(distDir) ? readdirSync(distDir).filter((name) => !isBuildEntry(name)).sort() : [];
  if (entries.length) {
    return `${reason} in ${distDir} (DIST_DIR), which holds other files (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}) that a build would remove: point DIST_DIR at a build, or at an empty or new folder`;
  }
  return undefined;
}

function readBuildSource(distDir: string): BuildSource | undefined {
  try {
    return BuildSourceSchema.parse(JSON.parse(readFileSync(join(distDir, BUILD_SOURCE_FILE), 'utf8')));
  } catch {
    return undefined;
  }
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The environment's tip settings, with the field of service.json's show.tips each overrides (src/content/load.ts). */
const TIP_SETTINGS = [
  ['TIP_WALLET_ADDRESS', 'walletAddress'],
  ['TIP_NETWORK', 'network'],
  ['TIP_URL', 'url'],
] as const;

/**
 * How the build in clientDir differs from the build-time settings in the environment, or undefined. Every absolute
 * URL in a build (feed, documents, pages) was made from its SITE_URL; the tip settings are the build's too (/donate
 * and every document that offers tips): served as built, a wallet address set for this deployment was ignored, and
 * tips were offered to the content's placeholder.
 */
export function builtForOtherSettings(clientDir: string, vars: Record<string, string | undefined>): string | undefined {
  const show = builtShow(clientDir);
  const wanted = vars.SITE_URL?.trim().replace(/\/+$/, '');
  if (wanted) {
    const built = show?.siteUrl?.replace(/\/+$/, '');
    if (built !== wanted) return `the build is for ${built ?? 'an unknown address'} but SITE_URL is ${wanted}`;
  }
  for (const [name, key] of TIP_SETTINGS) {
    const value = vars[name];
    if (value && value !== show?.tips?.[key]) return `the build's tip ${key} is ${show?.tips?.[key] ?? 'unset'} but ${name} is ${value}`;
  }
  return undefined;
}

/** What a build was made for (service.json's show: its address and tip settings), or undefined when it cannot be read. */
function builtShow(clientDir: string): { siteUrl?: string; tips?: Partial<Record<(typeof TIP_SETTINGS)[number][1], string>> } | undefined {
  try {
    return (JSON.parse(readFileSync(join(clientDir, 'service.json'), 'utf8')) as { show?: ReturnType<typeof builtShow> }).show;
  } catch {
    return undefined;
  }
}
