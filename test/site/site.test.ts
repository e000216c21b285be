/**
 * The listener website in Debian's Chromium, against the real built server: home → episode, chapters and
 * transcript timestamps seek the player, `?t=` opens the moment, search as you type (API and in-browser
 * fallback), the 404 page, metadata on every page, axe-core scans (light and dark) and a screenshot of each
 * page (test-output/screenshots/, for review).
 *
 * The sample MP3s are short excerpts (about 30 s) of episodes whose transcripts run 13+ minutes, so a seek past
 * the end of the file clamps to its duration: expectations use min(t, duration).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.ts';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { AxeBuilder } from '@axe-core/playwright';
import { startServer, type RunningServer } from '../helpers/server.ts';

const SCREENSHOTS = resolve(import.meta.dirname, '../../test-output/screenshots');

interface ServiceEpisode {
  id: number;
  season: number;
  title: string;
  date?: string;
  url: string;
  transcript: string | null;
  hasSrt?: boolean;
  chapters?: Array<{ start: string; title: string }>;
}

let server: RunningServer;
let browser: Browser;
let episodes: ServiceEpisode[];
let showTitle: string;
/** An episode with a transcript and at least two chapters, and its page path. */
let episode: ServiceEpisode;
let episodePath: string;
/** A word that occurs in this episode's transcript and in no other episode. */
let word: string;

const path = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  mkdirSync(SCREENSHOTS, { recursive: true });

  const service = (await (await fetch(`${server.url}/service.json`)).json()) as { show: { title: string }; episodes: ServiceEpisode[] };
  episodes = service.episodes;
  showTitle = service.show.title;
  episode = episodes.find((e) => e.transcript && (e.chapters?.length ?? 0) >= 2)!;
  expect(episode, 'the sample podcast has an episode with a transcript and chapters').toBeDefined();
  episodePath = new URL(episode.url).pathname;

  const index = (await (await fetch(`${server.url}/search-index.json`)).json()) as Record<string, string>;
  const srt = await (await fetch(`${server.url}${new URL(episode.transcript!).pathname}`)).text();
  const others = Object.entries(index).filter(([id]) => Number(id) !== episode.id).map(([, text]) => text.toLowerCase());
  const candidates = srt
    .split(/\n/)
    .filter((line) => line && !/-->|^\d+$/.test(line))
    .flatMap((line) => line.replace(/^\p{Lu}\p{L}*:\s/u, '').split(/[^\p{L}]+/u))
    .filter((w) => /^\p{Ll}{8,}$/u.test(w));
  // Distinctive: no other episode has any word starting with its first 6 letters (so no stem or prefix overlap).
  word = candidates.find((w) => others.every((text) => !new RegExp(`(^|[^\\p{L}])${w.slice(0, 6)}`, 'u').test(text)))!;
  expect(word, 'a word unique to one transcript').toBeDefined();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A fresh page that records script errors and CSP violations: the pages must run under the server's strict
 * policy (script-src 'self' plus hashes), so any violation fails the test that caused it.
 */
async function open(options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; reducedMotion?: 'reduce' | 'no-preference' } = {}) {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  // A violation whose exception a script catches logs nothing by itself (a library probing for eval): the event
  // still fires, and a page with a report-to would send it.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to run: CSP ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
  return { page, problems, close: () => context.close() };
}

const audioState = (page: Page) =>
  page.evaluate(() => {
    const a = document.querySelector<HTMLAudioElement>('audio[data-player]')!;
    return { currentTime: a.currentTime, duration: a.duration, readyState: a.readyState };
  });

const waitForMetadata = (page: Page) =>
  page.waitForFunction(() => (document.querySelector<HTMLAudioElement>('audio[data-player]')?.readyState ?? 0) >= 1);

/** Waits until the player is at `t` (or at the end of the file when t is past it), allowing for playback since. */
const waitForTime = (page: Page, t: number) =>
  page.waitForFunction((t) => {
    const a = document.querySelector<HTMLAudioElement>('audio[data-player]')!;
    if (a.readyState < 1 || a.seeking) return false;
    const expected = Math.min(t, a.duration);
    return a.currentTime >= expected - 0.3 && a.currentTime <= expected + 4;
  }, t);

const jsonLd = async (page: Page) =>
  Promise.all((await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t) as unknown));

async function checkHead(page: Page) {
  expect(await page.title()).toContain(showTitle);
  expect(await page.locator('meta[name="description"]').getAttribute('content')).toBeTruthy();
  expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBeTruthy();
  expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toMatch(/^https?:\/\/.+\/artwork\.png$/);
  expect(await page.locator('link[rel="alternate"][type="application/rss+xml"]').getAttribute('href')).toMatch(/\/rss\.xml$/);
  expect(await page.locator('main').count()).toBe(1);
  // Structured data that parses and names the show as a PodcastSeries (PodcastEpisode pages refer to it too).
  expect(JSON.stringify(await jsonLd(page))).toContain('"@type":"PodcastSeries"');
}

describe('home page', () => {
  it('shows the show, subscribe links, the latest episode and the newest episodes, and leads to an episode', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}/`);
      await checkHead(page);
      expect(await page.locator('h1').textContent()).toBe(showTitle);
      const ld = (await jsonLd(page)).flat() as Array<Record<string, unknown>>;
      const series = ld.find((d) => d['@type'] === 'PodcastSeries')!;
      expect(series.name).toBe(showTitle);
      expect(series.webFeed).toMatch(/\/rss\.xml$/);

      // Subscribe: RSS first, then the platforms.
      const subscribe = page.getByRole('list', { name: 'Subscribe' });
      await expect.poll(() => subscribe.getByRole('link').first().textContent()).toContain('RSS');
      expect(await subscribe.getByRole('link', { name: 'Spotify' }).count()).toBe(1);

      // The list: the latest episodes, newest first (the rest are paged at /episodes/).
      const items = page.locator('[data-episode-list] > li');
      expect(await items.count()).toBe(Math.min(6, episodes.length));
      const titles = await page.locator('[data-episode-list] h3').allTextContents();
      const newest = [...episodes].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id);
      expect(titles.map((t) => t.trim())).toEqual(newest.slice(0, 6).map((e) => e.title));
      // The latest episode has a play button for the site's player.
      expect(await page.locator('section.latest [data-play-episode]').isVisible()).toBe(true);
      // The footer leads to the licences of the code the page runs (Vite's /licenses.md).
      const licenses = page.getByRole('navigation', { name: 'Feeds and developer resources' }).getByRole('link', { name: 'Licenses' });
      expect(await licenses.getAttribute('href')).toBe('/licenses.md');
      expect((await fetch(`${server.url}/licenses.md`)).status).toBe(200);

      const second = newest[1] ?? newest[0]!;
      await page.locator('[data-episode-list]').getByRole('link', { name: second.title, exact: true }).click();
      await page.waitForURL(`**${new URL(second.url).pathname}`);
      expect(await page.locator('h1').textContent()).toBe(second.title);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('episode page', () => {
  it('has the episode metadata, JSON-LD, chapters and the transcript in the HTML itself', async () => {
    const html = await (await fetch(`${server.url}${episodePath}`)).text();
    // The show's language and its writing direction (format.test.ts: textDirection).
    expect(html).toMatch(/<html lang="en" dir="ltr">/);
    // Readable without JavaScript: the transcript's text and timestamps are in the document.
    expect(html).toContain(word);
    expect(html).toMatch(/class="ts" href="\?t=\d+#t-\d+"/);
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      await checkHead(page);
      const ld = (await jsonLd(page)) as Array<Record<string, unknown>>;
      const ep = ld.find((d) => d['@type'] === 'PodcastEpisode')!;
      expect(ep.name).toBe(episode.title);
      expect(ep.episodeNumber).toBe(episode.id);
      expect((ep.partOfSeason as { seasonNumber: number }).seasonNumber).toBe(episode.season);
      expect(await page.locator('[data-chapters] a').count()).toBe(episode.chapters!.length);
      expect(await page.locator('[data-transcript] .transcript__p').count()).toBeGreaterThan(10);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('seeks the player when a chapter or a transcript timestamp is clicked, or a timestamp is activated by keyboard', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      await waitForMetadata(page);
      expect((await audioState(page)).currentTime).toBe(0);
      // The transcript is folded around the moment; every passage is a click away.
      await page.getByRole('button', { name: /Show the whole transcript/ }).click();

      // A chapter after the first.
      const chapter = page.locator('[data-chapters] a').nth(1);
      const chapterAt = Number(await chapter.getAttribute('data-seek'));
      expect(chapterAt).toBeGreaterThan(0);
      await chapter.click();
      await waitForTime(page, chapterAt);
      expect((await audioState(page)).currentTime).toBeGreaterThan(0);
      await page.waitForURL(new RegExp(`\\?t=${Math.floor(chapterAt)}$`));

      // The first transcript timestamp: back to the start.
      const starts = await page.locator('[data-transcript] [data-start]').evaluateAll((ps) => ps.map((p) => Number((p as HTMLElement).dataset.start)));
      const paragraphs = page.locator('[data-transcript] [data-start]');
      await paragraphs.nth(0).locator('a.ts').click();
      await waitForTime(page, starts[0]!);
      expect(await paragraphs.nth(0).getAttribute('class')).toContain('is-target');
      await page.waitForURL(new RegExp(`\\?t=${Math.floor(starts[0]!)}$`));

      // Keyboard: focus the next timestamp and press Enter.
      await paragraphs.nth(1).locator('a.ts').focus();
      await page.keyboard.press('Enter');
      await waitForTime(page, starts[1]!);
      expect((await audioState(page)).currentTime).toBeGreaterThan(starts[0]! + 1);
      expect(await paragraphs.nth(1).getAttribute('class')).toContain('is-target');
      expect(await paragraphs.nth(0).getAttribute('class')).not.toContain('is-target');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('opens ?t= with the player at that moment and the passage highlighted and scrolled into view', async () => {
    const { page, problems, close } = await open({ reducedMotion: 'reduce' });
    try {
      // A moment deep in the transcript, in the middle of a paragraph.
      await page.goto(`${server.url}${episodePath}`);
      const starts = await page.locator('[data-transcript] [data-start]').evaluateAll((ps) => ps.map((p) => Number((p as HTMLElement).dataset.start)));
      const k = Math.floor(starts.length * 0.6);
      const t = Math.floor(starts[k]!) + 2;
      expect(t).toBeLessThan(Math.floor(starts[k + 1]!));

      await page.goto(`${server.url}${episodePath}?t=${t}`);
      const target = page.locator('[data-transcript] .is-target');
      await target.waitFor();
      expect(await page.locator('[data-transcript] .is-target').count()).toBe(1);
      expect(Number(await target.getAttribute('data-start'))).toBe(starts[k]);
      await expect.poll(() => target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      })).toBe(true);
      await waitForTime(page, t);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('search page', () => {
  it('finds a word from one transcript as you type, keeps the query in the address, and opens the moment', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}/search/`);
      await checkHead(page);
      const apiAnswered = page.waitForResponse((r) => r.url().includes('/api/search?') && r.status() === 200);
      await page.getByRole('searchbox', { name: 'Search for' }).pressSequentially(word, { delay: 20 });
      await apiAnswered;
      const first = page.locator('[data-results] > li').first();
      await first.waitFor();
      await page.waitForURL(new RegExp(`\\?q=${word}$`));
      // The address changes when the last query starts; the list keeps the previous answer until its own arrives
      // (under load, a prefix's answer with other episodes first): wait for the answer to the word itself.
      await page.locator('[data-results]:not([aria-busy])').waitFor();
      await page.locator('[data-search-status]', { hasText: /1 episode matches/ }).waitFor();
      expect((await first.locator('h2').textContent())?.trim()).toBe(episode.title);
      expect((await first.locator('mark').first().textContent())?.toLowerCase()).toContain(word.slice(0, 6));
      expect(await page.locator('[data-search-status]').textContent()).toMatch(/1 episode matches/);

      const moment = first.locator('a.moment');
      const href = (await moment.getAttribute('href'))!;
      expect(href).toMatch(new RegExp(`^${episodePath}\\?t=\\d+$`));
      const t = Number(new URL(href, server.url).searchParams.get('t'));
      await moment.click();
      await page.waitForURL(`**${episodePath}?t=${t}`);
      const target = page.locator('[data-transcript] .is-target');
      await target.waitFor();
      // The highlighted passage contains the moment, and the word is said there or in the passage right after.
      const [start, end] = (await target.evaluate((el) => [Number((el as HTMLElement).dataset.start), Number((el as HTMLElement).dataset.end)])) as [number, number];
      expect(Math.floor(start)).toBeLessThanOrEqual(t);
      expect(t).toBeLessThanOrEqual(end);
      const nearby = await target.evaluate((el) => `${el.textContent} ${el.nextElementSibling?.textContent ?? ''}`);
      expect(nearby.toLowerCase()).toContain(word.slice(0, 6));
      await waitForTime(page, t);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('runs a shared ?q= address on arrival', async () => {
    const { page, close } = await open();
    try {
      await page.goto(`${server.url}/search/?q=${encodeURIComponent(word)}`);
      await page.locator('[data-results] > li').first().waitFor();
      expect(await page.getByRole('searchbox', { name: 'Search for' }).inputValue()).toBe(word);
    } finally {
      await close();
    }
  });

  it('links only web addresses from an answer: a javascript: or data: URL in a result is shown as text', async () => {
    const { page, problems, close } = await open();
    try {
      const result = (id: number, url: string) => ({ id, title: `Result ${id}`, url, start: 5, snippet: 'x' });
      await page.route('**/api/search**', (route) =>
        route.fulfill({
          contentType: 'application/json',
          body: JSON.stringify({
            query: word,
            total: 3,
            count: 3,
            results: [result(1, 'javascript:window.__x=1'), result(2, 'data:text/html,<b>x</b>'), result(3, `${server.url}/episodes/`)],
          }),
        }),
      );
      await page.goto(`${server.url}/search/?q=${encodeURIComponent(word)}`);
      await page.locator('[data-results] > li').nth(2).waitFor();
      const hrefs = await page.locator('[data-results] a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      // The first two titles stay anchors without an address (not links) and offer no moment; the third links.
      expect(hrefs).toEqual([null, null, `${server.url}/episodes/`, `${server.url}/episodes/`]);
      expect(await page.locator('[data-results] h2').allTextContents()).toEqual(['Result 1', 'Result 2', 'Result 3']);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('falls back to the published Lunr index in the browser when /api/search cannot be reached, with the same answer', async () => {
    const api = (await (await fetch(`${server.url}/api/search?q=${encodeURIComponent(word)}&limit=20`)).json()) as {
      total: number;
      results: Array<{ id: number; title: string; url: string; snippet?: string }>;
    };
    const { page, problems, close } = await open();
    try {
      let blocked = 0;
      await page.route('**/api/search**', (route) => {
        blocked++;
        return route.abort('connectionrefused');
      });
      const requested: string[] = [];
      page.on('request', (r) => void requested.push(new URL(r.url()).pathname));
      const indexLoaded = page.waitForResponse((r) => r.url().endsWith('/search/lunr-index.json') && r.ok());
      await page.goto(`${server.url}/search/`);
      await page.getByRole('searchbox', { name: 'Search for' }).fill(word);
      await indexLoaded;
      const first = page.locator('[data-results] > li').first();
      await first.waitFor();
      expect(blocked).toBeGreaterThan(0);
      await expect.poll(() => page.locator('[data-search-status]').textContent()).toMatch(/searched in your browser/);
      expect(await page.locator('[data-results] > li').count()).toBe(api.total);
      expect((await first.locator('h2').textContent())?.trim()).toBe(api.results[0]!.title);
      expect(await first.locator('a.moment').getAttribute('href')).toBe(path(api.results[0]!.url));
      expect(await first.locator('.snippet').textContent()).toBe(api.results[0]!.snippet!.replace(/[«»]/g, ''));
      // What the browser downloaded for it: the records of the results it shows, not /service.json's every episode.
      const records = requested.filter((p) => p.startsWith('/search/records/'));
      expect(new Set(records)).toEqual(new Set(api.results.map((r) => `/search/records/${r.id}.json`)));
      expect(requested).not.toContain('/service.json');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('reads the index again when a shard it names is gone (the site was rebuilt), and answers', async () => {
    const api = (await (await fetch(`${server.url}/api/search?q=${encodeURIComponent(word)}&limit=20`)).json()) as { total: number };
    const { page, problems, close } = await open();
    try {
      await page.route('**/api/search**', (route) => route.abort('connectionrefused'));
      // The first shard asked for is gone, as one is after a rebuild; the index read again names what is there.
      let gone = 0;
      await page.route('**/search/shards/**', (route) => (gone++ === 0 ? route.fulfill({ status: 404, body: '{}' }) : route.fallback()));
      const indexReads: string[] = [];
      page.on('request', (r) => void (new URL(r.url()).pathname === '/search/lunr-index.json' && indexReads.push(r.url())));
      await page.goto(`${server.url}/search/`);
      await page.getByRole('searchbox', { name: 'Search for' }).fill(word);
      await expect.poll(() => page.locator('[data-search-status]').textContent(), { timeout: 15_000 }).toMatch(/searched in your browser/);
      expect(await page.locator('[data-results] > li').count()).toBe(api.total);
      expect(gone).toBeGreaterThan(1);
      expect(indexReads).toHaveLength(2);
      // (The 404 the page itself provoked is the one console error a browser logs for it.)
      expect(problems.filter((p) => !/404/.test(p))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('goes back to /api/search once it answers again: 30 s after the failure, or when the browser comes online', async () => {
    const { page, problems, close } = await open();
    try {
      await page.clock.install();
      await page.route('**/api/search**', (route) => route.abort('connectionrefused'));
      const search = page.getByRole('searchbox', { name: 'Search for' });
      const status = page.locator('[data-search-status]');
      await page.goto(`${server.url}/search/`);
      await search.fill(word);
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/searched in your browser/);
      await page.unroute('**/api/search**');
      // Within the 30 s the browser keeps answering, without asking the API.
      let asked = 0;
      page.on('request', (r) => void (new URL(r.url()).pathname === '/api/search' && asked++));
      await search.fill(`${word} bees`);
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(new RegExp(`“${word} bees” \\(searched in your browser\\)`));
      expect(asked).toBe(0);
      await page.clock.fastForward('00:31');
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/search' && r.ok());
      await search.fill(word);
      await answered;
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(new RegExp(`“${word}”\\.$`));
      // Failing again, then online: the next search asks the API at once.
      await page.route('**/api/search**', (route) => route.abort('connectionrefused'));
      await search.fill(`${word} bees`);
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(new RegExp(`“${word} bees” \\(searched in your browser\\)`));
      await page.unroute('**/api/search**');
      await page.evaluate(() => dispatchEvent(new Event('online')));
      const again = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/search' && r.ok());
      await search.fill(word);
      await again;
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(new RegExp(`“${word}”\\.$`));
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('404, sitemap and robots.txt', () => {
  it('answers an unknown page with the friendly 404 page, linking home and to search', async () => {
    const res = await fetch(`${server.url}/no/such/page`, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(404);
    const { page, close } = await open();
    try {
      const response = await page.goto(`${server.url}/no/such/page`);
      expect(response?.status()).toBe(404);
      await checkHead(page);
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
      await expect.poll(() => page.locator('main').getByRole('link', { name: /home page/i }).count()).toBe(1);
      await page.locator('main').getByRole('searchbox').fill(word);
      await page.locator('main').getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/\/search\/\?q=/);
      await page.locator('[data-results] > li').first().waitFor();
    } finally {
      await close();
    }
  });

  it('publishes a sitemap of every page and a robots.txt that points at it', async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const xml = await res.text();
    for (const e of episodes) expect(xml).toContain(`<loc>${e.url}</loc>`);
    expect(xml).toMatch(/<loc>[^<]+\/search\/<\/loc>/);
    const robots = await (await fetch(`${server.url}/robots.txt`)).text();
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
  });
});

describe('accessibility, small screens and screenshots', () => {
  const pages = () => [
    { name: 'home', path: '/' },
    { name: 'episodes', path: '/episodes/' },
    { name: 'episode', path: `${episodePath}?t=60` },
    { name: 'search', path: `/search/?q=${encodeURIComponent(word)}`, ready: '[data-results] > li' },
    { name: '404', path: '/no/such/page' },
  ];

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`axe finds no serious or critical violations (${colorScheme})`, async () => {
      for (const { name, path, ready } of pages()) {
        const { page, problems, close } = await open({ colorScheme });
        try {
          await page.goto(`${server.url}${path}`);
          if (ready) await page.locator(ready).first().waitFor();
          const results = await new AxeBuilder({ page }).analyze();
          const serious = results.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${name}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
          expect(serious).toEqual([]);
          await page.screenshot({ path: resolve(SCREENSHOTS, `${name}-desktop-${colorScheme}.png`), fullPage: true });
          expect(problems).toEqual([]);
        } finally {
          await close();
        }
      }
    }, 120_000);
  }

  it('fits a 320 px wide screen without horizontal scrolling', async () => {
    for (const { name, path, ready } of pages()) {
      const { page, close } = await open({ width: 320, height: 640 });
      try {
        await page.goto(`${server.url}${path}`);
        if (ready) await page.locator(ready).first().waitFor();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: resolve(SCREENSHOTS, `${name}-mobile.png`), fullPage: false });
      } finally {
        await close();
      }
    }
  }, 120_000);
});
