/**
 * The website's own pages at a show size: what a listener downloads for the home page (issue 19: it must stay
 * small however many episodes there are), the first page of the episode list, the largest episode page, and
 * how many list pages (paged, by season, guest and topic, both orders) the build wrote.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface PageSize {
  page: string;
  bytes: number;
  gzipBytes: number;
  brBytes?: number;
}

export interface SitePages {
  pages: PageSize[];
  /** index.html files under /episodes/ that are list pages (not episode pages). */
  listPages: number;
}

function size(clientDir: string, page: string, file: string): PageSize | undefined {
  const full = join(clientDir, file);
  if (!existsSync(full)) return undefined;
  const body = readFileSync(full);
  const br = existsSync(`${full}.br`) ? readFileSync(`${full}.br`).length : undefined;
  return { page, bytes: body.length, gzipBytes: gzipSync(body).length, ...(br ? { brBytes: br } : {}) };
}

export function sitePages(clientDir: string): SitePages {
  const pages: PageSize[] = [];
  const add = (page: string, file: string) => {
    const s = size(clientDir, page, file);
    if (s) pages.push(s);
  };
  add('/ (home)', 'index.html');
  add('/episodes/ (list, page 1)', 'episodes/index.html');
  add('/episodes/guests/', 'episodes/guests/index.html');
  add('/episodes/topics/', 'episodes/topics/index.html');
  const episodesDir = join(clientDir, 'episodes');
  let largest: PageSize | undefined;
  let listPages = 0;
  const LIST = /^(page|oldest|season|guest|topic)$/;
  if (existsSync(episodesDir)) {
    for (const entry of readdirSync(episodesDir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (LIST.test(entry.name)) {
        const walk = (dir: string) => {
          for (const e of readdirSync(dir, { withFileTypes: true })) {
            if (e.isDirectory()) walk(join(dir, e.name));
            else if (e.name === 'index.html') listPages++;
          }
        };
        walk(join(episodesDir, entry.name));
        continue;
      }
      if (entry.name === 'guests' || entry.name === 'topics') continue;
      const s = size(clientDir, `/episodes/${entry.name}/`, `episodes/${entry.name}/index.html`);
      if (s && (!largest || s.bytes > largest.bytes)) largest = s;
    }
  }
  if (existsSync(join(episodesDir, 'index.html'))) listPages++;
  if (largest) pages.push({ ...largest, page: `${largest.page} (largest episode page)` });
  return { pages, listPages };
}
