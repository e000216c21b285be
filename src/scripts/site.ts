/**
 * The site's one script, the same file on every page: Astro's client router runs it once per visit, so the
 * player (./dock.ts) lives as long as the visit. On every arrival on a page (first load or client-side
 * navigation) it binds what that page has, and releases it when the page is left.
 * The search page's code is loaded only there.
 */
import { initShortcutsSwitch } from './dock.ts';
import { initCopy } from './copy.ts';
import { initLists } from './lists.ts';
import { initEpisodePage } from './player.ts';

let page: AbortController | undefined;
/** The body the bindings belong to: the router swaps in a new one on each navigation. */
let boundTo: HTMLElement | undefined;

function arrive() {
  if (boundTo === document.body) return;
  boundTo = document.body;
  page?.abort();
  page = new AbortController();
  const { signal } = page;
  document.querySelector<HTMLElement>('[data-shortcuts]')?.removeAttribute('hidden');
  initShortcutsSwitch(signal);
  initCopy(signal);
  initLists(signal);
  const episode = document.querySelector<HTMLElement>('[data-episode-page]');
  if (episode) initEpisodePage(episode, signal);
  if (document.querySelector('[data-search-form]')) {
    void import('./search.ts').then(({ initSearch }) => {
      if (!signal.aborted) initSearch(signal);
    });
  }
}

// At once on the first page (the router's own first astro:page-load waits for the window's load event), then
// after every client-side navigation.
arrive();
document.addEventListener('astro:page-load', arrive);
document.addEventListener('astro:before-swap', () => page?.abort());
