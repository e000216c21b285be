/**
 * /rss.xml: RSS 2.0 with the iTunes tags Apple Podcasts requires and the Podcasting 2.0 namespace.
 * The `feed` package writes the RSS skeleton and the tags it knows; every other tag is added through its
 * extension mechanism (xml-js objects, the XML library feed itself is built on). The one thing it cannot express, the
 * podcast namespace's declaration, and the channel's tags before the items are set on the document it wrote (buildRss).
 */
import { Feed, type Extension } from 'feed';
import type { ElementCompact } from 'xml-js';
import type { LoadedContent, LoadedEpisode } from '../content/load.ts';
import { siteUrls } from './urls.ts';
import { transcriptFiles } from './transcripts.ts';

export const PODCAST_NAMESPACE = 'https://podcastindex.org/namespace/1.0';

const text = (value: string | number) => ({ _text: String(value) });
/**
 * Markup escaping: for attribute values (xml-js escapes text nodes but not attributes), and for plain text going
 * into a field that readers render as HTML (an item's description, which feed wraps in CDATA as it is).
 */
const escapeMarkup = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const attrs = (values: Record<string, string>) => ({
  _attributes: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, escapeMarkup(v)])),
});
const ext = (name: string, objects: ElementCompact | ElementCompact[]): Extension => ({ name, objects: objects as Record<string, unknown> });

export function buildRss(content: LoadedContent): string {
  const { show, episodes } = content;
  const urls = siteUrls(show);
  const newestFirst = [...episodes].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id);

  const feed = new Feed({
    title: show.title,
    description: show.description,
    id: urls.home,
    link: urls.home,
    language: show.language,
    image: urls.artwork,
    copyright: show.copyright ?? '',
    // lastBuildDate: the newest item's own time, never before it (an exact pubDate is later than its day's midnight).
    updated: episodes.length ? new Date(Math.max(...episodes.map((e) => Date.parse(e.pubDate ?? `${e.date}T00:00:00Z`)))) : undefined,
    generator: 'podcast-listener-service',
    feedLinks: { rss: urls.rss },
    podcast: true,
  });

  const channel: Extension[] = [
    ext('itunes:author', text(show.author)),
    ext('itunes:summary', text(show.description)),
    ext('itunes:type', text(show.type)),
    ext('itunes:explicit', text(show.explicit ? 'true' : 'false')),
    ext('itunes:image', attrs({ href: urls.artwork })),
    ext('itunes:owner', { 'itunes:name': text(show.owner.name), 'itunes:email': text(show.owner.email) }),
    ext(
      'itunes:category',
      show.categories.map((c) => ({
        ...attrs({ text: c.category }),
        ...(c.subcategories.length ? { 'itunes:category': c.subcategories.map((s) => attrs({ text: s })) } : {}),
      })),
    ),
    ext('podcast:guid', text(show.guid)),
    ext('podcast:medium', text(show.medium)),
    ext('podcast:locked', { ...attrs({ owner: show.owner.email }), _text: show.locked ? 'yes' : 'no' }),
  ];
  const hosts = hostPeople(content, urls);
  if (hosts.length) channel.push(ext('podcast:person', hosts));
  if (show.tips.url) {
    channel.push(ext('podcast:funding', { ...attrs({ url: show.tips.url }), _text: `Support ${show.title}` }));
  }
  for (const e of channel) feed.addExtension(e);

  for (const episode of newestFirst) feed.addItem(item(episode, show.explicit, urls, hosts, show.language));

  const xml = feed.rss2();
  // Two things feed cannot say are set on the document it wrote (xml-js underneath), where its fixed layout makes the
  // place unambiguous, instead of parsing every item back into objects and writing them all again (~1.5 s of a build
  // at 1,300 episodes): the podcast namespace's declaration on <rss>, and the items after the channel's own tags
  // (feed appends the channel's extensions after the items; readers expect the channel's tags first). The channel's
  // text and attributes are escaped (xml-js, attrs), and CDATA is written only inside items, so the first "<item>"
  // and the last "</item>" are the items' own tags.
  const root = xml.indexOf('<rss ');
  const rootEnd = xml.indexOf('>', root);
  const first = xml.indexOf('<item>');
  const channelEnd = xml.lastIndexOf('</channel>');
  const withNamespace = (head: string) => `${head.slice(0, rootEnd)} xmlns:podcast="${PODCAST_NAMESPACE}"${head.slice(rootEnd)}`;
  if (first < 0) return withNamespace(xml);
  const last = xml.lastIndexOf('</item>') + '</item>'.length;
  // The items' indentation moves with them: the line they started on, and the line break after the last.
  const itemsStart = xml.lastIndexOf('\n', first) + 1;
  const afterItems = xml.indexOf('\n', last) + 1 || last;
  const closing = xml.lastIndexOf('\n', channelEnd) + 1;
  return withNamespace(xml.slice(0, itemsStart) + xml.slice(afterItems, closing) + xml.slice(itemsStart, afterItems) + xml.slice(closing));
}

/** podcast:person for each host (role host unless podcast.yaml says otherwise), with img and href when given. */
/**
 * Text that feed writes in a CDATA section (an item's title, description and notes). A "]]>" inside one must end the section
 * and start another; xml-js (under feed) does that for the first "]]>" only, so a second one ended the section
 * early and left the whole feed malformed. The others are split here, the first left to xml-js.
 */
export function inCdata(text: string): string {
  const first = text.indexOf(']]>');
  if (first < 0) return text;
  return text.slice(0, first + 3) + text.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>');
}

function hostPeople(content: LoadedContent, urls: ReturnType<typeof siteUrls>): ElementCompact[] {
  return content.show.hosts.map((h) => ({
    ...attrs({
      role: h.role,
      group: 'cast',
      ...(h.img ? { img: /^https?:\/\//.test(h.img) ? h.img : urls.abs(h.img) } : {}),
      ...(h.href ? { href: h.href } : {}),
    }),
    _text: h.name,
  }));
}

function item(episode: LoadedEpisode, showExplicit: boolean, urls: ReturnType<typeof siteUrls>, hosts: ElementCompact[], language: string) {
  const audio = urls.audio(episode);
  const chapters = urls.chapters(episode);
  const extensions: Extension[] = [
    ext('itunes:title', text(episode.title)),
    ext('itunes:episode', text(episode.id)),
    ext('itunes:season', text(episode.season)),
    ext('itunes:episodeType', text(episode.episodeType)),
    ext('itunes:explicit', text((episode.explicit ?? showExplicit) ? 'true' : 'false')),
    ext('podcast:season', text(episode.season)),
    ext('podcast:episode', text(episode.id)),
  ];
  if (episode.desc) extensions.push(ext('itunes:summary', text(episode.desc)));
  if (episode.seconds !== undefined && !audio) extensions.push(ext('itunes:duration', text(episode.seconds)));
  if (episode.image) {
    extensions.push(ext('itunes:image', attrs({ href: /^https?:\/\//.test(episode.image) ? episode.image : urls.abs(episode.image) })));
  }
  // Every published form of the transcript; SRT and WebVTT carry timings fit for captions.
  const transcripts = transcriptFiles(episode).map((f) =>
    attrs({
      url: urls.abs(`/transcripts/${f.file}`),
      type: f.type,
      ...(f.ext === 'json' ? {} : { rel: 'captions' }),
      language,
    }),
  );
  if (transcripts.length) extensions.push(ext('podcast:transcript', transcripts));
  if (chapters) extensions.push(ext('podcast:chapters', attrs({ url: chapters, type: 'application/json+chapters' })));
  // An item's people replace the channel's for that item (namespace rule), so the hosts are repeated here,
  // unless the episode names its own (an imported feed's item-level hosts).
  const episodeHosts = (episode.hosts ?? []).map((name) => ({ ...attrs({ role: 'host', group: 'cast' }), _text: name }));
  const people = [...(episodeHosts.length ? episodeHosts : hosts), ...(episode.guests ?? []).map((name) => ({ ...attrs({ role: 'guest', group: 'cast' }), _text: name }))];
  if (people.length) extensions.push(ext('podcast:person', people));
  if (audio) {
    // The enclosure exactly as given (feed would normalise the URL and guess the type from the extension), so an
    // imported show's feed keeps each item's enclosure URL, length and type.
    extensions.push(ext('enclosure', attrs({ url: audio, length: String(episode.audioBytes ?? 0), type: episode.audioType ?? 'audio/mpeg' })));
  }
  return {
    title: inCdata(episode.title),
    id: episode.guid,
    guid: episode.guid,
    link: urls.episodePage(episode),
    date: new Date(episode.pubDate ?? `${episode.date}T00:00:00Z`),
    // Plain text (entities in the notes already decoded): "&lt;script&gt;" written as text must stay text.
    description: inCdata(escapeMarkup(episode.desc ?? episode.title)),
    content: episode.html ? inCdata(episode.html) : undefined,
    // feed writes itunes:duration (H:MM:SS) from the enclosure's duration.
    audio: audio
      ? { url: audio, type: 'audio/mpeg', length: episode.audioBytes ?? 0, duration: episode.seconds }
      : undefined,
    extensions,
  };
}
