// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// The site URL ({base_url}) comes from content/podcast.yaml, overridable with SITE_URL at build time.
// astro.config cannot import TypeScript directly, so the value is read again by the build from the same file;
// this copy only feeds Astro's own absolute URLs (canonical links, sitemap).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { precompress } from './src/integration/precompress.ts';

const show = parse(readFileSync(new URL('./content/podcast.yaml', import.meta.url), 'utf8'));
const site = (process.env.SITE_URL || show.siteUrl || 'http://localhost:4321').replace(/\/+$/, '');

export default defineConfig({
  site,
  output: 'static',
  outDir: process.env.ASTRO_OUT_DIR || './dist',
  cacheDir: process.env.ASTRO_CACHE_DIR || './node_modules/.astro',
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  adapter: node({ mode: 'middleware' }),
  server: { host: process.env.HOST || 'localhost', port: Number(process.env.PORT) || 4321 },
  devToolbar: { enabled: false },
  // The client router (<ClientRouter /> in src/layouts/Base.astro) would otherwise prefetch every link on hover:
  // requests a listener never asked for, counted against the contract's 60-a-minute rate limit.
  prefetch: false,
  // Writes .br/.gz beside each text file of the build, served from memory by src/server.
  integrations: [precompress()],
});
