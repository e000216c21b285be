import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configureParseCache } from '../../content/parse-cache.ts';
import { buildSemantic } from './semantic.ts';
import { GENERIC_MIN, relatedTerms } from '../../../contract/search/semantic.ts';
import { EXPANSION } from '../../../functions/search/ask-understanding.ts';
import type { BuiltPassage as Passage } from './passages.ts';

const passage = (episode: number, start: number, text: string): Passage => ({ episode, start, end: start + 30, cues: [[start, text]] });

/** A tiny show: naps and sour bread, plus filler passages so that no term is in most passages. */
const passages: Passage[] = [
  passage(1, 0, 'A short nap after lunch keeps you alert.'),
  passage(1, 30, 'The sour taste comes from lactic acid in the starter.'),
  passage(1, 60, 'Harbour cranes lift containers onto ships.'),
  passage(1, 90, 'The choir rehearses on Thursday evenings.'),
  passage(1, 120, 'Glaciers carve valleys over thousands of years.'),
  passage(1, 150, 'Pianos need tuning twice a year.'),
  passage(1, 180, 'Lighthouses guide ships along rocky coasts.'),
  passage(1, 210, 'Marathon runners train through the winter.'),
];

describe('buildSemantic (WordNet + co-occurrence, build time)', () => {
  it('maps a word the show never uses to the show terms that mean something close', async () => {
    const data = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
    expect(relatedTerms(data, 'snooz').map((r) => r.term)).toContain('nap');
    expect(relatedTerms(data, 'tart').map((r) => r.term)).toContain('sour');
  });

  it('suggests only terms that occur in the show, each weighing less than a word as typed', async () => {
    const data = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
    const vocabulary = new Set(passages.flatMap((p) => p.cues[0]![1].toLowerCase().match(/[a-z]+/g)!));
    for (const line of Object.values(data.related).slice(0, 2000)) {
      for (const [i, part] of line.split(' ').entries()) {
        if (i % 2 === 1) {
          expect(Number(part)).toBeGreaterThan(0);
          expect(Number(part)).toBeLessThan(100);
        }
      }
    }
    const suggested = new Set(Object.values(data.related).flatMap((l) => l.split(' ').filter((_, i) => i % 2 === 0)));
    for (const term of suggested) expect([...vocabulary].some((w) => w.startsWith(term.slice(0, 3))), term).toBe(true);
  });

  it('keeps a rare word’s synonyms but not a link through a broader word only (WordNet’s SemCor counts)', async () => {
    const withLarch = [...passages, passage(1, 240, 'A larch drops its needles in autumn.')];
    const pruned = await buildSemantic({ language: 'en', passages: withLarch, episodeTexts: [] });
    const full = await buildSemantic({ language: 'en', passages: withLarch, episodeTexts: [] }, { minTagged: 0 });
    // "snooze" is never tagged in SemCor, yet its synonym "nap" stays; "tamarack" is a larch and nothing else here.
    expect(relatedTerms(pruned, 'snooz').map((r) => r.term)).toContain('nap');
    expect(relatedTerms(full, 'tamarack').map((r) => r.term)).toContain('larch');
    expect(relatedTerms(pruned, 'tamarack')).toEqual([]);
    expect(Object.keys(pruned.related).length).toBeLessThan(Object.keys(full.related).length);
  });

  it('keys two everyday words that name one thing (a WordNet noun collocation) by both stems, without its own words', async () => {
    const withTides = [...passages, passage(1, 240, 'Spring tides and neap tides follow the moon.')];
    const data = await buildSemantic({ language: 'en', passages: withTides, episodeTexts: [] });
    // "high water" is the high tide, a kind of tide; "water" alone relates to nothing of the sort.
    expect(relatedTerms(data, 'high water').map((r) => r.term)).toContain('tide');
    expect(relatedTerms(data, 'water').map((r) => r.term)).not.toContain('tide');
    expect(relatedTerms(data, 'high water').map((r) => r.term)).not.toContain('water');
    // Not phrasal verbs ("go out": to leave), nor names of rare words ("abies bracteata", a fir).
    const firs = await buildSemantic({ language: 'en', passages: [...withTides, passage(1, 270, 'A fir stands by the exit where we leave.')], episodeTexts: [] });
    expect(relatedTerms(firs, 'go out')).toEqual([]);
    expect(relatedTerms(firs, 'abi bracteata')).toEqual([]);
    expect(relatedTerms(firs, 'high water').map((r) => r.term)).toContain('tide');
  });

  it('keeps no more related terms per word than /ask reads', async () => {
    const data = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
    for (const line of Object.values(data.related)) expect(line.split(' ').length / 2).toBeLessThanOrEqual(EXPANSION.perWord);
  });

  it('lists how common everyday words are (SemCor counts), the commonest only', async () => {
    const data = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
    expect(data.generic!['make']).toBeGreaterThan(data.generic!['long']!);
    expect(data.generic!['long']).toBeGreaterThanOrEqual(GENERIC_MIN);
    // "loaf" is tagged a few times only: a rare word keeps its full weight, so it is not listed.
    expect(Object.hasOwn(data.generic!, 'loaf')).toBe(false);
  });

  it('for another language, uses only the show’s co-occurrence statistics (no WordNet)', async () => {
    const de = [
      ...Array.from({ length: 4 }, (_, i) => passage(1, i * 30, 'Die Bienen tanzen, die Bienen tanzen im Stock.')),
      ...Array.from({ length: 30 }, (_, i) => passage(1, 200 + i * 30, `Füllwort${i} Nummer${i}.`)),
    ];
    const data = await buildSemantic({ language: 'de', passages: de, episodeTexts: [] });
    expect(data.language).toBe('de');
    expect(data.generic).toBeUndefined();
    const keys = Object.keys(data.related);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.length).toBeLessThan(10);
  });

  describe('WordNet’s part, kept between builds', () => {
    let dir: string | undefined;
    afterEach(() => {
      configureParseCache(undefined);
      if (dir) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    });

    // The build's cache also keeps the passages' analysis (.bin); WordNet's part is the one JSON entry.
    const kept = () => readdirSync(dir!).filter((name) => name.endsWith('.json'));

    it('is kept once, and an artifact made with it is the one made without a cache', async () => {
      const uncached = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
      dir = mkdtempSync(join(tmpdir(), 'semantic-cache-'));
      configureParseCache(dir);
      expect(await buildSemantic({ language: 'en', passages, episodeTexts: [] })).toEqual(uncached);
      const [entry] = kept();
      expect(kept()).toHaveLength(1);
      const written = statSync(join(dir, entry!)).mtimeMs;
      // Another show: the same WordNet part, other terms of it taken.
      const other = [...passages, passage(1, 240, 'A larch drops its needles in autumn.')];
      const second = await buildSemantic({ language: 'en', passages: other, episodeTexts: [] });
      expect(kept()).toEqual([entry]);
      expect(statSync(join(dir, entry!)).mtimeMs).toBe(written);
      configureParseCache(undefined);
      expect(second).toEqual(await buildSemantic({ language: 'en', passages: other, episodeTexts: [] }));
    });

    it('is read from the cache, not made again', async () => {
      dir = mkdtempSync(join(tmpdir(), 'semantic-cache-'));
      configureParseCache(dir);
      const made = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
      expect(relatedTerms(made, 'snooz').map((r) => r.term)).not.toContain('choir');
      // An entry that says "snooze" relates to "choir" (a show term WordNet does not link it to) is believed.
      const path = join(dir, kept()[0]!);
      const entry = JSON.parse(readFileSync(path, 'utf8')) as { related: Record<string, Array<string | number>> };
      entry.related['snooz']!.push('choir', 0.5);
      writeFileSync(path, JSON.stringify(entry));
      const read = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
      expect(relatedTerms(read, 'snooz')).toContainEqual({ term: 'choir', weight: 0.5 });
    });

    it('is made by the options it depends on: another relation weight is not read from an entry made with the default', async () => {
      dir = mkdtempSync(join(tmpdir(), 'semantic-cache-'));
      configureParseCache(dir);
      await buildSemantic({ language: 'en', passages, episodeTexts: [] });
      const heavier = await buildSemantic({ language: 'en', passages, episodeTexts: [] }, { weights: { synonym: 0.9 } });
      expect(kept()).toHaveLength(2);
      expect(relatedTerms(heavier, 'snooz').find((r) => r.term === 'nap')?.weight).toBe(0.9);
    });

    it('is made again when the kept entry is damaged', async () => {
      dir = mkdtempSync(join(tmpdir(), 'semantic-cache-'));
      configureParseCache(dir);
      const made = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
      writeFileSync(join(dir, kept()[0]!), '{"related": {"snooz": [');
      expect(await buildSemantic({ language: 'en', passages, episodeTexts: [] })).toEqual(made);
    });
  });
});

describe('WordNet licence', () => {
  it('travels with an English artifact: the copyright notice and the disclaimer, as WordNet\'s data files carry them', async () => {
    const data = await buildSemantic({ language: 'en', passages, episodeTexts: [] });
    expect(data.notice).toMatch(/^This software and database is being provided to you, the LICENSEE, by\nPrinceton University/);
    expect(data.notice).toContain('WordNet 3.1 Copyright 2011 by Princeton University.  All rights reserved.');
    expect(data.notice).toContain('THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS"');
    expect(data.notice).toMatch(/LICENSEE agrees to preserve same\.$/);
  });

  it('is absent where no WordNet data is used (a show in another language)', async () => {
    const data = await buildSemantic({ language: 'de', passages, episodeTexts: [] });
    expect(data.notice).toBeUndefined();
  });
});
