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
