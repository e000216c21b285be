/**
 * Build step: a build into a folder outside the project (`DIST_DIR=/srv/podcast npm start`, or ASTRO_OUT_DIR) can
 * import the project's packages. With an adapter Astro writes its server and prerender bundles into the output
 * folder and imports them from there to render the pages; their bare imports (astro's runtime, @oslojs/encoding,
 * ...) are resolved by Node from the bundle's own location, and a folder outside the project has no node_modules
 * above it: the build failed with "Cannot find package '@oslojs/encoding'". (Astro only redirects a static build
 * without an adapter: withastro/astro#4736.)
 *
 * So when the output folder cannot resolve `astro`, a `node_modules` link to the project's own is made in it at
 * astro:build:start, once replace-out-dir has emptied the folder. The link stays with the build: `npm start`
 * serving that folder imports Astro's server entry from it too (hosts/node/astro-bridge.ts). The next build moves
 * it aside with the rest, and the removal unlinks it (fs.rm does not follow links).
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { PACKAGES_LINK } from '../../contract/schemas/build-source.ts';

/** Whether code in `dir` resolves the package `name` (Node walks up the node_modules folders from there). */
function resolvesFrom(dir: string, name: string): boolean {
  try {
    createRequire(join(dir, 'noop.js')).resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

export function packagesLink(): AstroIntegration {
  let root: string | undefined;
  let outDir: string | undefined;
  return {
    name: 'packages-link',
    hooks: {
      'astro:config:done': ({ config }) => {
        root = fileURLToPath(config.root);
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:start': ({ logger }) => {
        if (!root || !outDir || resolvesFrom(outDir, 'astro')) return;
        mkdirSync(outDir, { recursive: true });
        symlinkSync(join(root, 'node_modules'), join(outDir, PACKAGES_LINK), 'dir');
        logger.info(`${outDir} is outside the project: linked the project's packages into it (${PACKAGES_LINK})`);
      },
    },
  };
}
