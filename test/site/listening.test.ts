/**
 * Listening as in a podcast player, in Debian's Chromium against the real built server (issue 19):
 * - one player for the whole visit: start an episode, go to the episode list, home and search, and the same
 *   <audio> element keeps playing, its currentTime advancing (Astro's client router, transition:persist);
 * - resume: leave mid-episode, come back, and be offered the same position; finished episodes marked played;
 * - Media Session metadata and action handlers; the page's keyboard shortcuts;
 * - long transcripts fold around the moment, with a button for the whole transcript;
 * - the episode list paged and filtered by season, guest and topic, sorted by date, as plain pages;
 * - everything without JavaScript as plain pages and links.
 * Every page runs under the server's strict CSP: any violation, or a script error, fails the test.
 *
 * Works with the short sample MP3s (about 33 s) and with full-length ones: playback is checked within the
 * first 20 s, and seeks past the end of the file clamp to its duration.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AUTOPLAY_ARG, CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.ts';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright';
import { startServer, type RunningServer } from '../helpers/server.ts';

const LAUNCH_ARGS = [...CHROMIUM_ARGS, AUTOPLAY_ARG];

interface ServiceEpisode {
  id: number;
  season: number;
  title: string;
  date?: string;
  url: string;
  transcript: string | null;
  guests?: string[];
  topics?: string[];
  chapters?: Array<{ start: string; title: string }>;
}

let server: RunningServer;
let browser: Browser;
let episodes: ServiceEpisode[];
let showTitle: string;
let episode: ServiceEpisode;
let episodePath: string;

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS });
  const service = (await (await fetch(`${server.url}/service.json`)).json()) as { show: { title: string }; episodes: ServiceEpisode[] };
  episodes = service.episodes;
  showTitle = service.show.title;
  episode = episodes.find((e) => e.transcript && (e.chapters?.length ?? 0) >= 2)!;
  episodePath = new URL(episode.url).pathname;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(options: { width?: number; height?: number; javaScriptEnabled?: boolean; reducedMotion?: 'reduce' | 'no-preference'; context?: BrowserContext } = {}) {
  const context =
    options.context ??
    (await browser.newContext({
      viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
      javaScriptEnabled: options.javaScriptEnabled ?? true,
      reducedMotion: options.reducedMotion ?? 'no-preference',
    }));
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => {
    // A click that starts a navigation while the previous view transition is still running makes Chromium skip
    // that transition and reject its promise ("Transition was skipped"), which Astro's router leaves unhandled.
    // It is the browser's documented behaviour, not a fault of the page (the audio's continuity is asserted).
    if (/Transition was skipped/.test(e.message)) return;
    problems.push(`page error: ${e.message}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  // Violations are also reported as events in the page, whichever document the router has swapped in.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to run: CSP ${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, problems, context, close: () => context.close() };
}

const audio = (page: Page) =>
  page.evaluate(() => {
    const a = document.querySelector<HTMLAudioElement>('audio[data-player]')!;
    return { currentTime: a.currentTime, duration: a.duration, paused: a.paused, src: a.currentSrc, marked: (a as unknown as { marked?: string }).marked };
  });

/** Waits until the player has played past `t` seconds. */
const playedPast = (page: Page, t: number) =>
  page.waitForFunction((t) => {
    const a = document.querySelector<HTMLAudioElement>('audio[data-player]');
    return !!a && !a.paused && a.currentTime > t;
  }, t, { timeout: 20_000 });

const settledAt = (page: Page, t: number) =>
  page.waitForFunction((t) => {
    const a = document.querySelector<HTMLAudioElement>('audio[data-player]')!;
    if (a.readyState < 1 || a.seeking) return false;
    const expected = Math.min(t, a.duration);
    return Math.abs(a.currentTime - expected) < 1.5;
  }, t, { timeout: 15_000 });

describe('one player for the whole visit', () => {
  it('keeps the same audio playing from the episode page to the episode list, home and search, without a gap', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      const play = page.locator('[data-listen-play]');
      await play.click();
      await playedPast(page, 0.5);
      // A mark on the element itself: only the very same <audio> carries it after a navigation.
      await page.evaluate(() => ((document.querySelector('audio[data-player]') as unknown as { marked: string }).marked = 'the one player'));
      const dock = page.locator('[data-dock]');
      expect(await dock.locator('[data-dock-link]').textContent()).toBe(episode.title);

      let last = (await audio(page)).currentTime;
      const stillPlaying = async (where: RegExp) => {
        await page.waitForURL(where);
        const now = await audio(page);
        expect(now.marked, 'the same <audio> element').toBe('the one player');
        expect(now.paused).toBe(false);
        await playedPast(page, now.currentTime + 0.5);
        const after = (await audio(page)).currentTime;
        expect(after).toBeGreaterThan(last);
        last = after;
        expect(await dock.isVisible()).toBe(true);
        expect(await dock.locator('[data-dock-link]').textContent()).toBe(episode.title);
      };

      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Episodes' }).click();
      await stillPlaying(/\/episodes\/$/);
      expect(await page.locator('h1').textContent()).toBe('All episodes');

      await page.locator('header .brand').click();
      await stillPlaying(new RegExp(`^${server.url}/$`));
      expect(await page.locator('h1').textContent()).toBe(showTitle);

      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Search' }).click();
      await stillPlaying(/\/search\/$/);
      // Search still works after a client-side navigation.
      await page.getByRole('searchbox', { name: 'Search for' }).fill(episode.title.split(/\s+/)[0]!);
      await page.locator('[data-results] > li').first().waitFor();

      // Back to the episode: its page knows it is the one playing.
      await page.goBack();
      await page.goBack();
      await page.goBack();
      await stillPlaying(new RegExp(`${episodePath}$`));
      await expect.poll(() => page.locator('[data-listen-label]').textContent()).toBe('Pause');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('opens another episode without stopping the one playing; its timestamps switch the player to it', async () => {
    const other = episodes.find((e) => e.id !== episode.id && e.transcript)!;
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      await page.locator('[data-listen-play]').click();
      await playedPast(page, 0.3);
      await page.evaluate(() => ((document.querySelector('audio[data-player]') as unknown as { marked: string }).marked = 'the one player'));
      // To another episode by a link in the page (next/previous), client-side.
      await page.locator('.episode-nav a').first().click();
      await page.waitForURL((url) => url.pathname !== episodePath && url.pathname.startsWith('/episodes/'));
      const now = await audio(page);
      expect(now.marked).toBe('the one player');
      expect(now.paused).toBe(false);
      expect(await page.locator('[data-dock-link]').textContent()).toBe(episode.title);
      await expect.poll(() => page.locator('[data-listen-label]').textContent()).toBe('Play this episode');
      // A transcript timestamp of this page: the player switches to this episode, at that moment.
      const shown = page.locator('[data-transcript] [data-start]:visible');
      const at = Number(await shown.nth(1).getAttribute('data-start'));
      await shown.nth(1).locator('a.ts').click();
      const title = (await page.locator('h1').textContent())!;
      await expect.poll(() => page.locator('[data-dock-link]').textContent()).toBe(title);
      await settledAt(page, at);
      expect(title).not.toBe(episode.title);
      void other;
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('still opens a ?t= deep link from search at its moment', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}/search/`);
      const word = episode.title.split(/\s+/)[0]!;
      await page.getByRole('searchbox', { name: 'Search for' }).fill(word);
      const moment = page.locator('[data-results] a.moment').first();
      await moment.waitFor();
      const href = (await moment.getAttribute('href'))!;
      const t = Number(new URL(href, server.url).searchParams.get('t'));
      await moment.click();
      await page.waitForURL(`**${href}`);
      await page.locator('[data-transcript] .is-target').waitFor();
      await settledAt(page, t);
      expect(await page.locator('[data-dock-link]').textContent()).toBe(await page.locator('h1').textContent());
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('resume', () => {
  it('offers the position where the listener left, and marks finished episodes as played in the list', async () => {
    const { page, problems, context, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      await page.locator('[data-listen-play]').click();
      await playedPast(page, 0.2);
      // Listen on from 6 s for a moment, then leave mid-episode (a full page load elsewhere).
      await page.evaluate(() => (document.querySelector<HTMLAudioElement>('audio[data-player]')!.currentTime = 6));
      await playedPast(page, 7);
      const left = (await audio(page)).currentTime;
      await page.goto('about:blank');

      const back = await open({ context });
      await back.page.goto(`${server.url}${episodePath}`);
      const offer = back.page.locator('[data-resume]');
      await offer.waitFor();
      const stopped = Number((await back.page.evaluate(() => JSON.parse(localStorage.getItem('podcast:positions')!))) [episode.id].t);
      expect(stopped).toBeGreaterThanOrEqual(7 - 0.5);
      expect(stopped).toBeLessThanOrEqual(left + 1);
      const clock = `0:${String(Math.floor(stopped)).padStart(2, '0')}`;
      expect(await offer.textContent()).toContain(clock);
      expect(await back.page.locator('[data-listen-label]').textContent()).toBe(`Resume from ${clock}`);
      // The player is already there: play resumes from that moment.
      await settledAt(back.page, stopped);
      await back.page.locator('[data-listen-play]').click();
      await playedPast(back.page, stopped);
      expect((await audio(back.page)).currentTime).toBeLessThan(stopped + 5);

      // The list's card shows the time left; after listening to the end, "Played".
      await back.page.evaluate(() => {
        const a = document.querySelector<HTMLAudioElement>('audio[data-player]')!;
        a.currentTime = a.duration - 0.5;
      });
      await back.page.waitForFunction(() => document.querySelector<HTMLAudioElement>('audio[data-player]')!.ended, null, { timeout: 15_000 });
      await back.page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Episodes' }).click();
      await back.page.waitForURL(/\/episodes\/$/);
      const card = back.page.locator(`[data-episode-id="${episode.id}"]`);
      await expect.poll(() => card.locator('[data-progress]').textContent()).toBe('Played');
      expect(await card.getAttribute('class')).toContain('is-played');
      // Coming back to a finished episode offers no resume.
      await back.page.goto(`${server.url}${episodePath}`);
      await back.page.locator('[data-played]').waitFor();
      expect(await back.page.locator('[data-resume]').isVisible()).toBe(false);
      expect([...problems, ...back.problems]).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('links are not listening', () => {
  const positions = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('podcast:positions') ?? '{}') as Record<string, { t: number; done?: boolean }>);

  it('a ?t= it cannot read leaves the saved position and its resume offer in place', async () => {
    const { page, problems, context, close } = await open();
    try {
      await page.goto(`${server.url}/episodes/`);
      await page.evaluate((id) => localStorage.setItem('podcast:positions', JSON.stringify({ [id]: { t: 20, at: Date.now() } })), episode.id);
      for (const t of ['-1', 'abc']) {
        await page.goto(`${server.url}${episodePath}?t=${t}`);
        await page.locator('[data-resume]').waitFor();
        expect(await page.locator('[data-listen-label]').textContent(), t).toBe('Resume from 0:20');
        // The player waits at the offered position, as without a ?t=.
        await settledAt(page, 20);
        await page.goto('about:blank');
        const back = await open({ context });
        await back.page.goto(`${server.url}/episodes/`);
        expect((await positions(back.page))[episode.id]?.t, t).toBe(20);
        await back.page.close();
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('landing on a moment near or past the end, without playing, neither saves a position nor marks the episode played', async () => {
    const { page, problems, context, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}?t=100000`);
      // The player goes to the end (a seek past it clamps to the duration).
      await settledAt(page, 100000);
      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Episodes' }).click();
      await page.waitForURL(/\/episodes\/$/);
      const card = page.locator(`[data-episode-id="${episode.id}"]`);
      await card.waitFor();
      expect(await card.locator('[data-progress]').textContent()).not.toBe('Played');
      expect((await positions(page))[episode.id]).toBeUndefined();
      await page.goto('about:blank');
      const back = await open({ context });
      await back.page.goto(`${server.url}${episodePath}`);
      await back.page.locator('[data-listen-label]').waitFor();
      expect(await back.page.locator('[data-played]').isVisible()).toBe(false);
      expect([...problems, ...back.problems]).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('Media Session and keyboard', () => {
  it('puts title, show, artwork and chapter on the lock screen and answers play, pause, seek and next chapter', async () => {
    const { page, problems, close } = await open();
    try {
      // Record the handlers the page registers (the API does not expose them).
      await page.addInitScript(() => {
        const handlers: Record<string, MediaSessionActionHandler | null> = {};
        (window as unknown as { handlers: typeof handlers }).handlers = handlers;
        const original = navigator.mediaSession.setActionHandler.bind(navigator.mediaSession);
        navigator.mediaSession.setActionHandler = (action, handler) => {
          handlers[action] = handler;
          original(action, handler);
        };
      });
      await page.goto(`${server.url}${episodePath}`);
      await page.locator('[data-listen-play]').click();
      await playedPast(page, 0.3);
      const meta = await page.evaluate(() => {
        const m = navigator.mediaSession.metadata!;
        return { title: m.title, artist: m.artist, album: m.album, artwork: m.artwork.map((a) => a.src), state: navigator.mediaSession.playbackState };
      });
      expect(meta.title).toBe(episode.title);
      expect(meta.artist).toBe(showTitle);
      expect(meta.album).toBe(episode.chapters![0]!.title);
      expect(meta.artwork[0]).toMatch(/^https?:\/\/.+\/artwork\.png$/);
      expect(meta.state).toBe('playing');
      const actions = await page.evaluate(() => Object.keys((window as unknown as { handlers: object }).handlers));
      expect(actions).toEqual(expect.arrayContaining(['play', 'pause', 'seekbackward', 'seekforward', 'seekto', 'nexttrack', 'previoustrack']));

      const call = (action: string, details: object = {}) =>
        page.evaluate(([action, details]) => (window as unknown as { handlers: Record<string, (d: object) => void> }).handlers[action as string]!({ action, ...(details as object) }), [action, details] as const);
      await call('pause');
      expect((await audio(page)).paused).toBe(true);
      await expect.poll(() => page.evaluate(() => navigator.mediaSession.playbackState)).toBe('paused');
      await call('seekto', { seekTime: 4 });
      await settledAt(page, 4);
      await call('seekforward');
      await settledAt(page, 34);
      await call('seekbackward');
      const d = (await audio(page)).duration;
      await settledAt(page, Math.min(34, d) - 15);
      // Next chapter: to the second chapter's start (or the end of a short sample file).
      await call('seekto', { seekTime: 1 });
      await settledAt(page, 1);
      await call('nexttrack');
      const second = Number(episode.chapters![1]!.start.split(':').reduce((a, p) => a * 60 + Number(p), 0));
      await settledAt(page, second);
      await call('play');
      await playedPast(page, 0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('has documented keyboard shortcuts: K plays and pauses, J and L skip, outside text fields', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}${episodePath}`);
      const help = page.locator('#keyboard-shortcuts');
      await expect.poll(() => help.isVisible()).toBe(true);
      await help.locator('summary').click();
      expect(await help.textContent()).toMatch(/Play or pause[\s\S]*Back 15 seconds[\s\S]*Forward 30 seconds[\s\S]*Next chapter/);

      await page.locator('h1').click();
      await page.keyboard.press('k');
      await playedPast(page, 0.2);
      await page.keyboard.press('k');
      await page.waitForFunction(() => document.querySelector<HTMLAudioElement>('audio[data-player]')!.paused);
      await page.evaluate(() => (document.querySelector<HTMLAudioElement>('audio[data-player]')!.currentTime = 2));
      await settledAt(page, 2);
      await page.keyboard.press('l');
      await settledAt(page, 32);
      await page.keyboard.press('j');
      const d = (await audio(page)).duration;
      await settledAt(page, Math.min(32, d) - 15);
      // Typing in the search field does not trigger them.
      await page.goto(`${server.url}/search/`);
      const before = await audio(page);
      await page.getByRole('searchbox', { name: 'Search for' }).pressSequentially('kjl');
      expect((await audio(page)).currentTime).toBe(before.currentTime);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('long transcripts fold', () => {
  it('shows the passage around the moment with a button for the whole transcript, and follows the playing line', async () => {
    const { page, problems, close } = await open({ width: 360, height: 740, reducedMotion: 'reduce' });
    try {
      await page.goto(`${server.url}${episodePath}`);
      const all = page.locator('[data-transcript] [data-start]');
      const total = await all.count();
      const visible = page.locator('[data-transcript] [data-start]:visible');
      await expect.poll(() => visible.count()).toBeLessThanOrEqual(5);
      // Folded passages stay in the document, reachable by find-in-page.
      expect(await all.nth(total - 1).getAttribute('hidden')).toBe('until-found');
      const folded = await page.evaluate(() => document.documentElement.scrollHeight);
      const button = page.getByRole('button', { name: /Show the whole transcript/ });
      expect(await button.getAttribute('aria-expanded')).toBe('false');
      await button.click();
      expect(await visible.count()).toBe(total);
      const unfolded = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(unfolded).toBeGreaterThan(folded * 1.5);
      await page.getByRole('button', { name: /Show only the passage/ }).click();
      expect(await visible.count()).toBeLessThanOrEqual(5);

      // ?t= deep in the transcript: the fold opens around that passage.
      const starts = await all.evaluateAll((ps) => ps.map((p) => Number((p as HTMLElement).dataset.start)));
      const k = Math.floor(starts.length * 0.6);
      await page.goto(`${server.url}${episodePath}?t=${Math.floor(starts[k]!) + 1}`);
      const target = page.locator('[data-transcript] .is-target');
      await target.waitFor();
      expect(await target.isVisible()).toBe(true);
      expect(Number(await target.getAttribute('data-start'))).toBe(starts[k]);

      // While playing, the playing passage is shown and marked.
      await page.goto(`${server.url}${episodePath}`);
      await page.locator('[data-listen-play]').click();
      await playedPast(page, 0.5);
      await expect.poll(() => page.locator('[data-transcript] .is-playing:visible').count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('an episode list that scales', () => {
  const newest = () => [...episodes].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id);
  const titles = (page: Page) => page.locator('[data-episode-list] h3').allTextContents().then((t) => t.map((s) => s.trim()));

  it('pages the list, filters it by season, guest and topic and sorts it by date, as plain links', async () => {
    const { page, problems, close } = await open();
    try {
      await page.goto(`${server.url}/episodes/`);
      expect(await titles(page)).toEqual(newest().slice(0, 24).map((e) => e.title));
      await page.getByRole('link', { name: 'Oldest first' }).click();
      await page.waitForURL(/\/episodes\/oldest\/$/);
      expect(await titles(page)).toEqual(newest().reverse().slice(0, 24).map((e) => e.title));

      const seasons = [...new Set(episodes.map((e) => e.season))];
      if (seasons.length > 1) {
        await page.goto(`${server.url}/episodes/season/1/`);
        expect(await titles(page)).toEqual(newest().filter((e) => e.season === 1).map((e) => e.title));
      }
      const guest = episodes.find((e) => e.guests?.length)!.guests![0]!;
      await page.goto(`${server.url}/episodes/guests/`);
      await page.getByRole('link', { name: guest, exact: true }).click();
      await page.waitForURL(/\/episodes\/guest\/[^/]+\/$/);
      expect(await titles(page)).toEqual(newest().filter((e) => e.guests?.includes(guest)).map((e) => e.title));
      // A guest's page leads back to the whole list, which has the season chips (src/components/listing.ts).
      const seasonChips = page.locator('.list-filters').getByRole('link', { name: /^Season \d+$/ });
      expect(await seasonChips.count()).toBe(0);
      await page.getByRole('link', { name: '← All episodes' }).click();
      await page.waitForURL(/\/episodes\/$/);
      expect(await seasonChips.count()).toBe(seasons.length > 1 ? seasons.length : 0);

      const topic = episodes.find((e) => e.topics?.length)!.topics![0]!;
      await page.goto(`${server.url}${new URL(episodes.find((e) => e.topics?.includes(topic))!.url).pathname}`);
      await page.locator('.episode-aside').getByRole('link', { name: topic, exact: true }).click();
      await page.waitForURL(/\/episodes\/topic\/[^/]+\/$/);
      expect(await titles(page)).toEqual(newest().filter((e) => e.topics?.includes(topic)).map((e) => e.title));
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps the home page to the latest episodes, with links to the rest', async () => {
    const { page, close } = await open();
    try {
      await page.goto(`${server.url}/`);
      expect(await titles(page)).toEqual(newest().slice(0, 6).map((e) => e.title));
      await page.getByRole('link', { name: new RegExp(`All ${episodes.length} episodes`) }).click();
      await page.waitForURL(/\/episodes\/$/);
    } finally {
      await close();
    }
  });
});

describe('without JavaScript', () => {
  it('is plain pages and links: the list, its filters, an episode with its native player and transcript', async () => {
    const { page, close } = await open({ javaScriptEnabled: false, width: 360, height: 740 });
    try {
      await page.goto(`${server.url}/`);
      // The latest episode plays in the page itself; the JavaScript-only button is not shown.
      expect(await page.locator('section.latest audio[controls]').count()).toBe(1);
      expect(await page.locator('[data-play-episode]').isVisible()).toBe(false);
      await page.getByRole('link', { name: new RegExp(`All ${episodes.length} episodes`) }).click();
      await page.waitForURL(/\/episodes\/$/);
      await page.getByRole('link', { name: 'Oldest first' }).click();
      await page.waitForURL(/\/episodes\/oldest\/$/);
      await page.getByRole('link', { name: episodes[0]!.title }).click();
      await page.waitForURL(`**${new URL(episodes[0]!.url).pathname}`);
      // The player bar holds the native player; the whole transcript is there.
      const player = page.locator('[data-dock] audio[controls]');
      expect(await player.isVisible()).toBe(true);
      expect(await player.getAttribute('src')).toMatch(/\.mp3$/);
      expect(await page.locator('[data-listen]').isVisible()).toBe(false);
      const paragraphs = page.locator('[data-transcript] [data-start]');
      expect(await page.locator('[data-transcript] [data-start]:visible').count()).toBe(await paragraphs.count());
    } finally {
      await close();
    }
  });
});
