/**
 * The contract's /search-index.json (SearchIndex: episode id → title, description and transcript text) as published,
 * with its gzip made from one piece per episode that the content cache keeps: a rebuild compresses only the
 * episodes whose text changed. Made whole, the document was ~2.3 s of a 1,000-episode rebuild's main thread (58 MB
 * of JSON through an Astro endpoint) and ~1.7 s of gzip on a compression thread, all of it again for one new
 * episode.
 *
 * The pieces: each episode's entry (`{"1":"…"` for the first, `,"2":"…"` after) compressed as raw DEFLATE ended by a
 * sync flush (RFC 1951 blocks, none final, ending on a byte boundary), with the 32 KB of text before it as the
 * preset dictionary: the window a compressor of the whole text would have there. The decoder has those bytes as the
 * output before the piece, so back-references into them are valid, and the pieces in order, between a gzip header
 * and the trailer (RFC 1952: CRC-32 and length of the whole text), are one gzip member of the whole text: what any
 * gunzip reads, the text byte for byte. A piece is kept by its entry and the window before it (by their names when
 * the caller names the entries: Entry), so an episode added at the end compresses one piece, and an edited one its
 * own and the next few. At 1,000 episodes the gzip is 0.12%
 * larger than the whole text's at the same level (4.8% with each piece starting from an empty window).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { SearchIndexSchema } from '../../../contract/schemas/search.ts';
import type { LoadedEpisode } from '../../content/load.ts';
import { cuesOnce } from '../../content/cues-once.ts';

/** The text of each episode's SearchIndex entry: its title, description and transcript's words (`transcript`). */
function searchIndexText(episode: Pick<LoadedEpisode, 'title' | 'desc'>, transcript: string): string {
  return [episode.title, episode.desc ?? '', transcript].filter(Boolean).join('\n\n');
}

/**
 * An episode's transcript as its entry holds it: its cues' texts, one space between. The build keeps it by the
 * transcript's digest (src/build/bulk-documents.ts), so that a rebuild makes no cue of an unchanged episode. The cues
 * are read without keeping them (cuesOnce): the thread that makes this document goes on to the episodes' other files.
 */
export const cueTexts = (episode: Pick<LoadedEpisode, 'cues'>): string => (cuesOnce(episode) ?? []).map((c) => c.text).join(' ');

/** The contract's SearchIndex as an object (the route serves it in `astro dev`; tests compare against it). */
export function buildSearchIndexJson(episodes: ReadonlyArray<Pick<LoadedEpisode, 'id' | 'title' | 'desc' | 'cues'>>): Record<string, string> {
  const entries = [...episodes].sort((a, b) => a.id - b.id).map((e) => [String(e.id), searchIndexText(e, cueTexts(e))] as const);
  return SearchIndexSchema.parse(Object.fromEntries(entries));
}

export interface SearchIndexDocument {
  /** JSON.stringify(buildSearchIndexJson(episodes)), byte for byte, as UTF-8. */
  text: Buffer;
  /** A gzip of `text` (one member), at `level`. */
  gz: Buffer;
}

/**
 * Keeps a piece by its input (what makes its bytes: the entry and the window before it, or their names): `make`
 * when it is not kept (the build keeps them in the content cache); without one every piece is compressed.
 */
export type KeepPiece = (identity: string, input: Uint8Array, make: () => Uint8Array) => Uint8Array;

/**
 * An episode's entry, `"<id>":"<text>"` as UTF-8 (entryText), and what names its bytes when the caller keeps
 * entries (`name`: the same name, the same bytes): a piece whose entry and window are named is kept by those names,
 * without its input's bytes being hashed (at 1,000 episodes ~120 MB a build).
 */
export interface Entry {
  bytes: Uint8Array;
  name?: string;
}

/** The JSON of an episode's entry, without the separator before it. */
export function entryText(episode: Pick<LoadedEpisode, 'id' | 'title' | 'desc' | 'cues'>, transcript: string = cueTexts(episode)): string {
  return `${JSON.stringify(String(episode.id))}:${JSON.stringify(searchIndexText(episode, transcript))}`;
}

/** DEFLATE's window: how far back a piece can refer, so how much of the text before it makes its bytes. */
const WINDOW = 32 * 1024;

const OPEN = Buffer.from('{');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');

/**
 * The document and its gzip at `level`, the entries in episode-id order as JSON.stringify writes an object's
 * integer keys (ids are unique: the content check refuses duplicates).
 */
export function searchIndexDocument<E extends Pick<LoadedEpisode, 'id' | 'title' | 'desc' | 'cues'>>(
  episodes: ReadonlyArray<E>,
  level: number,
  keep: KeepPiece = (_identity, _input, make) => make(),
  entryOf: (episode: E) => Entry = (e) => ({ bytes: Buffer.from(entryText(e)) }),
): SearchIndexDocument {
  // Names what makes a piece besides its input: the format of the pieces, the level and the deflate library
  // (another zlib may compress the same text to other bytes, equally valid).
  const identity = `search-index-piece\0v2\0level ${level}\0zlib ${process.versions.zlib}`;
  const sorted = [...episodes].sort((a, b) => a.id - b.id);
  // The text's parts in order: a separator, then an entry, for each episode; the closing brace last.
  const parts: Uint8Array[] = [];
  const names: Array<string | undefined> = [];
  for (const [i, e] of sorted.entries()) {
    const { bytes, name } = entryOf(e);
    parts.push(i === 0 ? OPEN : COMMA, bytes);
    names.push(i === 0 ? '{' : ',', name);
  }
  parts.push(sorted.length ? CLOSE : Buffer.from('{}'));
  names.push('}');

  const pieces: Uint8Array[] = [GZIP_HEADER];
  let length = 0;
  let crc = 0;
  // Entry k is parts[2k] and parts[2k + 1] (its separator, then itself); the closing brace is the last piece.
  const entries = sorted.length;
  for (let k = 0; k <= entries; k++) {
    const own = k < entries ? [parts[2 * k]!, parts[2 * k + 1]!] : [parts.at(-1)!];
    const from = 2 * k;
    const final = k === entries;
    // The window: the parts before this entry, back to WINDOW bytes (or the start).
    let back = from;
    let windowLength = 0;
    while (back > 0 && windowLength < WINDOW) windowLength += parts[--back]!.byteLength;
    const window = () => {
      const before = Buffer.concat(parts.slice(back, from));
      return before.byteLength > WINDOW ? before.subarray(before.byteLength - WINDOW) : before;
    };
    // The piece's bytes are copied together only to be compressed: a kept piece needs none of them (~87 MB at 1,000
    // episodes).
    const make = () => {
      const dictionary = window();
      return deflateRawSync(Buffer.concat(own), { level, finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH, ...(dictionary.byteLength ? { dictionary } : {}) });
    };
    if (final) pieces.push(make());
    else {
      // Kept by the names of what makes it when every part has one (the separators name themselves), else by its bytes.
      const named = names.slice(back, from + 2);
      const input = named.every((n) => n !== undefined)
        ? Buffer.from(`named\0${Math.min(windowLength, WINDOW)}\0${parts.slice(back, from + 2).map((p, j) => `${named[j]}\0${p.byteLength}`).join('\0')}`)
        : (() => {
            const dictionary = window();
            const head = Buffer.alloc(4);
            head.writeUInt32LE(dictionary.byteLength);
            return Buffer.concat([Buffer.from('bytes\0'), head, dictionary, ...own]);
          })();
      pieces.push(keep(identity, input, make));
    }
    for (const part of own) {
      crc = crc32(part, crc);
      length += part.byteLength;
    }
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  pieces.push(trailer);
  return { text: Buffer.concat(parts), gz: Buffer.concat(pieces) };
}

/** RFC 1952: magic, DEFLATE, no flags, no modification time, no extra flags, OS unknown (as a build's bytes must not vary). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
