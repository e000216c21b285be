import { z } from 'zod';

/**
 * `<outDir>/build-source.json`: the content folder (absolute) a build was made from. It sits beside client/, not in
 * it, so it is never published. `npm start` reads it before it builds over an existing build (made for another
 * SITE_URL, or older than an edit), so that it never replaces the build of one show with a build of other content.
 */
export const BUILD_SOURCE_FILE = 'build-source.json';

export const BuildSourceSchema = z.object({ contentDir: z.string().min(1) });
export type BuildSource = z.infer<typeof BuildSourceSchema>;
