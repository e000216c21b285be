/**
 * Episode page: ties the transcript and chapters to the <audio> element.
 *
 * - A click on any `a[data-seek]` (chapter, transcript timestamp) seeks and plays; the links stay real links to
 *   `?t=`, so without JavaScript, or with a modifier key, they still open the moment.
 * - `?t=SECONDS` on arrival sets the player to that moment once its metadata is known, and highlights and
 *   scrolls to the passage that contains it.
 * - While audio plays, the passage and chapter under the playhead are marked.
 * - Skip, speed and share buttons (hidden until this runs).
 * Setting currentTime beyond the end of the file clamps to its duration; the highlight stays on the passage
 * that was asked for (`is-target`), and the playing marker follows where the audio really is (`is-playing`).
 */
import { clock, parseTime } from '../components/format.ts';
import { paragraphAt } from '../components/transcript.ts';

const audio = document.querySelector<HTMLAudioElement>('audio[data-player]');
const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)');

if (audio) {
  const paragraphs = [...document.querySelectorAll<HTMLElement>('[data-transcript] [data-start]')];
  const paragraphStarts = paragraphs.map((p) => Number(p.dataset.start));
  const chapterLinks = [...document.querySelectorAll<HTMLAnchorElement>('[data-chapters] a[data-chapter]')];
  const chapterStarts = chapterLinks.map((a) => Number(a.dataset.chapter));
  const now = document.querySelector<HTMLElement>('[data-now]');
  const status = document.querySelector<HTMLElement>('[data-player-status]');

  let pending: { at: number; play: boolean } | undefined;
  let waiting = false;

  const apply = () => {
    if (!pending) return;
    const { at, play } = pending;
    pending = undefined;
    audio.currentTime = at;
    if (play) void audio.play().catch(() => {});
  };

  /** Seeks now if the metadata is known, else as soon as it is (setting currentTime earlier is not reliable). */
  const seek = (at: number, play: boolean) => {
    pending = { at: Math.max(0, at), play };
    if (audio.readyState >= HTMLMediaElement.HAVE_METADATA) return apply();
    if (!waiting) {
      waiting = true;
      audio.addEventListener('loadedmetadata', () => ((waiting = false), apply()), { once: true });
    }
    if (play) void audio.play().catch(() => {});
    else if (audio.networkState === HTMLMediaElement.NETWORK_EMPTY || audio.preload === 'none') audio.load();
  };

  let target: HTMLElement | undefined;
  const markTarget = (at: number, scroll: boolean) => {
    const p = paragraphs[paragraphAt(paragraphStarts, at)];
    if (!p) return;
    target?.classList.remove('is-target');
    target = p;
    p.classList.add('is-target');
    if (scroll) p.scrollIntoView({ block: 'center', behavior: reduceMotion.matches ? 'auto' : 'smooth' });
  };

  let playing: HTMLElement | undefined;
  let chapter: HTMLAnchorElement | undefined;
  const follow = () => {
    const t = audio.currentTime;
    const p = paragraphs[paragraphAt(paragraphStarts, t)];
    if (p !== playing) {
      playing?.classList.remove('is-playing');
      playing = p;
      p?.classList.add('is-playing');
    }
    const c = chapterLinks[paragraphAt(chapterStarts, t)];
    if (c !== chapter) {
      chapter?.removeAttribute('aria-current');
      chapter = c;
      c?.setAttribute('aria-current', 'true');
      if (now) now.textContent = c ? `Chapter: ${c.dataset.title ?? ''}` : '';
    }
  };
  // Only while playing: a paused player that was clamped at the end should not move the marker.
  audio.addEventListener('timeupdate', () => {
    if (!audio.paused) follow();
  });
  audio.addEventListener('play', follow);

  const setAddress = (at: number) => {
    const url = new URL(location.href);
    url.searchParams.set('t', String(Math.floor(at)));
    url.hash = '';
    history.replaceState(history.state, '', url);
  };

  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-seek]');
    if (!link) return;
    const at = Number(link.dataset.seek);
    if (!Number.isFinite(at)) return;
    event.preventDefault();
    seek(at, true);
    markTarget(at, false);
    setAddress(at);
  });

  const bar = document.querySelector<HTMLElement>('[data-player-bar]');
  if (bar) {
    bar.hidden = false;
    const announce = (text: string) => {
      if (status) status.textContent = text;
    };
    for (const button of bar.querySelectorAll<HTMLButtonElement>('button[data-skip]')) {
      button.addEventListener('click', () => {
        const by = Number(button.dataset.skip);
        const end = Number.isFinite(audio.duration) ? audio.duration : Infinity;
        audio.currentTime = Math.min(end, Math.max(0, audio.currentTime + by));
      });
    }
    const rates = [1, 1.25, 1.5, 1.75, 2, 0.75];
    const rateButton = bar.querySelector<HTMLButtonElement>('button[data-rate]');
    const rateValue = rateButton?.querySelector<HTMLElement>('[data-rate-value]');
    const showRate = () => {
      if (rateValue) rateValue.textContent = `${audio.playbackRate}×`;
    };
    rateButton?.addEventListener('click', () => {
      const next = rates[(rates.indexOf(audio.playbackRate) + 1) % rates.length] ?? 1;
      audio.playbackRate = next;
      audio.defaultPlaybackRate = next;
      try {
        localStorage.setItem('playbackRate', String(next));
      } catch {}
      announce(`Playback speed ${next} times`);
    });
    audio.addEventListener('ratechange', showRate);
    try {
      const saved = Number(localStorage.getItem('playbackRate'));
      if (rates.includes(saved)) {
        audio.defaultPlaybackRate = saved;
        audio.playbackRate = saved;
      }
    } catch {}
    showRate();

    const share = bar.querySelector<HTMLButtonElement>('button[data-share]');
    const shareLabel = share?.querySelector<HTMLElement>('[data-share-label]');
    if (share && navigator.clipboard && window.isSecureContext) {
      share.addEventListener('click', async () => {
        const at = Math.floor(audio.currentTime);
        const url = new URL(location.href);
        url.hash = '';
        if (at > 0) url.searchParams.set('t', String(at));
        else url.searchParams.delete('t');
        try {
          await navigator.clipboard.writeText(url.href);
          announce(`Link to ${clock(at)} copied`);
          if (shareLabel) {
            shareLabel.textContent = 'Copied';
            setTimeout(() => (shareLabel.textContent = 'Share'), 2500);
          }
        } catch {
          announce('Could not copy the link');
        }
      });
    } else share?.remove();
  }

  const requested = parseTime(new URLSearchParams(location.search).get('t'));
  if (requested !== undefined) {
    seek(requested, false);
    markTarget(requested, true);
  }
}
