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
 * gunzip reads, the text byte for byte. A piece is kept by its entry and the window before it, so an episode added
 * at the end compresses one piece, and an edited one its own and the next few. At 1,000 episodes the gzip is 0.12%
 * larger than the whole text's at the same level (4.8% with each piece starting from an empty window).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { SearchIndexSchema } from '../../../contract/schemas/search.ts';
import type { LoadedEpisode } from '../../content/load.ts';

/** The text of each episode's SearchIndex entry: its title, description and transcript's words (`transcript`). */
function searchIndexText(episode: Pick<LoadedEpisode, 'title' | 'desc'>, transcript: string): string {
  return [episode.title, episode.desc ?? '', transcript].filter(Boolean).join('\n\n');
}

/**
 * An episode's transcript as its entry holds it: its cues' texts, one space between. The build keeps it by the
 * transcript's digest (src/build/bulk-documents.ts), so that a rebuild makes no cue of an unchanged episode.
 */
export const cueTexts = (episode: Pick<LoadedEpisode, 'cues'>): string => (episode.cues ?? []).map((c) => c.text).join(' ');

/** The contract's SearchIndex as an object (the route serves it in `astro dev`; tests compare against it). */
export function buildSearchIndexJson(episodes: ReadonlyArray<Pick<LoadedEpisode, 'id' | 'title' | 'desc' | 'cues'>>): Record<string, string> {
  const entries = [...episodes].sort((a, b) => a.id - b.id).map((e) => [String(e.id), searchIndexText(e, cueTexts(e))] as const);
  return SearchIndexSchema.parse(Object.fromEntries(entries));
}

export interface SearchIndexDocument {
  /** JSON.stringify(buildSearchIndexJson(episodes)), byte for byte. */
  text: string;
  /** A gzip of `text` (one member), at `level`. */
  gz: Buffer;
}

/**
 * Keeps a piece by its input (the window before the entry, then the entry): `make` when it is not kept (the build
 * keeps them in the content cache); without one every piece is compressed.
 */
export type KeepPiece = (identity: string, input: Uint8Array, make: () => Uint8Array) => Uint8Array;

/** DEFLATE's window: how far back a piece can refer, so how much of the text before it makes its bytes. */
const WINDOW = 32 * 1024;

/**
 * The document and its gzip at `level`, the entries in episode-id order as JSON.stringify writes an object's
 * integer keys (ids are unique: the content check refuses duplicates).
 */
export function searchIndexDocument<E extends Pick<LoadedEpisode, 'id' | 'title' | 'desc' | 'cues'>>(
  episodes: ReadonlyArray<E>,
  level: number,
  keep: KeepPiece = (_identity, _input, make) => make(),
  transcriptText: (episode: E) => string = cueTexts,
): SearchIndexDocument {
  // Names what makes a piece besides its input: the format of the pieces, the level and the deflate library
  // (another zlib may compress the same text to other bytes, equally valid).
  const identity = `search-index-piece\0v1\0level ${level}\0zlib ${process.versions.zlib}`;
  const sorted = [...episodes].sort((a, b) => a.id - b.id);
  const entries = sorted.map((e, i) => `${i === 0 ? '{' : ','}${JSON.stringify(String(e.id))}:${JSON.stringify(searchIndexText(e, transcriptText(e)))}`);
  entries.push(sorted.length ? '}' : '{}');
  const pieces: Uint8Array[] = [GZIP_HEADER];
  let window: Buffer = Buffer.alloc(0);
  let length = 0;
  let crc = 0;
  entries.forEach((entry, i) => {
    const bytes = Buffer.from(entry);
    const final = i === entries.length - 1;
    const options = { level, finishFlush: final ? constants.Z_FINISH : constants.Z_SYNC_FLUSH, ...(window.byteLength ? { dictionary: window } : {}) };
    const make = () => deflateRawSync(bytes, options);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(window.byteLength);
    pieces.push(final ? make() : keep(identity, Buffer.concat([head, window, bytes]), make));
    crc = crc32(bytes, crc);
    length += bytes.byteLength;
    window = Buffer.concat([window, bytes]);
    if (window.byteLength > WINDOW) window = window.subarray(window.byteLength - WINDOW);
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  pieces.push(trailer);
  return { text: entries.join(''), gz: Buffer.concat(pieces) };
}

/** RFC 1952: magic, DEFLATE, no flags, no modification time, no extra flags, OS unknown (as a build's bytes must not vary). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
