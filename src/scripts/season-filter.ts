/**
 * Home page: the season filter. The list is complete without JavaScript; this only shows the radio group and
 * hides the other seasons' episodes. The choice is kept in the address (?season=2) so it can be shared.
 */
const filter = document.querySelector<HTMLFieldSetElement>('[data-season-filter]');
const list = document.querySelector<HTMLOListElement>('[data-episode-list]');
const status = document.querySelector<HTMLElement>('[data-season-status]');

if (filter && list) {
  const items = [...list.querySelectorAll<HTMLLIElement>('li[data-season]')];
  const radios = [...filter.querySelectorAll<HTMLInputElement>('input[name="season"]')];

  const apply = (season: string, announce: boolean) => {
    let shown = 0;
    for (const item of items) {
      const visible = season === 'all' || item.dataset.season === season;
      item.hidden = !visible;
      if (visible) shown++;
    }
    if (status && announce) {
      status.textContent = `${shown} episode${shown === 1 ? '' : 's'}${season === 'all' ? '' : ` in season ${season}`}`;
    }
  };

  filter.addEventListener('change', (event) => {
    const input = event.target as HTMLInputElement;
    if (input.name !== 'season') return;
    apply(input.value, true);
    const url = new URL(location.href);
    if (input.value === 'all') url.searchParams.delete('season');
    else url.searchParams.set('season', input.value);
    history.replaceState(history.state, '', url);
  });

  const wanted = new URLSearchParams(location.search).get('season');
  const initial = radios.find((r) => r.value === wanted);
  if (initial) {
    initial.checked = true;
    apply(initial.value, false);
  }
  filter.hidden = false;
}

// A module, not a global script: its top-level names stay private.
export {};
