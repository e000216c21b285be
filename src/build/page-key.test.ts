import { describe, expect, it } from 'vitest';
import { cardKey, pageKey, shown } from './page-key.ts';

const episode = {
  id: 7,
  title: 'Mushrooms',
  file: 'content/episodes/007-mushrooms.md',
  transcript: { path: 'content/transcripts/007-mushrooms.srt', format: 'srt', digest: 'a1' },
  cues: [{ start: 0, end: 2, text: 'Welcome.' }],
};

describe('page keys', () => {
  it('key the same content alike wherever its folder is', () => {
    const elsewhere = { ...episode, file: '/tmp/x/episodes/007-mushrooms.md', transcript: { path: '/tmp/x/transcripts/007-mushrooms.srt', format: 'srt', digest: 'a1' } };
    expect(pageKey(shown(elsewhere, { cues: true }))).toBe(pageKey(shown(episode, { cues: true })));
  });

  it('change with anything a page shows', () => {
    const base = pageKey(shown(episode, { cues: true }), 2026);
    expect(pageKey(shown({ ...episode, title: 'Fungi' }, { cues: true }), 2026)).not.toBe(base);
    // Another transcript text: another digest (its cues are the digest's: src/content/load.ts).
    expect(pageKey(shown({ ...episode, transcript: { ...episode.transcript, digest: 'b2' } }, { cues: true }), 2026)).not.toBe(base);
    // Without a digest, the cues themselves.
    const undigested = { ...episode, transcript: { path: episode.transcript.path, format: 'srt' } };
    expect(pageKey(shown({ ...undigested, cues: [{ start: 0, end: 2, text: 'Hello.' }] }, { cues: true }), 2026)).not.toBe(pageKey(shown(undigested, { cues: true }), 2026));
    expect(pageKey(shown({ ...episode, transcript: { ...episode.transcript, format: 'vtt' } }, { cues: true }), 2026)).not.toBe(base);
    expect(pageKey(shown(episode, { cues: true }), 2027)).not.toBe(base);
  });

  it('leave the cues out for the pages that do not show them', () => {
    expect(shown(episode, { cues: false })).not.toHaveProperty('cues');
    expect(shown(episode, { cues: true })).toHaveProperty('cues', 'a1');
    expect(shown({ ...episode, transcript: null }, { cues: true })).toHaveProperty('cues', episode.cues);
    expect(shown(episode, { cues: true })).not.toHaveProperty('file');
  });

  it('read no cues when the digest names them (a build makes them only on demand, src/content/load.ts)', () => {
    const onDemand = { ...episode };
    Object.defineProperty(onDemand, 'cues', { enumerable: true, get: () => expect.unreachable('cues read for a key') });
    expect(shown(onDemand, { cues: true })).toEqual(shown(episode, { cues: true }));
    expect(shown(onDemand, { cues: false })).toEqual(shown(episode, { cues: false }));
    // The same fields in the same order as before (the keys of every kept page stay the same).
    expect(Object.keys(shown(episode, { cues: true }))).toEqual(['id', 'title', 'transcript', 'cues']);
  });

  it("name a card by its episode's fields without the cues, made once per episode", () => {
    const onDemand = { ...episode };
    Object.defineProperty(onDemand, 'cues', { enumerable: true, get: () => expect.unreachable('cues read for a card') });
    expect(cardKey(onDemand)).toBe(pageKey(shown(episode, { cues: false })));
    expect(cardKey({ ...episode, title: 'Fungi' })).not.toBe(cardKey(episode));
    expect(cardKey({ ...episode, cues: [] })).toBe(cardKey(episode));
  });
});
