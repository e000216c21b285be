import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SearchIndexSchema } from '../../../contract/schemas/search.ts';
import { loadContentOrThrow } from '../../content/load.ts';
import { buildSearchIndexJson, entryText, searchIndexDocument, type KeepPiece } from './search-index-document.ts';

const content = loadContentOrThrow(join(import.meta.dirname, '../../../content'), {});
const cue = (text: string) => ({ start: 0, end: 1, text });

/** The gzip read by the Web platform's decoder (what a fetch with Content-Encoding: gzip uses), not node:zlib's. */
async function webGunzip(gz: Uint8Array): Promise<string> {
  return new Response(new Blob([new Uint8Array(gz)]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

describe('buildSearchIndexJson', () => {
  it('maps every episode id to its title, description and transcript, per the contract', () => {
    const json = buildSearchIndexJson([
      { id: 2, title: 'Two', desc: 'Second.', cues: [cue('Hello'), cue('there.')] },
      { id: 1, title: 'One', cues: null },
    ]);
    expect(SearchIndexSchema.parse(json)).toEqual({ '1': 'One', '2': 'Two\n\nSecond.\n\nHello there.' });
    expect(Object.keys(json)).toEqual(['1', '2']);
  });
});

describe('searchIndexDocument', () => {
  it("is the contract's SearchIndex as JSON.stringify writes it, and its gzip is that text, for the sample show", async () => {
    const made = searchIndexDocument(content.episodes, 5);
    const text = made.text.toString();
    const { gz } = made;
    expect(text).toBe(JSON.stringify(buildSearchIndexJson(content.episodes)));
    expect(Object.keys(SearchIndexSchema.parse(JSON.parse(text)))).toHaveLength(content.episodes.length);
    expect(gunzipSync(gz).toString()).toBe(text);
    expect(await webGunzip(gz)).toBe(text);
    // One piece an episode costs little against compressing the text whole.
    expect(gz.byteLength).toBeLessThan(gzipSync(text, { level: 5 }).byteLength * 1.01);
  });

  it('holds any text and any order of ids: escapes, astral characters, ids out of order, one episode, none', async () => {
    const odd = [
      { id: 30, title: 'Quotes " and \\ and\nnew lines', desc: '\u2028 \u0000', cues: [cue('\ud83c\udf75 tea'), cue('</script>')] },
      { id: 4, title: 'Four', cues: null },
      { id: 100000, title: 'Far', desc: 'é', cues: [] },
    ];
    for (const episodes of [odd, odd.slice(0, 1), []]) {
      const made = searchIndexDocument(episodes, 6);
      const text = made.text.toString();
      const { gz } = made;
      expect(text).toBe(JSON.stringify(buildSearchIndexJson(episodes)));
      expect(gunzipSync(gz).toString()).toBe(text);
      expect(await webGunzip(gz)).toBe(text);
    }
    expect(searchIndexDocument([], 5).text.toString()).toBe('{}');
  });

  it('compresses only the pieces it does not keep: another episode added compresses that one, and the bytes match a whole make', () => {
    const kept = new Map<string, Uint8Array>();
    let made = 0;
    const keep: KeepPiece = (identity, input, make) => {
      const key = `${identity}\0${Buffer.from(input).toString('base64')}`;
      let piece = kept.get(key);
      if (!piece) {
        made++;
        kept.set(key, (piece = make()));
      }
      return piece;
    };
    const first = searchIndexDocument(content.episodes, 5, keep);
    expect(made).toBe(content.episodes.length);
    const last = content.episodes.at(-1)!;
    const more = [...content.episodes, { ...last, id: last.id + 1, title: 'One more' }];
    made = 0;
    const second = searchIndexDocument(more, 5, keep);
    expect(made).toBe(1);
    expect(second.gz.equals(searchIndexDocument(more, 5).gz)).toBe(true);
    expect(gunzipSync(second.gz).toString()).toBe(JSON.stringify(buildSearchIndexJson(more)));
    expect(second.gz.subarray(0, 20).equals(first.gz.subarray(0, 20))).toBe(true);
    // An episode edited: its piece, and the next one, whose window holds the edit.
    made = 0;
    const edited = more.map((e, i) => (i === more.length - 2 ? { ...e, title: `${e.title}, edited` } : e));
    const third = searchIndexDocument(edited, 5, keep);
    expect(made).toBe(2);
    expect(gunzipSync(third.gz).toString()).toBe(JSON.stringify(buildSearchIndexJson(edited)));
  });

  it('keeps a piece by the names of its entry and window when the caller names the entries: the same bytes, no entry read for its key', () => {
    const kept = new Map<string, Uint8Array>();
    let made = 0;
    const keep: KeepPiece = (identity, input, make) => {
      const key = `${identity}\0${Buffer.from(input).toString('base64')}`;
      expect(input.byteLength).toBeLessThan(2_000);
      let piece = kept.get(key);
      if (!piece) {
        made++;
        kept.set(key, (piece = make()));
      }
      return piece;
    };
    const named = (e: (typeof content.episodes)[number]) => ({ name: `${e.id}/${e.title}`, bytes: Buffer.from(entryText(e)) });
    const whole = searchIndexDocument(content.episodes, 5);
    const first = searchIndexDocument(content.episodes, 5, keep, named);
    expect(made).toBe(content.episodes.length);
    expect(first.gz.equals(whole.gz)).toBe(true);
    expect(first.text.equals(whole.text)).toBe(true);
    // An episode edited: its piece and those whose window (32 KB) reaches into its entry; the others are kept by name.
    made = 0;
    const edited = content.episodes.map((e, i) => (i === 3 ? { ...e, title: `${e.title}, edited` } : e));
    const second = searchIndexDocument(edited, 5, keep, named);
    const sizes = [...edited].sort((a, b) => a.id - b.id).map((e) => Buffer.byteLength(entryText(e)) + 1);
    let reached = 1;
    for (let k = 4, between = 0; k < sizes.length && between < 32 * 1024; between += sizes[k++]!) reached++;
    expect(reached).toBeGreaterThan(1);
    expect(reached).toBeLessThan(sizes.length - 3);
    expect(made).toBe(reached);
    expect(second.gz.equals(searchIndexDocument(edited, 5).gz)).toBe(true);
  });
});
