/** /sitemap.xml and /robots.txt, from the content (pure, so they are testable without a build). */
import type { LoadedContent, Show } from '../content/load.ts';
import { siteUrls } from '../build/urls.ts';
import { newestFirst } from './site.ts';

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function buildSitemap(content: Pick<LoadedContent, 'show' | 'episodes'>): string {
  const urls = siteUrls(content.show);
  const episodes = newestFirst(content.episodes);
  const latest = episodes[0]?.date;
  const entries: Array<{ loc: string; lastmod?: string }> = [
    { loc: urls.home, lastmod: latest },
    { loc: urls.searchPage },
    // The episode list's first page; its other pages (paged, by season, guest, topic) are linked from it.
    { loc: urls.abs('/episodes/'), lastmod: latest },
    ...episodes.map((e) => ({ loc: urls.episodePage(e), lastmod: e.date })),
  ];
  const body = entries
    .map((e) => `  <url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

export function buildRobotsTxt(show: Show): string {
  const urls = siteUrls(show);
  return [
    `# ${show.title}: every page, transcript and feed may be crawled.`,
    `# Agents: see ${urls.llms} and ${urls.agentsMd}.`,
    'User-agent: *',
    'Allow: /',
    '',
    `Sitemap: ${urls.abs('/sitemap.xml')}`,
    '',
  ].join('\n');
}
