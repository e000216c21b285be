// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// The site URL ({base_url}) comes from content/podcast.yaml, overridable with SITE_URL at build time.
// astro.config cannot import TypeScript directly, so the value is read again by the build from the same file;
// this copy only feeds Astro's own absolute URLs (canonical links, sitemap).
import { readFileSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { precompress } from './src/integration/precompress.ts';
import { assetManifest } from './src/integration/asset-manifest.ts';
import { contentCheck, contentUnchanged } from './src/integration/content-check.ts';
import { bulkDocumentsIntegration } from './src/integration/bulk-documents.ts';
import { replaceOutDir } from './src/integration/replace-out-dir.ts';
import { keptPages } from './src/integration/kept-pages.ts';
import { packagesLink } from './src/integration/packages-link.ts';
import { LICENSES_PATH } from './src/build/urls.ts';

// The build's threads (the bulk documents', precompress's, the semantic artifact's, the transcripts' helper) each load
// and strip the same TypeScript modules again: ~0.3-0.5 s of CPU a thread, on cores the build keeps busy. Node's
// compile cache keeps what was compiled between threads and builds (~0.15 s a thread once warm); the threads are
// started later and take it up from the environment. Node's default folder, which `npm start` uses too
// (hosts/node/compile-cache.js); a NODE_COMPILE_CACHE already set is kept.
const compileCache = enableCompileCache?.();
if (compileCache?.directory && !process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = compileCache.directory;

// A podcast.yaml that does not parse is reported by the content check (src/integration/content-check.ts).
const show = (() => {
  try {
    const dir = resolve(fileURLToPath(new URL('.', import.meta.url)), process.env.CONTENT_DIR || 'content');
    return parse(readFileSync(join(dir, 'podcast.yaml'), 'utf8')) ?? {};
  } catch {
    return {};
  }
})();
// The previous build's unchanged pages are linked back into the output as it is replaced, where Astro's incremental
// build finds them, instead of copied from its cache (src/integration/kept-pages.ts; first: its astro:build:done
// removes what it kept and Astro did not make again, before any later step walks the output).
const kept = keptPages();
const site = (process.env.SITE_URL || show.siteUrl || 'http://localhost:4321').replace(/\/+$/, '');

export default defineConfig({
  // An address that does not parse is the content check's to report (naming SITE_URL or siteUrl), not Astro's own
  // config check's ("Invalid URL", naming nothing).
  site: URL.parse(site) ? site : undefined,
  // A site served under a path (SITE_URL=https://example.org/podcast, behind a proxy or a CDN that maps that path to
  // this output's root): every address the build writes itself carries the path already (src/build/urls.ts); this
  // gives Astro's own assets (/_astro/*.css, *.js) the same prefix.
  base: URL.parse(site)?.pathname ?? '/',
  output: 'static',
  outDir: process.env.ASTRO_OUT_DIR || './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR || './node_modules/.astro',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  adapter: node({ mode: 'middleware' }),
  server: { host: process.env.HOST || 'localhost', port: Number(process.env.PORT) || 4321 },
  devToolbar: { enabled: false },
  // The licences of the packages the browser scripts bundle (lunr, lunr-languages, Astro's client router ...), which
  // their minified code no longer carries: MIT and MPL ask for their notices to travel with the code.
  vite: { build: { license: { fileName: LICENSES_PATH.slice(1) } } },
  // The client router (<ClientRouter /> in src/layouts/Base.astro) would otherwise prefetch every link on hover:
  // requests a listener never asked for, counted against the contract's 60-a-minute rate limit.
  prefetch: false,
  // A rebuild copies every page whose cacheKey (src/build/page-key.ts) and code are unchanged from the cache
  // instead of rendering it again: adding one episode renders that episode's page and its neighbours, not them all.
  experimental: { incrementalBuild: true },
  // contentCheck: a build of content with mistakes lists them all and exits 1 before rendering anything.
  // After prerendering, in this order: .br/.gz beside each text file of the build, then the bulk documents
  // (transcripts, chapters, the search index's files: thousands of files made on a worker thread while Astro
  // prerenders, src/integration/bulk-documents.ts, which precompress brings in); the content check's cache upkeep
  // (after every user of the per-episode cache, the bulk documents' thread included); /_manifest.json: what
  // every host needs per file. The previous build's output is moved aside when the build starts and removed at low
  // priority while it runs (src/integration/replace-out-dir.ts); its build:done, the last with work to do, waits for
  // that. The bulk documents' build:start comes before it: it takes the previous output's folders of per-episode
  // documents whole first (src/integration/kept-documents.ts). An output folder outside the project then gets a link
  // to the project's packages, which Astro's bundles in it import (src/integration/packages-link.ts: after
  // replaceOutDir, which would move it aside). Last, contentUnchanged: a build during which the content changed
  // (an editor's save) mixes old and new, and exits 1 saying so.
  integrations: [kept.integration, bulkDocumentsIntegration(), precompress(), contentCheck(), assetManifest(), replaceOutDir(kept), packagesLink(), contentUnchanged()],
});
