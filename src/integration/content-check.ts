/**
 * Validates content/ before Astro builds anything, with the same checker as `npm run check`: with mistakes the
 * build prints every problem (file, field, what was expected) and exits 1, instead of failing inside a page with
 * a stack trace that shows only the first one. In `astro dev` the problems are logged and the server keeps
 * running, so an editor can fix them with live reload. A build that gets through writes, beside client/, which
 * content made it (contract/schemas/build-source.ts).
 */
import { writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { BUILD_SOURCE_FILE, type BuildSource } from '../../contract/schemas/build-source.ts';
import { configureParseCache, parseCacheFolder, parseCacheSummary, pruneParseCache } from '../content/parse-cache.ts';
import { formatNotes, formatProblems } from '../content/report.ts';
import { changedFiles, contentDir, contentEdited, contentStamps, loadSharedContent } from '../content/site.ts';
import { prewarmTranscripts } from '../content/transcript-prewarm.ts';
import { loadCuesOnDemand } from '../content/load.ts';

/** How long `astro dev` waits after an edit to the content folder for more before it reloads the pages. */
const RELOAD_DEBOUNCE_MS = 100;

/** The content folder as the build found it: a file saved while it runs is read by some of its threads only. */
let started: Map<string, string> | undefined;

export function contentCheck(): AstroIntegration {
  let outDir: string | undefined;
  return {
    name: 'content-check',
    hooks: {
      'astro:config:setup': async ({ command, config, logger }) => {
        if (command !== 'build' && command !== 'dev') return;
        // Parsed transcripts and search analysis are kept by content hash beside Astro's own cache (src/content/parse-cache.ts), and
        // the content read here is the one the pages get (src/content/site.ts): one read per build.
        configureParseCache(parseCacheFolder(fileURLToPath(config.cacheDir)));
        const dir = contentDir();
        if (command === 'build') started = contentStamps(dir);
        // A large show's transcripts are parsed on two threads (src/content/transcript-prewarm.ts).
        const prewarm = command === 'build' ? prewarmTranscripts(join(dir, 'transcripts')) : undefined;
        let loaded: ReturnType<typeof loadSharedContent>;
        // A build renders the pages of a few episodes with their transcripts and keeps the rest (src/integration/kept-pages.ts):
        // their cues are made when a page reads them (src/content/load.ts), not a million of them as the content loads.
        loadCuesOnDemand(command === 'build');
        try {
          loaded = loadSharedContent(dir);
        } finally {
          await prewarm?.finish();
        }
        const { content, errors, notes } = loaded;
        if (notes.length) logger.warn(`\n${formatNotes(dir, notes)}`);
        if (content) return;
        const report = formatProblems(dir, errors);
        if (command === 'dev') {
          logger.error(`\n${report}`);
          return;
        }
        console.error(`${report}\n\nThe build stopped: fix these in ${dir}/ (npm run check lists them without building).`);
        process.exit(1);
      },
      // The pages read the content through getContent(), not through Astro's content layer, so Astro sees no edit
      // to it: without this an editor's new episode stayed a 404 and an edited title stayed as it was until restart.
      'astro:server:setup': ({ server, logger }) => {
        const dir = resolve(contentDir());
        let pending: ReturnType<typeof setTimeout> | undefined;
        const reload = () => {
          contentEdited();
          // Read as the pages read it (the same folder name), so that they get this very result.
          const { content, errors, notes } = loadSharedContent(contentDir());
          if (notes.length) logger.warn(`\n${formatNotes(contentDir(), notes)}`);
          if (content) logger.info(`content changed: ${content.episodes.length} episodes; pages reloaded`);
          else logger.error(`content changed, with mistakes:\n${formatProblems(contentDir(), errors)}`);
          // Astro's route cache holds each page's getStaticPaths; this event clears it in every server environment.
          for (const [name, environment] of Object.entries(server.environments)) {
            if (name !== 'client') environment.hot.send('astro:content-changed', {});
          }
          server.environments.client.hot.send({ type: 'full-reload', path: '*' });
        };
        const onEvent = (path: string) => {
          if (path !== dir && !path.startsWith(dir + sep)) return;
          // An editor's save (or a copy of an episode and its transcript) is several events: one reload for them.
          clearTimeout(pending);
          pending = setTimeout(reload, RELOAD_DEBOUNCE_MS);
        };
        server.watcher.add(dir);
        for (const event of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) server.watcher.on(event, onEvent);
      },
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
      },
      'astro:build:done': ({ logger }) => {
        const { made, kept } = parseCacheSummary();
        logger.info(`per-episode work (transcript parsing, search analysis): ${made} made, ${kept} kept from an earlier build`);
        pruneParseCache();
        // Which content this output was made from: read before `npm start` builds over it (hosts/node/build-guard.ts).
        const source: BuildSource = { contentDir: resolve(contentDir()) };
        if (outDir) writeFileSync(join(outDir, BUILD_SOURCE_FILE), `${JSON.stringify(source)}\n`);
      },
    },
  };
}

/**
 * The last step of a build: an edit saved while it ran reaches the pages and documents made after it, not those
 * made before, so the output mixes the two. The build then says which files changed and exits 1 (Astro's own exit
 * would be 0), once the output is otherwise complete; the next build makes it whole.
 */
export function contentUnchanged(): AstroIntegration {
  return {
    name: 'content-unchanged',
    hooks: {
      'astro:build:done': ({ logger }) => {
        const changed = started ? changedFiles(started, contentStamps(contentDir())) : [];
        if (!changed.length) return;
        const named = changed.slice(0, 5).map((p) => relative(process.cwd(), p)).join(', ');
        const more = changed.length > 5 ? `, and ${changed.length - 5} more` : '';
        logger.error(`content changed while the site was being built (${named}${more}): this output mixes the old and the new content. Build again.`);
        process.exit(1);
      },
    },
  };
}
