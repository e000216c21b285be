/**
 * Accessibility and usability of the listener website beyond what axe finds on a still page, in Debian's Chromium
 * against the real built server: what happens when the listener acts (plays, tabs, follows along, types a search),
 * the states a control shows, and the OAuth hand-over page at 320 CSS px.
 * Every page runs under the server's strict CSP: any violation, or a script error, fails the test that caused it.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUTOPLAY_ARG, CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.ts';
import { chromium, type Browser, type Page } from 'playwright';
import { startServer, type RunningServer } from '../helpers/server.ts';

interface ServiceEpisode {
  id: number;
  title: string;
  url: string;
  transcript: string | null;
  chapters?: Array<{ start: string; title: string }>;
}

let server: RunningServer;
let browser: Browser;
let episode: ServiceEpisode;
let episodePath: string;

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, AUTOPLAY_ARG] });
  const service = (await (await fetch(`${server.url}/service.json`)).json()) as { episodes: ServiceEpisode[] };
  episode = service.episodes.find((e) => e.transcript && (e.chapters?.length ?? 0) >= 2)!;
  episodePath = new URL(episode.url).pathname;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(options: { width?: number; height?: number } = {}) {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    // Instant scrolling: a smooth scroll still under way would make the positions measured here arbitrary.
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to run: CSP ${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, problems, close: () => context.close() };
}

const playedPast = (page: Page, t: number) =>
  page.waitForFunction((t) => {
    const a = document.querySelector<HTMLAudioElement>('audio[data-player]');
    return !!a && !a.paused && a.currentTime > t;
  }, t, { timeout: 20_000 });

describe("the home page's Play button", () => {
  it('starts the latest episode in the player', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}/`);
      const latest = (await page.locator('.latest h3 a').textContent())!.trim();
      const play = page.locator('.latest button[data-play-episode]');
      await play.click({ timeout: 5_000 });
      await playedPast(page, 0.2);
      expect(await page.locator('[data-dock] [data-dock-link]').textContent()).toBe(latest);
      expect(await page.locator('audio[data-player]').getAttribute('aria-label')).toBe(`Episode audio: ${latest}`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
