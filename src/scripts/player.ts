/**
 * Episode page: ties the page (play button, chapters, transcript) to the site-wide player (./dock.ts). Run on
 * every arrival on an episode page, first load or client-side navigation; everything it binds is released when
 * the page is left (the signal).
 *
 * - A click on any `a[data-seek]` (chapter, transcript timestamp) plays this episode from that moment; the links
 *   stay real links to `?t=`, so without JavaScript, or with a modifier key, they still open the moment.
 * - `?t=SECONDS` on arrival sets the player to that moment once its metadata is known, and highlights the
 *   passage that contains it. A listener coming back without ?t= is offered the moment they left.
 * - While this episode plays, the passage and chapter under the playhead are marked, and the transcript
 *   follows them: folded, it shows the passages around the moment; unfolded, it scrolls along while the
 *   playing passage is on screen (instantly when the reader prefers reduced motion).
 * - Setting currentTime beyond the end of the file clamps to its duration; the highlight stays on the passage
 *   that was asked for (`is-target`), and the playing marker follows where the audio really is (`is-playing`).
 */
import { clock, parseTime } from '../components/format.ts';
import type { PlayerEpisode } from '../components/player-data.ts';
import { paragraphAt } from '../components/transcript.ts';
import * as dock from './dock.ts';
import { getPosition, resumePoint } from './positions.ts';

/** Passages shown around the moment while the transcript is folded: one before, three after. */
const FOLD_BEFORE = 1;
const FOLD_AFTER = 3;
/** Transcripts shorter than this are never folded. */
const FOLD_MIN = 8;

export function initEpisodePage(root: HTMLElement, signal: AbortSignal) {
  const episode = dock.episodeFrom(root);
  const audio = dock.element();
  if (!episode || !audio) return;
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  const on = <K extends keyof HTMLMediaElementEventMap>(type: K, fn: () => void) => audio.addEventListener(type, fn, { signal });
  const isMine = () => dock.current()?.id === episode.id;

  const transcript = document.querySelector<HTMLElement>('[data-transcript]');
  const paragraphs = [...document.querySelectorAll<HTMLElement>('[data-transcript] [data-start]')];
  const paragraphStarts = paragraphs.map((p) => Number(p.dataset.start));
  const chapterLinks = [...document.querySelectorAll<HTMLAnchorElement>('[data-chapters] a[data-chapter]')];
  const chapterStarts = chapterLinks.map((a) => Number(a.dataset.chapter));
  const status = root.querySelector<HTMLElement>('[data-listen-status]');
  const announce = (text: string) => {
    if (status) status.textContent = text;
  };

  // Folding: only the passages around the moment, with a button for the whole transcript. Passages out of the
  // window are hidden="until-found", so the browser's find-in-page still reaches (and unfolds) them.
  const foldBar = document.querySelector<HTMLElement>('[data-fold]');
  const unfold = foldBar?.querySelector<HTMLButtonElement>('[data-unfold]');
  const followButton = foldBar?.querySelector<HTMLButtonElement>('[data-follow]');
  let folded = false;
  let focusIndex = 0;
  let follow = true;
  const applyFold = () => {
    const from = focusIndex - FOLD_BEFORE;
    const to = focusIndex + FOLD_AFTER;
    let focusFolded = false;
    paragraphs.forEach((p, i) => {
      if (!folded || (i >= from && i <= to)) p.removeAttribute('hidden');
      else {
        focusFolded ||= p.contains(document.activeElement);
        p.setAttribute('hidden', 'until-found');
      }
    });
    // A keyboard or screen reader user reading along would otherwise be dropped to the top of the page (focus
    // falls back to <body>): they go on from the passage the fold now shows.
    if (focusFolded) paragraphs[focusIndex]?.querySelector<HTMLElement>('a[data-seek]')?.focus();
    transcript?.classList.toggle('is-folded', folded);
    if (unfold) {
      unfold.setAttribute('aria-expanded', String(!folded));
      unfold.textContent = folded ? `Show the whole transcript (${paragraphs.length} passages)` : 'Show only the passage around the moment';
    }
  };
  const setFocus = (i: number) => {
    if (i < 0 || i === focusIndex) return;
    focusIndex = i;
    if (folded) applyFold();
  };
  if (transcript && foldBar && unfold && paragraphs.length >= FOLD_MIN) {
    transcript.id ||= 'transcript';
    unfold.setAttribute('aria-controls', transcript.id);
    folded = true;
    foldBar.hidden = false;
    unfold.addEventListener('click', () => {
      folded = !folded;
      applyFold();
      if (!folded) paragraphs[focusIndex]?.scrollIntoView({ block: 'center', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
    }, { signal });
    followButton?.addEventListener('click', () => {
      follow = !follow;
      followButton.setAttribute('aria-pressed', String(follow));
    }, { signal });
    // Find-in-page found a folded passage: show everything, as the reader is looking for text.
    transcript.addEventListener('beforematch', () => {
      folded = false;
      applyFold();
    }, { signal });
    applyFold();
  }

  let target: HTMLElement | undefined;
  const markTarget = (at: number, scroll: boolean) => {
    const i = paragraphAt(paragraphStarts, at);
    const p = paragraphs[i];
    if (!p) return;
    target?.classList.remove('is-target');
    target = p;
    p.classList.add('is-target');
    setFocus(i);
    if (scroll) p.scrollIntoView({ block: 'center', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
  };

  const inView = (el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  };

  let playing: HTMLElement | undefined;
  let chapter: HTMLAnchorElement | undefined;
  const followPlayhead = () => {
    if (!isMine()) return;
    const t = audio.currentTime;
    const i = paragraphAt(paragraphStarts, t);
    const p = paragraphs[i];
    if (p !== playing) {
      const wasInView = playing ? inView(playing) : false;
      playing?.classList.remove('is-playing');
      playing = p;
      p?.classList.add('is-playing');
      if (p && follow) {
        setFocus(i);
        // Unfolded: scroll along only while the reader is watching the transcript.
        if (!folded && wasInView && !inView(p)) p.scrollIntoView({ block: 'center', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
      }
    }
    const c = chapterLinks[paragraphAt(chapterStarts, t)];
    if (c !== chapter) {
      chapter?.removeAttribute('aria-current');
      chapter = c;
      c?.setAttribute('aria-current', 'true');
    }
  };
  // Only while playing: a paused player that was clamped at the end should not move the marker.
  on('timeupdate', () => {
    if (!audio.paused) followPlayhead();
  });
  on('play', followPlayhead);

  const setAddress = (at: number) => {
    const url = new URL(location.href);
    url.searchParams.set('t', String(Math.floor(at)));
    url.hash = '';
    history.replaceState(history.state, '', url);
  };

  /** Plays this episode from `at`, switching the player to it if another episode is in it. */
  const playFrom = (at: number, play: boolean) => {
    if (isMine()) dock.seek(at, play);
    else dock.load(episode, { at, play });
  };

  // Capture phase: before the client router, which would otherwise treat a ?t= link as a navigation.
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-seek]');
    if (!link) return;
    const at = Number(link.dataset.seek);
    if (!Number.isFinite(at)) return;
    event.preventDefault();
    playFrom(at, true);
    markTarget(at, false);
    setAddress(at);
  }, { capture: true, signal });

  // The play button, the resume offer and the share button (hidden until this runs).
  const actions = root.querySelector<HTMLElement>('[data-listen]');
  const playButton = root.querySelector<HTMLButtonElement>('[data-listen-play]');
  const playLabel = playButton?.querySelector<HTMLElement>('[data-listen-label]');
  const resume = root.querySelector<HTMLElement>('[data-resume]');
  const resumeAt = root.querySelector<HTMLElement>('[data-resume-at]');
  const restart = root.querySelector<HTMLButtonElement>('[data-restart]');
  const played = root.querySelector<HTMLElement>('[data-played]');

  const offer = resumePoint(episode.id);
  const requested = parseTime(new URLSearchParams(location.search).get('t'));
  let offerOpen = offer !== undefined && requested === undefined;

  const renderActions = () => {
    if (!playButton || !playLabel) return;
    const mine = isMine();
    const playingNow = mine && !audio.paused;
    // The label says the state, so no aria-pressed (which would read "Pause, pressed"); Follow along, whose label
    // stays, is the one toggle.
    playLabel.textContent = playingNow ? 'Pause' : !mine ? 'Play this episode' : offerOpen && offer !== undefined ? `Resume from ${clock(offer)}` : 'Play episode';
    if (resume) resume.hidden = !(offerOpen && offer !== undefined);
    if (resumeAt && offer !== undefined) resumeAt.textContent = clock(offer);
    if (played) played.hidden = !getPosition(episode.id)?.done;
  };
  if (actions) actions.hidden = false;
  playButton?.addEventListener('click', () => {
    if (!isMine()) {
      dock.load(episode, { play: true });
    } else if (audio.paused) {
      if (offerOpen && offer !== undefined && Math.abs(audio.currentTime - offer) > 1) dock.seek(offer, true);
      else void audio.play().catch(() => {});
    } else audio.pause();
    offerOpen = false;
    renderActions();
  }, { signal });
  restart?.addEventListener('click', () => {
    offerOpen = false;
    playFrom(0, true);
    announce('Playing from the beginning');
    renderActions();
  }, { signal });
  on('play', renderActions);
  on('pause', renderActions);
  document.addEventListener('player:episode', renderActions, { signal });
  document.addEventListener('player:saved', renderActions, { signal });

  const share = root.querySelector<HTMLButtonElement>('[data-share]');
  const shareLabel = share?.querySelector<HTMLElement>('[data-share-label]');
  if (share && navigator.clipboard && window.isSecureContext) {
    share.hidden = false;
    share.addEventListener('click', async () => {
      const at = isMine() ? Math.floor(audio.currentTime) : 0;
      const url = new URL(location.href);
      url.hash = '';
      if (at > 0) url.searchParams.set('t', String(at));
      else url.searchParams.delete('t');
      try {
        await navigator.clipboard.writeText(url.href);
        announce(`Link to ${clock(at)} copied`);
        if (shareLabel) {
          shareLabel.textContent = 'Copied';
          setTimeout(() => (shareLabel.textContent = 'Share this moment'), 2500);
        }
      } catch {
        announce('Could not copy the link');
      }
    }, { signal });
  }

  // Arrival. The player holds this episode unless the listener is already listening to another one.
  if (!dock.current() || (!dock.isChosen() && !isMine())) dock.load(episode, { at: requested });
  if (requested !== undefined) {
    // A moment was asked for: this episode, at that moment (playing on if something was playing).
    playFrom(requested, !audio.paused);
    markTarget(requested, true);
  } else {
    const hash = location.hash.slice(1);
    const fromHash = hash ? paragraphs.findIndex((p) => p.id === hash) : -1;
    if (fromHash >= 0) setFocus(fromHash);
    else if (isMine()) setFocus(paragraphAt(paragraphStarts, offerOpen && offer !== undefined ? offer : audio.currentTime));
    if (isMine() && audio.currentTime > 0) followPlayhead();
  }
  renderActions();
}

export type { PlayerEpisode };
