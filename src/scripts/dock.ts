/**
 * The site-wide player (the bar Player.astro renders on every page). One <audio> for the whole visit: Astro's
 * client router keeps this element across navigations (transition:persist), and this module, loaded once per
 * visit, keeps its state. It
 * - loads an episode into the bar, seeks (waiting for metadata when needed) and plays;
 * - remembers the position of each episode (./positions.ts) and starts a returning listener where they were;
 * - shows the title, the chapter and the skip and speed buttons, and announces changes to screen readers;
 * - feeds the Media Session API: title, show, artwork and chapter on the lock screen; play, pause, seek back
 *   15 s, forward 30 s, seek to, next and previous chapter from headsets, media keys and the lock screen;
 * - answers the page's keyboard shortcuts (documented in the footer and the README), unless the listener turned
 *   them off with the footer's switch (WCAG 2.1.4: single-key shortcuts must be possible to turn off).
 * Pages talk to it through the exported functions and the `player:episode` event it dispatches on document.
 */
import { parseTime } from '../components/format.ts';
import type { PlayerEpisode } from '../components/player-data.ts';
import { paragraphAt } from '../components/transcript.ts';
import { isFinished, resumePoint, savePosition } from './positions.ts';

export const SKIP_BACK = 15;
export const SKIP_FORWARD = 30;
const RATES = [0.75, 1, 1.25, 1.5, 1.75, 2];
const SAVE_EVERY_MS = 2000;
/** localStorage: 'off' once the listener turned the keyboard shortcuts off. */
const SHORTCUTS_KEY = 'keyboardShortcuts';

let dock: HTMLElement;
let audio: HTMLAudioElement;
let episode: PlayerEpisode | undefined;
/** Set once the listener has played something: from then on, opening another page never changes the episode. */
let chosen = false;
/**
 * Set once the episode in the bar has played in this page: only then is its position saved. Landing on a ?t= link
 * (or on a resume point) moves the player but is not listening, so it neither overwrites the saved position nor,
 * when the link points near the end, marks the episode played.
 */
let listened = false;
let pending: { at: number; play: boolean } | undefined;
let chapterIndex = -1;
let lastSave = 0;

export const current = () => episode;
export const isChosen = () => chosen;
export const element = () => audio;

function parseEpisode(json: string | undefined): PlayerEpisode | undefined {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as PlayerEpisode;
  } catch {
    return undefined;
  }
}

export function episodeFrom(el: Element | null | undefined): PlayerEpisode | undefined {
  return parseEpisode((el as HTMLElement | null | undefined)?.dataset.episode);
}

const $ = <T extends Element>(selector: string) => dock.querySelector<T>(selector);

function announce(text: string) {
  const status = $<HTMLElement>('[data-player-status]');
  if (status) status.textContent = text;
}

function applyPending() {
  if (!pending) return;
  const { at, play } = pending;
  pending = undefined;
  const end = Number.isFinite(audio.duration) ? audio.duration : Infinity;
  audio.currentTime = Math.min(at, end);
  if (play) void audio.play().catch(() => {});
}

/** Seeks now if the metadata is known, else as soon as it is (setting currentTime earlier is not reliable). */
export function seek(at: number, play: boolean) {
  pending = { at: Math.max(0, at), play };
  if (audio.readyState >= HTMLMediaElement.HAVE_METADATA) return applyPending();
  if (play) void audio.play().catch(() => {});
  else if (audio.networkState === HTMLMediaElement.NETWORK_EMPTY || audio.preload === 'none') {
    audio.preload = 'metadata';
    audio.load();
  }
}

export function skip(by: number) {
  if (!episode) return;
  const end = Number.isFinite(audio.duration) ? audio.duration : Infinity;
  seek(Math.min(end, Math.max(0, audio.currentTime + by)), !audio.paused);
}

export function toggle() {
  if (!episode) return;
  if (audio.paused) void audio.play().catch(() => {});
  else audio.pause();
}

/**
 * Puts an episode in the bar. `at` is where to start (a ?t= link, a transcript timestamp); without it, a
 * returning listener starts where they stopped.
 */
export function load(next: PlayerEpisode, options: { at?: number; play?: boolean } = {}) {
  const same = episode?.id === next.id;
  if (!same) {
    save();
    listened = false;
    episode = next;
    chapterIndex = -1;
    pending = undefined;
    // Captions or other tracks belong to the episode they came with.
    for (const track of audio.querySelectorAll('track')) track.remove();
    audio.src = next.audio;
    audio.preload = 'metadata';
    audio.setAttribute('aria-label', `Episode audio: ${next.title}`);
    audio.dataset.episode = JSON.stringify(next);
    audio.load();
    render();
  }
  const at = options.at ?? (same ? undefined : resumePoint(next.id));
  if (at !== undefined) seek(at, options.play ?? false);
  else if (options.play) void audio.play().catch(() => {});
  showDock();
}

function showDock() {
  dock.hidden = false;
  $<HTMLElement>('[data-player-bar]')!.hidden = false;
}

function render() {
  if (!episode) return;
  let link = $<HTMLElement>('[data-dock-link]');
  // A page without an episode renders a placeholder, not a link without an address.
  if (link && !(link instanceof HTMLAnchorElement)) {
    const a = document.createElement('a');
    a.dataset.dockLink = '';
    link.replaceWith(a);
    link = a;
  }
  if (link instanceof HTMLAnchorElement) {
    link.href = episode.url;
    link.textContent = episode.title;
  }
  const art = $<HTMLImageElement>('[data-dock-art]');
  if (art) {
    art.src = episode.artwork;
    art.hidden = false;
  }
  updateChapter(true);
  document.dispatchEvent(new CustomEvent('player:episode', { detail: episode }));
}

function updateChapter(force = false) {
  if (!episode) return;
  const starts = episode.chapters.map((c) => c.start);
  const i = starts.length ? paragraphAt(starts, audio.currentTime) : -1;
  if (i === chapterIndex && !force) return;
  chapterIndex = i;
  const chapter = episode.chapters[i];
  const now = $<HTMLElement>('[data-now]');
  if (now) now.textContent = chapter ? chapter.title : episode.show;
  updateMetadata();
  document.dispatchEvent(new CustomEvent('player:chapter', { detail: { index: i } }));
}

/** Where the next chapter starts, or undefined after the last. */
function chapterStart(offset: 1 | -1 | 0): number | undefined {
  if (!episode?.chapters.length) return undefined;
  const starts = episode.chapters.map((c) => c.start);
  const i = paragraphAt(starts, audio.currentTime);
  if (offset === 1) return starts[i + 1];
  if (offset === 0) return starts[Math.max(0, i)];
  return starts[Math.max(0, i - 1)];
}

export function nextChapter() {
  const at = chapterStart(1);
  if (at !== undefined) seek(at, !audio.paused);
}

/** To the start of the chapter, or to the previous one when already within 3 s of its start. */
export function previousChapter() {
  const start = chapterStart(0);
  if (start === undefined) return seek(0, !audio.paused);
  const at = audio.currentTime - start < 3 ? (chapterStart(-1) ?? 0) : start;
  seek(at, !audio.paused);
}

function setRate(rate: number) {
  audio.playbackRate = rate;
  audio.defaultPlaybackRate = rate;
  try {
    localStorage.setItem('playbackRate', String(rate));
  } catch {}
  announce(`Playback speed ${rate} times`);
}

function stepRate(by: 1 | -1) {
  const i = RATES.indexOf(audio.playbackRate);
  const next = RATES[Math.min(RATES.length - 1, Math.max(0, (i < 0 ? RATES.indexOf(1) : i) + by))]!;
  setRate(next);
}

function save() {
  if (!episode || !audio.currentSrc || !listened) return;
  if (audio.readyState < HTMLMediaElement.HAVE_METADATA && audio.currentTime === 0) return;
  const saved = savePosition(episode.id, audio.currentTime, Number.isFinite(audio.duration) ? audio.duration : undefined);
  lastSave = Date.now();
  if (saved) document.dispatchEvent(new CustomEvent('player:saved', { detail: { id: episode.id, ...saved } }));
}

// Media Session: the lock screen, notification shade, headset buttons and keyboard media keys.

const session = () => ('mediaSession' in navigator ? navigator.mediaSession : undefined);

function updateMetadata() {
  const ms = session();
  if (!ms || !episode || typeof MediaMetadata === 'undefined') return;
  const chapter = episode.chapters[chapterIndex];
  const artwork = [{ src: new URL(episode.artwork, location.href).href }];
  const init: MediaMetadataInit & { chapterInfo?: unknown[] } = {
    title: episode.title,
    artist: episode.show,
    // The chapter where lock screens have room for one more line; the show when there are no chapters.
    album: chapter ? chapter.title : episode.show,
    artwork,
  };
  if (episode.chapters.length) init.chapterInfo = episode.chapters.map((c) => ({ title: c.title, startTime: c.start, artwork }));
  try {
    ms.metadata = new MediaMetadata(init);
  } catch {
    delete init.chapterInfo;
    ms.metadata = new MediaMetadata(init);
  }
}

function updatePositionState() {
  const ms = session();
  if (!ms?.setPositionState) return;
  if (!Number.isFinite(audio.duration) || audio.duration <= 0) return;
  try {
    ms.setPositionState({ duration: audio.duration, playbackRate: audio.playbackRate || 1, position: Math.min(audio.currentTime, audio.duration) });
  } catch {}
}

function setHandlers() {
  const ms = session();
  if (!ms) return;
  const handlers: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
    ['play', () => void audio.play().catch(() => {})],
    ['pause', () => audio.pause()],
    ['stop', () => audio.pause()],
    ['seekbackward', (d) => skip(-(d.seekOffset ?? SKIP_BACK))],
    ['seekforward', (d) => skip(d.seekOffset ?? SKIP_FORWARD)],
    ['seekto', (d) => {
      if (d.seekTime === undefined) return;
      if (d.fastSeek && 'fastSeek' in audio) audio.fastSeek(d.seekTime);
      else seek(d.seekTime, !audio.paused);
    }],
    ['nexttrack', () => nextChapter()],
    ['previoustrack', () => previousChapter()],
  ];
  for (const [action, handler] of handlers) {
    try {
      ms.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  }
}

// Keyboard shortcuts, anywhere on the site except while typing, unless turned off.

/** The choice when storage cannot keep it (private modes that refuse it): for this visit only. */
let offThisVisit = false;

/** Read at each key, so a choice made in another tab holds here too. */
function shortcutsOn(): boolean {
  try {
    return localStorage.getItem(SHORTCUTS_KEY) !== 'off';
  } catch {
    return !offThisVisit;
  }
}

/** Screen readers announce aria-keyshortcuts: keys that are off must not be offered (kept aside to come back). */
function advertiseShortcuts(on: boolean) {
  for (const el of document.querySelectorAll<HTMLElement>('[aria-keyshortcuts], [data-keyshortcuts]')) {
    if (on && el.dataset.keyshortcuts !== undefined) {
      el.setAttribute('aria-keyshortcuts', el.dataset.keyshortcuts);
      delete el.dataset.keyshortcuts;
    } else if (!on && el.hasAttribute('aria-keyshortcuts')) {
      el.dataset.keyshortcuts = el.getAttribute('aria-keyshortcuts')!;
      el.removeAttribute('aria-keyshortcuts');
    }
  }
}

/** The footer's switch (a new one with each page the router swaps in): shows the choice and keeps it. */
export function initShortcutsSwitch(signal: AbortSignal) {
  advertiseShortcuts(shortcutsOn());
  const box = document.querySelector<HTMLInputElement>('input[data-shortcuts-switch]');
  if (!box) return;
  box.checked = shortcutsOn();
  box.addEventListener('change', () => {
    offThisVisit = !box.checked;
    try {
      if (box.checked) localStorage.removeItem(SHORTCUTS_KEY);
      else localStorage.setItem(SHORTCUTS_KEY, 'off');
    } catch {}
    advertiseShortcuts(box.checked);
  }, { signal });
}

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !(el instanceof HTMLElement)) return false;
  return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
}

function onKey(event: KeyboardEvent) {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || !episode || !shortcutsOn()) return;
  const target = event.target as HTMLElement | null;
  // Space keeps its own meaning on buttons, links, summaries and the audio controls themselves.
  const interactive = target instanceof HTMLElement && target.closest('a, button, summary, audio, [role="button"], [tabindex]:not(main)');
  let handled = true;
  switch (event.key) {
    case ' ':
      if (interactive) return;
      toggle();
      break;
    case 'k':
    case 'K':
      toggle();
      break;
    case 'j':
    case 'J':
      skip(-SKIP_BACK);
      break;
    case 'l':
    case 'L':
      skip(SKIP_FORWARD);
      break;
    case 'n':
    case 'N':
      nextChapter();
      break;
    case 'p':
    case 'P':
      previousChapter();
      break;
    case '>':
      stepRate(1);
      break;
    case '<':
      stepRate(-1);
      break;
    default:
      handled = false;
  }
  if (handled) event.preventDefault();
}

function init() {
  const el = document.querySelector<HTMLElement>('[data-dock]');
  const a = el?.querySelector<HTMLAudioElement>('audio[data-player]');
  if (!el || !a) return false;
  dock = el;
  audio = a;
  episode = episodeFrom(audio);

  const bar = $<HTMLElement>('[data-player-bar]')!;
  for (const button of bar.querySelectorAll<HTMLButtonElement>('button[data-skip]')) {
    button.addEventListener('click', () => skip(Number(button.dataset.skip)));
  }
  const rateButton = $<HTMLButtonElement>('button[data-rate]');
  const rateValue = $<HTMLElement>('[data-rate-value]');
  const showRate = () => {
    if (rateValue) rateValue.textContent = `${audio.playbackRate}×`;
    updatePositionState();
  };
  rateButton?.addEventListener('click', () => {
    const i = RATES.indexOf(audio.playbackRate);
    setRate(RATES[(i + 1) % RATES.length] ?? 1);
  });
  audio.addEventListener('ratechange', showRate);
  try {
    const saved = Number(localStorage.getItem('playbackRate'));
    if (RATES.includes(saved)) {
      audio.defaultPlaybackRate = saved;
      audio.playbackRate = saved;
    }
  } catch {}
  showRate();

  audio.addEventListener('loadedmetadata', () => {
    applyPending();
    updatePositionState();
  });
  audio.addEventListener('play', () => {
    chosen = true;
    listened = true;
    showDock();
    updateChapter();
    updatePositionState();
    const ms = session();
    if (ms) ms.playbackState = 'playing';
  });
  audio.addEventListener('pause', () => {
    save();
    const ms = session();
    if (ms) ms.playbackState = 'paused';
  });
  audio.addEventListener('seeked', () => {
    updateChapter();
    updatePositionState();
    if (!audio.paused || audio.currentTime > 0) save();
  });
  audio.addEventListener('timeupdate', () => {
    updateChapter();
    if (!audio.paused && Date.now() - lastSave > SAVE_EVERY_MS) save();
  });
  audio.addEventListener('ended', () => {
    save();
    if (episode && isFinished(audio.currentTime, audio.duration)) announce(`Finished: ${episode.title}`);
  });
  addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') save();
  });
  document.addEventListener('keydown', onKey);

  setHandlers();
  if (episode) {
    // A returning listener starts where they were, unless the page asks for a moment (player.ts), which a ?t= it
    // cannot read does not: that one is ignored there, so it must not cancel the resume here either.
    const at = parseTime(new URLSearchParams(location.search).get('t')) !== undefined ? undefined : resumePoint(episode.id);
    if (at !== undefined) seek(at, false);
    showDock();
    render();
  }
  document.querySelector<HTMLElement>('[data-shortcuts]')?.removeAttribute('hidden');
  return true;
}

export const ready = init();

