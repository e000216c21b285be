/**
 * Validates content/ before Astro builds anything, with the same checker as `npm run check`: with mistakes the
 * build prints every problem (file, field, what was expected) and exits 1, instead of failing inside a page with
 * a stack trace that shows only the first one. In `astro dev` the problems are logged and the server keeps
 * running, so an editor can fix them with live reload.
 */
import type { AstroIntegration } from 'astro';
import { loadContent } from '../content/load.ts';
import { formatProblems } from '../content/report.ts';

export function contentCheck(): AstroIntegration {
  return {
    name: 'content-check',
    hooks: {
      'astro:config:setup': ({ command, logger }) => {
        if (command !== 'build' && command !== 'dev') return;
        const dir = process.env.CONTENT_DIR || 'content';
        const { content, errors } = loadContent(dir);
        if (content) return;
        const report = formatProblems(dir, errors);
        if (command === 'dev') {
          logger.error(`\n${report}`);
          return;
        }
        console.error(`${report}\n\nThe build stopped: fix these in ${dir}/ (npm run check lists them without building).`);
        process.exit(1);
      },
    },
  };
}
