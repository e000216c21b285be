import { z } from 'zod';

/**
 * `<outDir>/build-source.json`: the content folder (absolute) a build was made from. It sits beside client/, not in
 * it, so it is never published. `npm start` reads it before it builds over an existing build (made for another
 * SITE_URL, or older than an edit), so that it never replaces the build of one show with a build of other content.
 */
export const BUILD_SOURCE_FILE = 'build-source.json';

export const BuildSourceSchema = z.object({ contentDir: z.string().min(1) });
export type BuildSource = z.infer<typeof BuildSourceSchema>;

/**
 * `<outDir>/prerendered.json`: the files of client/ Astro made in that build, which the next build may link back in
 * place instead of copying them from Astro's cache (src/integration/kept-pages.ts). Beside client/, never published.
 */
export const PRERENDERED_FILE = 'prerendered.json';

/**
 * `<outDir>/kept-documents.json`: the keys of the bulk documents a build published, whose folders the next build may
 * take whole instead of linking each file again (src/integration/kept-documents.ts). Beside client/, never published.
 */
export const KEPT_DOCUMENTS_FILE = 'kept-documents.json';

/** The link a build makes in an output folder outside the project, to the project's packages (src/integration/packages-link.ts). */
export const PACKAGES_LINK = 'node_modules';

/** The prefix of the folder an earlier output is moved into while it is removed (src/integration/replace-out-dir.ts). */
export const REPLACED_PREFIX = '.replaced-';

/**
 * What a build, or one that was stopped, leaves in its output folder: Astro's client/ and server/, build-source.json,
 * prerendered.json, kept-documents.json, the packages link, the Cloudflare and Netlify build steps' folders, an earlier output being
 * removed, and the .git Astro keeps. Anything else there is not the build's, and `npm start` does not build over it
 * (hosts/node/build-guard.ts).
 */
export function isBuildEntry(name: string): boolean {
  return ['client', 'server', BUILD_SOURCE_FILE, PRERENDERED_FILE, KEPT_DOCUMENTS_FILE, PACKAGES_LINK, 'cloudflare', 'netlify', '.git'].includes(name) || name.startsWith(REPLACED_PREFIX);
}
