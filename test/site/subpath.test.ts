/**
 * A site served under a path: SITE_URL=https://pod.example/podcast, behind a proxy (or a CDN) that maps /podcast/* to
 * the output's root. Every address a page gives, Astro's own stylesheets and scripts included, must carry the path,
 * or the browser asks the host's root for it. This test is that proxy: it takes the path off each same-site link of
 * the pages and asks the real server for the rest. (Astro's /_astro/ assets had no prefix until `base` was set from
 * SITE_URL in astro.config.mjs.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineEngine, offlinePage } from '../../src/scripts/offline-search.ts';
import { buildSite, removeBuild } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

const SITE = 'https://pod.example/podcast';
let distDir: string;
let server: RunningServer;

beforeAll(async () => {
  distDir = await buildSite({ name: 'subpath', env: { SITE_URL: SITE } });
  server = await startServer({ distDir, env: { SITE_URL: SITE, RATE_LIMIT_MAX: '100000' } });
}, 240_000);
afterAll(async () => {
  await server?.stop();
  if (distDir) removeBuild(distDir);
});

/** The same-site addresses a page links to or loads, as paths (the site's own absolute URLs included). */
function sameSite(html: string): string[] {
  const found = new Set<string>();
  for (const [, url] of html.matchAll(/(?:href|src|data-api|data-index|data-passages)="([^"#][^"]*)"/g)) {
    const value = url!.replace(/&amp;/g, '&');
    if (value.startsWith(`${SITE}/`)) found.add(value.slice('https://pod.example'.length));
    else if (value.startsWith('/') && !value.startsWith('//')) found.add(value);
  }
  return [...found];
}

describe('a site served under a path (SITE_URL with /podcast)', () => {
  it.each(['/', '/episodes/', '/episodes/001-sourdough/', '/search/'])('%s: every same-site address carries /podcast and answers through the proxy', async (page) => {
    const html = await (await fetch(`${server.url}${page}`)).text();
    const links = sameSite(html);
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter((path) => !path.startsWith('/podcast/'))).toEqual([]);
    // Astro's stylesheet and scripts among them.
    expect(links.some((path) => /^\/podcast\/_astro\/.+\.css$/.test(path))).toBe(true);
    for (const path of links) {
      const target = path.slice('/podcast'.length);
      // The search form's API address (data-api) is asked with a query, as the form does.
      const res = await fetch(`${server.url}${target === '/api/search' ? `${target}?q=bees` : target}`, { method: target.endsWith('.mp3') ? 'HEAD' : 'GET' });
      await res.arrayBuffer();
      expect([path, res.status]).toEqual([path, 200]);
    }
  }, 60_000);

  // The website's offline search (and an app doing as docs.md says) reads the index's layout, whose paths are the
  // site's: under /podcast they must be fetched under /podcast too (they were resolved against the host alone).
  it('the offline search fetches every part of the index under /podcast', async () => {
    const asked: string[] = [];
    const viaProxy = async (url: string) => {
      asked.push(url);
      if (!url.startsWith(`${SITE}/`)) throw new Error(`asked outside the site's path: ${url}`);
      const res = await fetch(`${server.url}${url.slice(SITE.length)}`);
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return res;
    };
    const engine = await offlineEngine({ index: `${SITE}/search/lunr-index.json`, service: `${SITE}/service.json` }, viaProxy);
    const { total, results } = await offlinePage(engine, 'varroa', { limit: 10, offset: 0 });
    expect(total).toBeGreaterThan(0);
    expect(results[0]!.id).toBe(3);
    expect(results[0]!.url).toMatch(new RegExp(`^${SITE}/episodes/003-beekeeping/\\?t=\\d+$`));
    // The transcript shards and the records were read, all under the path.
    expect(asked.some((url) => url.includes('/search/shards/'))).toBe(true);
    expect(asked.some((url) => url.includes('/search/records/'))).toBe(true);
    expect(asked.filter((url) => !url.startsWith(`${SITE}/`))).toEqual([]);
  });
});
