/**
 * How the tests launch Debian's Chromium (Playwright's own browser download cannot run here): headless, and with
 * the background services off, which would otherwise try to reach the network at every start.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** For tests that play audio: no user-activation heuristic before playback. */
export const AUTOPLAY_ARG = '--autoplay-policy=no-user-gesture-required';
