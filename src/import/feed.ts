/**
 * Reading and checking the feed before anything is written: a file or an http(s) URL, decoded by its XML declaration,
 * checked to be well-formed XML (fast-xml-parser's validator, which names the line) and an RSS feed (feedsmith),
 * then every item checked for an enclosure and a guid of its own. Bad input is one ImportError with one line.
 */
import { readFile, stat } from 'node:fs/promises';
import { XMLValidator } from 'fast-xml-parser';
import { parseRssFeed } from 'feedsmith';
import { fetchBytes, FetchFailure, type FetchLike } from './fetch.ts';
import { itemGuid, itemLabel, type ParsedFeed } from './map.ts';

export class ImportError extends Error {
  override name = 'ImportError';
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

export async function readFeedBytes(source: string, options: { maxBytes: number; timeoutMs: number; fetch?: FetchLike }): Promise<Buffer> {
  if (isUrl(source)) {
    try {
      return await fetchBytes(source, options);
    } catch (e) {
      throw new ImportError(`${source}: cannot fetch the feed: ${(e as FetchFailure).message}`);
    }
  }
  let size: number;
  try {
    const s = await stat(source);
    if (!s.isFile()) throw new ImportError(`${source}: is not a file`);
    size = s.size;
  } catch (e) {
    if (e instanceof ImportError) throw e;
    throw new ImportError(`${source}: no such file (give a feed file path or an http(s) URL)`);
  }
  if (size > options.maxBytes) throw new ImportError(`${source}: the feed is larger than ${mb(options.maxBytes)}`);
  return readFile(source);
}

/** Bytes → text in the encoding the XML declaration names (UTF-8 when it names none). */
export function decodeXml(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes);
  }
  const head = bytes.subarray(0, 200).toString('latin1');
  const encoding = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head)?.[1];
  if (encoding && !/^utf-?8$/i.test(encoding)) {
    try {
      return new TextDecoder(encoding).decode(bytes);
    } catch {
      // An encoding TextDecoder does not know: read as UTF-8, the XML default.
    }
  }
  return bytes.toString('utf8');
}

/** Text → the parsed RSS feed, or an ImportError that says in one line what is wrong and where. */
export function parseFeedText(text: string, name: string): ParsedFeed {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (!body.startsWith('<')) throw new ImportError(`${name}: is not XML (it does not start with a tag)`);
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    throw new ImportError(`${name}: is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  }
  // The first element after the prolog (declaration, comments, processing instructions, a DOCTYPE with its
  // internal subset, whose entity values may hold tags of their own).
  const prolog = /^(?:\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE(?:[^[>]|\[[\s\S]*?\])*>))*/i.exec(body)![0];
  const root = /^\s*<([\w:.-]+)/.exec(body.slice(prolog.length))?.[1] ?? '';
  let feed: ParsedFeed;
  try {
    feed = parseRssFeed(body);
  } catch (err) {
    if (root.toLowerCase() === 'rss') {
      // The XML parser's own reason (external entities refused, nesting too deep...), which feedsmith keeps as the cause.
      const reason = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
      throw new ImportError(`${name}: is an RSS feed that cannot be read: ${reason}`);
    }
    throw new ImportError(`${name}: is XML but not an RSS feed (its root element is <${root}>, not <rss>)`);
  }
  if (root.toLowerCase() !== 'rss') {
    throw new ImportError(`${name}: is XML but not an RSS 2.0 feed (its root element is <${root}>, not <rss>)`);
  }
  return feed;
}

const list = (labels: string[]) =>
  labels.length > 5 ? `${labels.slice(0, 5).join(', ')} and ${labels.length - 5} more` : labels.join(', ');

/** Every item needs an enclosure with an http(s) URL and a guid no other item has. */
export function checkItems(feed: ParsedFeed, name: string): void {
  const items = feed.items ?? [];
  if (!items.length) throw new ImportError(`${name}: the feed has no items (no episodes to import)`);
  const noEnclosure: string[] = [];
  const badEnclosure: string[] = [];
  const seen = new Map<string, string>();
  const duplicates: string[] = [];
  items.forEach((item, i) => {
    const label = itemLabel(item, i + 1);
    const enclosure = item.enclosures?.find((e) => e.url?.trim());
    if (!enclosure) noEnclosure.push(label);
    else if (!/^https?:\/\//i.test(enclosure.url!.trim()) || !URL.canParse(enclosure.url!.trim())) badEnclosure.push(label);
    const guid = itemGuid(item);
    if (guid === undefined) return;
    const first = seen.get(guid);
    if (first) duplicates.push(`${label} repeats the guid "${guid}" of ${first}`);
    else seen.set(guid, label);
  });
  if (noEnclosure.length) {
    throw new ImportError(`${name}: ${noEnclosure.length === 1 ? 'an item has' : `${noEnclosure.length} items have`} no enclosure (no audio): ${list(noEnclosure)}`);
  }
  if (badEnclosure.length) {
    throw new ImportError(`${name}: enclosure URL is not an absolute http(s) URL in ${list(badEnclosure)}`);
  }
  if (duplicates.length) throw new ImportError(`${name}: duplicate guids: ${list(duplicates)}`);
}
