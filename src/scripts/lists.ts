/**
 * Episode lists (home, the paged lists and their filters): each card of an episode the listener finished is
 * marked as played, one they started shows the time left; and any `button[data-play-episode]` (the home page's
 * latest episode) starts the episode in its data-episode (read by dock.episodeFrom, like the player's own) in the
 * site-wide player.
 */
import { clock } from '../components/format.ts';
import { allPositions } from './positions.ts';
import * as dock from './dock.ts';

export function markPlayed(root: ParentNode = document) {
  const positions = allPositions();
  for (const card of root.querySelectorAll<HTMLElement>('[data-episode-id]')) {
    const p = positions[card.dataset.episodeId ?? ''];
    const badge = card.querySelector<HTMLElement>('[data-progress]');
    card.classList.toggle('is-played', Boolean(p?.done));
    if (!badge) continue;
    if (p?.done) badge.textContent = 'Played';
    else if (p && p.t >= 3) badge.textContent = p.d ? `${clock(Math.max(0, p.d - p.t))} left` : `Stopped at ${clock(p.t)}`;
    else badge.textContent = '';
    badge.hidden = !badge.textContent;
  }
}

export function initLists(signal: AbortSignal) {
  markPlayed();
  document.addEventListener('player:saved', () => markPlayed(), { signal });
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-play-episode]')) {
    const episode = dock.episodeFrom(button);
    if (!episode) continue;
    button.hidden = false;
    const label = button.querySelector<HTMLElement>('[data-play-label]');
    const render = () => {
      // The label says the state ("Play" / "Pause"), so no aria-pressed: it would say it again, the other way round.
      const playing = dock.current()?.id === episode.id && !dock.element().paused;
      if (label) label.textContent = playing ? 'Pause' : 'Play';
    };
    button.addEventListener('click', () => {
      if (dock.current()?.id === episode.id) dock.toggle();
      else dock.load(episode, { play: true });
    }, { signal });
    dock.element().addEventListener('play', render, { signal });
    dock.element().addEventListener('pause', render, { signal });
    document.addEventListener('player:episode', render, { signal });
    render();
  }
}
