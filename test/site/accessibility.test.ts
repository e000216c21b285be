/**
 * Accessibility and usability of the listener website beyond what axe finds on a still page, in Debian's Chromium
 * against the real built server: what happens when the listener acts (plays, tabs, follows along, types a search),
 * the states a control shows, and the OAuth hand-over page at 320 CSS px.
 * Every page runs under the server's strict CSP: any violation, or a script error, fails the test that caused it.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUTOPLAY_ARG, CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.ts';
import { chromium, type Browser, type Locator, type Page } from 'playwright';
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

describe('focus not obscured by the player bar (WCAG 2.4.11)', () => {
  for (const viewport of [{ width: 390, height: 700 }, { width: 1280, height: 720 }]) {
    it(`no control reached with Tab is hidden under the player bar (${viewport.width}×${viewport.height})`, async () => {
      const { page, problems, close } = await open(viewport);
      try {
        await page.goto(`${server.url}${episodePath}`);
        await page.locator('[data-dock]').waitFor({ state: 'visible' });
        await page.locator('main').focus();
        const covered: string[] = [];
        let checked = 0;
        for (let i = 0; i < 200; i++) {
          await page.keyboard.press('Tab');
          const where = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null;
            const dock = document.querySelector<HTMLElement>('[data-dock]')!;
            if (!el || el === document.body || dock.contains(el)) return { inDock: true };
            const r = el.getBoundingClientRect();
            const d = dock.getBoundingClientRect();
            const name = `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
            return { inDock: false, name, bottom: r.bottom, top: r.top, dockTop: d.top, scrolled: window.scrollY };
          });
          // The bar comes last in the page: once Tab reaches it, every control of the page has been checked.
          if (where.inDock) break;
          checked++;
          if (where.bottom! > where.dockTop! + 0.5) covered.push(`${where.name}: ${where.top}–${where.bottom} under the bar from ${where.dockTop}`);
        }
        expect(checked).toBeGreaterThan(10);
        expect(await page.evaluate(() => window.scrollY), 'the page scrolled along').toBeGreaterThan(0);
        expect(covered).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);
  }
});

describe('following along', () => {
  it('keeps keyboard focus on the page when following along folds away the passage that held it', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      const passages = page.locator('[data-transcript] [data-start]');
      await expect.poll(() => page.locator('[data-transcript] [data-start]:visible').count()).toBeLessThanOrEqual(5);
      await page.locator('[data-listen-play]').click();
      await playedPast(page, 0.2);
      const starts = await passages.evaluateAll((ps) => ps.map((p) => Number((p as HTMLElement).dataset.start)));
      const first = passages.first().locator('a[data-seek]');
      await first.focus();
      expect(await first.evaluate((el) => el === document.activeElement)).toBe(true);
      // The third passage playing: the fold shows one passage before it, so the first one is folded away.
      const { duration } = await page.evaluate(() => ({ duration: document.querySelector<HTMLAudioElement>('audio[data-player]')!.duration }));
      expect(starts[2]).toBeLessThan(duration - 1);
      await page.evaluate((t) => (document.querySelector<HTMLAudioElement>('audio[data-player]')!.currentTime = t), starts[2]! + 0.5);
      await expect.poll(() => passages.first().getAttribute('hidden')).toBe('until-found');
      const focus = await page.evaluate(() => {
        const el = document.activeElement;
        return { body: el === document.body || el === null, visible: el instanceof HTMLElement && el.checkVisibility(), inTranscript: !!el?.closest('.transcript-section') };
      });
      expect(focus).toEqual({ body: false, visible: true, inTranscript: true });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('OAuth hand-over page', () => {
  it('wraps a long app address at 320 CSS px instead of scrolling sideways', async () => {
    const host = `${'averylongclientapplicationname'.repeat(2)}.example`;
    const redirect = `https://${host}/${'callback'.repeat(12)}`;
    const registered = await fetch(`${server.url}/oauth/register`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect] }) });
    expect(registered.status).toBe(201);
    const u = new URL(`${server.url}/oauth/authorize`);
    const params = { response_type: 'code', client_id: 'public', redirect_uri: redirect, code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), code_challenge_method: 'S256', state: 'st' };
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    const { page, problems, close } = await open({ width: 320, height: 640 });
    try {
      await page.goto(u.href);
      expect(await page.locator('h1').textContent()).toBe(`Continue to ${host}?`);
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
      expect(widths.view).toBe(320);
      expect(widths.scroll).toBeLessThanOrEqual(320);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('search', () => {
  it('announces the number of results once typing has settled, not at every keystroke', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}/search/`);
      const query = episode.title.split(/\s+/).sort((a, b) => b.length - a.length)[0]!.toLowerCase().replace(/[^\p{L}]/gu, '');
      expect(query.length).toBeGreaterThanOrEqual(5);
      const live = page.locator('[role="status"][data-search-status]');
      expect(await live.getAttribute('role')).toBe('status');
      await page.evaluate(() => {
        const status = document.querySelector('[role="status"][data-search-status]')!;
        const said: string[] = [];
        (window as unknown as { said: string[] }).said = said;
        new MutationObserver(() => {
          const text = status.textContent?.trim() ?? '';
          if (text) said.push(text);
        }).observe(status, { childList: true, characterData: true, subtree: true });
      });
      // Each pause between keys is longer than the results' debounce, so the visible list updates as you type.
      const results = page.locator('[data-results] > li');
      const box = page.getByRole('searchbox', { name: 'Search for' });
      for (const [i, ch] of [...query].entries()) {
        const answered = page.waitForResponse((r) => r.url().includes('/api/search?') && new URL(r.url()).searchParams.get('q') === query.slice(0, i + 1));
        await box.press(ch);
        await answered;
      }
      await results.first().waitFor();
      await expect.poll(() => live.textContent(), { timeout: 10_000 }).toMatch(new RegExp(`match(es)? “${query}”`));
      const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
      expect(said.length, said.join(' | ')).toBeLessThanOrEqual(2);
      expect(said.at(-1)).toMatch(new RegExp(`match(es)? “${query}”`));
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('keyboard shortcuts', () => {
  it('can be turned off, and stay off on the next page (WCAG 2.1.4)', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      // The player's own handler marks the keys it answers (preventDefault); a listener after it reads the mark.
      const answered = async (key: string) => {
        await page.evaluate(() => {
          (window as unknown as { lastKey?: boolean }).lastKey = undefined;
          window.addEventListener('keydown', (e) => ((window as unknown as { lastKey?: boolean }).lastKey = e.defaultPrevented), { once: true });
        });
        await page.keyboard.press(key);
        return page.evaluate(() => (window as unknown as { lastKey?: boolean }).lastKey);
      };
      const help = page.locator('#keyboard-shortcuts');
      await expect.poll(() => help.isVisible()).toBe(true);
      await help.locator('summary').click();
      const toggle = help.getByRole('checkbox', { name: 'Use keyboard shortcuts' });
      expect(await toggle.isChecked()).toBe(true);
      const offered = page.locator('[aria-keyshortcuts]');
      expect(await offered.count()).toBeGreaterThan(0);
      await toggle.uncheck();
      // Screen readers would still offer the keys (aria-keyshortcuts) that no longer do anything.
      expect(await offered.count()).toBe(0);

      await page.locator('h1').click();
      expect(await answered('k')).toBe(false);
      expect(await answered('l')).toBe(false);
      expect(await page.evaluate(() => document.querySelector<HTMLAudioElement>('audio[data-player]')!.paused)).toBe(true);

      // A page loaded anew (not a client-side navigation): the choice was kept in the browser.
      await page.reload();
      await page.locator('#keyboard-shortcuts summary').click();
      const again = page.locator('#keyboard-shortcuts').getByRole('checkbox', { name: 'Use keyboard shortcuts' });
      expect(await again.isChecked()).toBe(false);
      expect(await offered.count()).toBe(0);
      await page.locator('h1').click();
      expect(await answered('k')).toBe(false);
      await again.check();
      expect(await offered.count()).toBeGreaterThan(0);
      await page.locator('h1').click();
      expect(await answered('k')).toBe(true);
      await playedPast(page, 0.2);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('states that show', () => {
  /** WCAG relative luminance contrast of two computed rgb()/rgba() colours. */
  const contrast = (a: string, b: string) => {
    const lum = (c: string) => {
      const [r, g, b] = c.match(/[\d.]+/g)!.slice(0, 3).map(Number).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
    return (hi + 0.05) / (lo + 0.05);
  };

  it('a pressed toggle is filled, against the page at 3:1 or more, and stays distinct in forced colours', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      const follow = page.locator('[data-follow]');
      const unfold = page.locator('[data-unfold]');
      await follow.waitFor();
      expect(await follow.getAttribute('aria-pressed')).toBe('true');
      const look = (l: Locator) => l.evaluate(async (el) => {
        // Under reduced motion every property change is a 0.01 ms transition (global.css), whose first frame
        // still shows the old colour: read the colours once it has run.
        await Promise.all(el.getAnimations().map((a) => a.finished));
        const s = getComputedStyle(el);
        let bg = 'rgba(0, 0, 0, 0)';
        for (let p: Element | null = el.parentElement; p && /rgba\(0, 0, 0, 0\)|transparent/.test(bg); p = p.parentElement) bg = getComputedStyle(p).backgroundColor;
        if (/rgba\(0, 0, 0, 0\)|transparent/.test(bg)) bg = getComputedStyle(document.body).backgroundColor;
        return { background: s.backgroundColor, color: s.color, around: bg };
      });
      const pressed = await look(follow);
      const unpressed = await look(unfold);
      expect(pressed.background).not.toBe(unpressed.background);
      expect(contrast(pressed.background, pressed.around)).toBeGreaterThanOrEqual(3);
      expect(contrast(pressed.background, pressed.color)).toBeGreaterThanOrEqual(4.5);

      await page.emulateMedia({ forcedColors: 'active' });
      const forcedPressed = await look(follow);
      const forcedUnpressed = await look(unfold);
      expect(forcedPressed.background).not.toBe(forcedUnpressed.background);
      expect(contrast(forcedPressed.background, forcedPressed.color)).toBeGreaterThanOrEqual(4.5);

      // Unpressed, it looks like any other button again.
      await page.emulateMedia({ forcedColors: 'none' });
      await follow.click();
      expect((await look(follow)).background).toBe(unpressed.background);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('toggle buttons', () => {
  const accessibleName = (button: Locator) => button.evaluate((el) => (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim());

  it('a button whose label says its state (Play / Pause) does not also claim a pressed state', async () => {
    const { page, problems, close } = await open();
    try {
      // Pressed state and a changing label together read as "Pause, toggle button, pressed": both say the same
      // thing, in opposite directions. A toggle keeps one label; a button whose label changes is no toggle.
      const check = async (button: Locator, act: () => Promise<void>) => {
        const before = { name: await accessibleName(button), pressed: await button.getAttribute('aria-pressed') };
        await act();
        const after = { name: await accessibleName(button), pressed: await button.getAttribute('aria-pressed') };
        const label = `${before.name} → ${after.name}`;
        if (before.pressed !== null || after.pressed !== null) expect(after.name, label).toBe(before.name);
        return { before, after };
      };

      await page.goto(`${server.url}/`);
      const home = page.locator('.latest button[data-play-episode]');
      const homeRun = await check(home, async () => {
        await home.click({ timeout: 5_000 });
        await playedPast(page, 0.2);
        await expect.poll(() => accessibleName(home)).toMatch(/^Pause/);
      });
      expect(homeRun.before.name).toMatch(/^Play/);

      await page.goto(`${server.url}${episodePath}`);
      const play = page.locator('[data-listen-play]');
      await check(play, async () => {
        await play.click();
        await expect.poll(() => accessibleName(play)).toBe('Pause');
      });

      const follow = page.locator('[data-follow]');
      await follow.waitFor();
      const followRun = await check(follow, () => follow.click());
      expect(followRun.before.pressed).toBe('true');
      expect(followRun.after.pressed).toBe('false');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
