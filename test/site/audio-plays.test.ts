/**
 * The sample show really plays: in Debian's Chromium, a transcript moment well past the old 33-second clips
 * (the "Listen from 6:02") seeks the player there and playback advances from it; the audio is as long
 * as the episode; and the WebVTT captions track loads with the transcript's cues.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { AUTOPLAY_ARG, CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser.ts';

// Playback must not wait for a user-activation heuristic or a sound card.
const LAUNCH_ARGS = [...CHROMIUM_ARGS, AUTOPLAY_ARG, '--mute-audio'];

interface ServiceEpisode {
  id: number;
  url: string;
  seconds?: number;
  transcript: string | null;
}

let server: RunningServer;
let browser: Browser;
let episode: ServiceEpisode;

beforeAll(async () => {
  server = await startServer({ distDir: inject('distDir'), env: { RATE_LIMIT_MAX: '100000' } });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS });
  const service = (await (await fetch(`${server.url}/service.json`)).json()) as { episodes: ServiceEpisode[] };
  episode = service.episodes.find((e) => e.transcript && (e.seconds ?? 0) > 600)!;
  expect(episode).toBeDefined();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const audioState = (page: Page) =>
  page.$eval('audio[data-player]', (a) => {
    const audio = a as HTMLAudioElement;
    return { currentTime: audio.currentTime, duration: audio.duration, paused: audio.paused, error: audio.error?.code ?? null };
  });

describe('the sample audio', () => {
  it('plays from a transcript moment past 0:40, and currentTime advances there', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}${new URL(episode.url).pathname}`);
      await page.waitForFunction(() => Number.isFinite((document.querySelector('audio[data-player]') as HTMLAudioElement).duration));
      const { duration } = await audioState(page);
      expect(Math.abs(duration - episode.seconds!), `audio ${duration} s, episode ${episode.seconds} s`).toBeLessThanOrEqual(2);

      // The first transcript timestamp after 6:00, well past the 33 s the old clips lasted (the transcript folds
      // around the moment: unfold it first, as a listener would).
      await page.getByRole('button', { name: /Show the whole transcript/ }).click();
      const links = await page.$$eval('.transcript a[data-seek]', (as) => as.map((a) => Number((a as HTMLElement).dataset.seek)));
      const target = links.find((t) => t >= 360)!;
      expect(target, 'a transcript moment after 6:00').toBeGreaterThan(40);
      await page.click(`.transcript a[data-seek="${target}"]`);

      await page.waitForFunction(
        (t) => {
          const audio = document.querySelector('audio[data-player]') as HTMLAudioElement;
          return !audio.paused && audio.currentTime >= t + 1.5;
        },
        target,
        { timeout: 15_000 },
      );
      const state = await audioState(page);
      expect(state.error).toBeNull();
      expect(state.currentTime).toBeGreaterThanOrEqual(target + 1.5);
      expect(state.currentTime).toBeLessThan(target + 15);
    } finally {
      await page.close();
    }
  });

  it('loads the WebVTT captions track with the transcript\'s cues', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}${new URL(episode.url).pathname}`);
      const track = await page.$eval('audio[data-player] track', (t) => ({ kind: (t as HTMLTrackElement).kind, src: (t as HTMLTrackElement).src }));
      expect(track.kind).toBe('captions');
      expect(new URL(track.src).pathname).toBe(new URL(episode.transcript!).pathname.replace(/\.srt$/, '.vtt'));
      const cues = await page.waitForFunction(() => {
        const t = document.querySelector<HTMLTrackElement>('audio[data-player] track')!;
        return t.readyState === 2 && (t.track.cues?.length ?? 0) > 0 ? t.track.cues!.length : 0;
      });
      expect(await cues.jsonValue()).toBeGreaterThan(100);
    } finally {
      await page.close();
    }
  });
});
