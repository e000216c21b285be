/**
 * The search page: as-you-type results from /api/search (debounced; a newer query cancels the older request),
 * the query mirrored in the address (?q=) so a search can be shared or reloaded, and a fallback to the Lunr
 * index in the browser (./offline-search.ts, imported only then) when the API cannot be reached.
 * The number of results is shown with the results, and announced to screen readers only once typing pauses: a live
 * region that changed at every keystroke would talk over the listener's own typing.
 */
import type { SearchResult } from '../../contract/schemas/search.ts';
import { clock, durationSeconds, formatDate, humanDuration } from '../components/format.ts';
import type { OfflineSources } from './offline-search.ts';

const PAGE_SIZE = 20;
/** How long searches stay in the browser after the API failed before it is tried again. */
const API_RETRY_MS = 30_000;
const DEBOUNCE_MS = 200;
/** Quiet time after the last keystroke before the result count is announced. */
const ANNOUNCE_AFTER_MS = 1000;

interface Page {
  results: SearchResult[];
  total: number;
  source: 'api' | 'browser';
}

/** The API understood the request and rejected it (400): the query is the problem, not the connection. */
class QueryRejected extends Error {}

/** Binds the search page; run on each arrival on it (first load or client-side navigation), released by signal. */
export function initSearch(signal: AbortSignal) {
  const form = document.querySelector<HTMLFormElement>('[data-search-form]');
  const input = form?.querySelector<HTMLInputElement>('input[name="q"]');
  const status = document.querySelector<HTMLElement>('[data-search-status]');
  const summary = document.querySelector<HTMLElement>('[data-search-summary]');
  const list = document.querySelector<HTMLOListElement>('[data-results]');
  const more = document.querySelector<HTMLElement>('[data-more]');
  if (!(form && input && status && list && more)) return;
  const api = form.dataset.api ?? '/api/search';
  const sources: OfflineSources = {
    index: form.dataset.index ?? '/search/lunr-index.json',
    passages: form.dataset.passages ?? '/search/passages.json',
    service: form.dataset.service ?? '/service.json',
  };
  const language = document.documentElement.lang || 'en';
  // After the API fails, searches run in the browser until this moment, then the API is tried again: it may be back
  // (a deploy, a 429's window, a network that returned), and only it has the whole show's ranking at hand.
  let apiRetryAt = 0;
  addEventListener('online', () => (apiRetryAt = 0), { signal });
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let announceTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the listener last typed; a search they submitted, opened from an address or paged on is announced at once. */
  let lastInput = -Infinity;
  let generation = 0;
  let current = { query: '', shown: 0, total: 0 };

  const fromApi = async (query: string, offset: number, signal: AbortSignal): Promise<Page> => {
    const url = new URL(api, location.href);
    url.searchParams.set('q', query);
    url.searchParams.set('limit', String(PAGE_SIZE));
    url.searchParams.set('offset', String(offset));
    const res = await fetch(url, { signal, headers: { Accept: 'application/json' } });
    if (res.status === 400) {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      throw new QueryRejected(body?.error?.message ?? 'That search could not be understood.');
    }
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { results?: SearchResult[]; total?: number };
    if (!Array.isArray(body.results)) throw new Error('not a search response');
    return { results: body.results, total: body.total ?? body.results.length, source: 'api' };
  };

  const fromBrowser = async (query: string, offset: number): Promise<Page> => {
    const { searchOffline } = await import('./offline-search.ts');
    const { total, results } = await searchOffline(query, { limit: PAGE_SIZE, offset }, sources);
    return { results, total, source: 'browser' };
  };

  const find = async (query: string, offset: number, signal: AbortSignal): Promise<Page> => {
    if (Date.now() >= apiRetryAt) {
      try {
        return await fromApi(query, offset, signal);
      } catch (err) {
        if (signal.aborted || err instanceof QueryRejected) throw err;
        // Unreachable, not deployed (a static host) or failing: the published index gives the same answers.
        apiRetryAt = Date.now() + API_RETRY_MS;
      }
    }
    return fromBrowser(query, offset);
  };

  /**
   * Same-site result addresses become paths, so they open on whatever origin serves this page. Only web addresses
   * become links: the answer comes over the network, and a javascript: or data: URL in it must not be clickable.
   */
  const site = form.dataset.site ? new URL(form.dataset.site) : undefined;
  const localize = (url: string) => {
    let u: URL;
    try {
      u = new URL(url, location.href);
    } catch {
      return undefined;
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
    return site && u.origin === site.origin ? `${u.pathname}${u.search}${u.hash}` : u.href;
  };

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  /** «marked» words → <mark>, everything else as text (never parsed as HTML). */
  const snippet = (text: string) => {
    const p = el('p', 'snippet');
    for (const part of text.split(/(«[^»]*»)/)) {
      if (!part) continue;
      if (part.startsWith('«') && part.endsWith('»')) p.append(el('mark', undefined, part.slice(1, -1)));
      else p.append(part);
    }
    return p;
  };

  const render = (r: SearchResult) => {
    const href = localize(r.url);
    const li = el('li', 'result');
    const article = el('article');
    const h2 = el('h2');
    const title = el('a', undefined, r.title);
    if (href) title.href = href;
    h2.append(title);
    const meta = el('p', 'meta');
    const bits = [r.season !== undefined ? `Season ${r.season} · Episode ${r.id}` : `Episode ${r.id}`];
    if (r.date) bits.push(formatDate(r.date, language));
    const seconds = durationSeconds(r.duration);
    if (seconds !== undefined) bits.push(humanDuration(seconds));
    for (const bit of bits) meta.append(el('span', undefined, bit));
    article.append(h2, meta);
    if (r.snippet) article.append(snippet(r.snippet));
    if (r.start !== undefined && href) {
      const moment = el('a', 'moment');
      moment.href = href;
      moment.innerHTML = '<svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16"><path d="M7 4.5v15l12-7.5z" fill="currentColor"/></svg>';
      moment.append(`Listen from ${clock(r.start)}`);
      const p = el('p');
      p.append(moment);
      article.append(p);
    }
    li.append(article);
    return li;
  };

  const describe = (query: string, total: number, source: Page['source']) => {
    const where = source === 'browser' ? ' (searched in your browser)' : '';
    if (!total) return `No episodes match “${query}”. Try fewer or different words${where}.`;
    return `${total} episode${total === 1 ? '' : 's'} match${total === 1 ? 'es' : ''} “${query}”${where}.`;
  };

  const tell = (text: string) => {
    if (summary) summary.textContent = text;
    clearTimeout(announceTimer);
    // Unchanged words are not news: written again, they would be said again.
    const announce = () => {
      if (status.textContent !== text) status.textContent = text;
    };
    const wait = lastInput + ANNOUNCE_AFTER_MS - performance.now();
    if (wait > 0) announceTimer = setTimeout(announce, wait);
    else announce();
  };

  const baseTitle = document.title;
  const setAddress = (query: string) => {
    const url = new URL(location.href);
    if (query) url.searchParams.set('q', query);
    else url.searchParams.delete('q');
    history.replaceState(history.state, '', url);
    document.title = query ? `“${query}” · ${baseTitle}` : baseTitle;
  };

  const run = async (query: string, offset = 0) => {
    const mine = ++generation;
    controller?.abort();
    if (offset === 0) setAddress(query);
    if (!query) {
      list.replaceChildren();
      tell('');
      more.hidden = true;
      current = { query: '', shown: 0, total: 0 };
      return;
    }
    controller = new AbortController();
    list.setAttribute('aria-busy', 'true');
    try {
      const page = await find(query, offset, controller.signal);
      if (mine !== generation) return;
      const items = page.results.map(render);
      if (offset === 0) list.replaceChildren(...items);
      else {
        list.append(...items);
        // "Show more" was pressed: continue from the first new result rather than from a button that may vanish.
        items[0]?.querySelector('a')?.focus();
      }
      current = { query, shown: offset + page.results.length, total: page.total };
      tell(describe(query, page.total, page.source));
      more.hidden = current.shown >= current.total || page.results.length === 0;
    } catch (err) {
      if (mine !== generation || controller.signal.aborted) return;
      list.replaceChildren();
      more.hidden = true;
      tell(err instanceof QueryRejected ? err.message : 'Search is not available right now. Please try again in a moment.');
    } finally {
      if (mine === generation) list.removeAttribute('aria-busy');
    }
  };

  input.addEventListener('input', () => {
    lastInput = performance.now();
    // What was about to be announced is about a query the listener has already changed.
    clearTimeout(announceTimer);
    clearTimeout(timer);
    timer = setTimeout(() => void run(input.value.trim()), DEBOUNCE_MS);
  }, { signal });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    lastInput = -Infinity;
    clearTimeout(timer);
    void run(input.value.trim());
  }, { signal });
  more.querySelector('button')?.addEventListener('click', () => {
    lastInput = -Infinity;
    if (current.query && current.shown < current.total) void run(current.query, current.shown);
  }, { signal });
  signal.addEventListener('abort', () => {
    clearTimeout(timer);
    clearTimeout(announceTimer);
    generation++;
    controller?.abort();
  });

  const initial = new URLSearchParams(location.search).get('q');
  if (initial) {
    input.value = initial;
    void run(initial.trim());
  }
}
