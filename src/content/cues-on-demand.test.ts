import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadContent, loadCuesOnDemand, type LoadedContent } from './load.ts';
import { configureParseCache } from './parse-cache.ts';
import { CUES_CODEC } from './cues-codec.ts';
import { cuesOnce } from './cues-once.ts';

const SAMPLE = join(import.meta.dirname, '../../content');
const eager = loadContent(SAMPLE);

const dirs: string[] = [];
afterEach(() => {
  loadCuesOnDemand(false);
  configureParseCache(undefined);
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cues-on-demand-'));
  dirs.push(dir);
  return dir;
}

function onDemand(dir: string, cache?: string) {
  configureParseCache(cache);
  loadCuesOnDemand(true);
  try {
    return loadContent(dir);
  } finally {
    loadCuesOnDemand(false);
  }
}

/** Every field as JSON reads it (the getter included), and as a structured clone (what a thread posts) reads it. */
function same(content: LoadedContent | null) {
  expect(content).not.toBeNull();
  expect(JSON.stringify(content)).toBe(JSON.stringify(eager.content));
  expect(structuredClone(content)).toEqual(structuredClone(eager.content));
}

describe('loadCuesOnDemand', () => {
  it('gives the same content, its SubRip cues made only when first read, then kept', () => {
    expect(eager.errors).toEqual([]);
    const cache = folder();
    // Cold (the entries made) and warm (read back): neither makes a cue before one is asked for.
    for (const pass of ['cold', 'warm']) {
      const decode = vi.spyOn(CUES_CODEC, 'decode');
      const { content, errors } = onDemand(SAMPLE, cache);
      expect(errors, pass).toEqual([]);
      expect(decode, pass).not.toHaveBeenCalled();
      const episode = content!.episodes.find((e) => e.transcript?.format === 'srt')!;
      expect(Object.getOwnPropertyDescriptor(episode, 'cues')?.get, pass).toBeTypeOf('function');
      // What is known without the cues is the same: a transcript, the duration its last cue gives.
      const before = eager.content!.episodes.find((e) => e.id === episode.id)!;
      expect([episode.hasSrt, episode.seconds, episode.duration, episode.transcript]).toEqual([before.hasSrt, before.seconds, before.duration, before.transcript]);
      const cues = episode.cues;
      expect(decode).toHaveBeenCalledTimes(1);
      expect(episode.cues).toBe(cues);
      expect(cues).toEqual(before.cues);
      same(content);
      // Assigned like a field.
      episode.cues = [];
      expect(episode.cues).toEqual([]);
      decode.mockRestore();
    }
  });

  it('reads the cues once without keeping them (cuesOnce), and gives the kept ones once read', () => {
    const decode = vi.spyOn(CUES_CODEC, 'decode');
    const { content } = onDemand(SAMPLE, folder());
    const episode = content!.episodes.find((e) => e.transcript?.format === 'srt')!;
    const before = eager.content!.episodes.find((e) => e.id === episode.id)!;
    const once = cuesOnce(episode);
    expect(once).toEqual(before.cues);
    expect(decode).toHaveBeenCalledTimes(1);
    // Not kept: the field makes them again, and keeps them.
    const kept = episode.cues;
    expect(kept).not.toBe(once);
    expect(kept).toEqual(once);
    expect(decode).toHaveBeenCalledTimes(2);
    expect(cuesOnce(episode)).toBe(kept);
    expect(decode).toHaveBeenCalledTimes(2);
    // Loaded whole (no cues on demand): the field's own.
    const whole = eager.content!.episodes.find((e) => e.cues?.length)!;
    expect(cuesOnce(whole)).toBe(whole.cues);
  });

  it('is the same without a cache folder, and when the kept entries are damaged', () => {
    same(onDemand(SAMPLE).content);
    const cache = folder();
    onDemand(SAMPLE, cache);
    const damaged = readdirSync(cache).filter((n) => n.endsWith('.bin'));
    for (const name of damaged) writeFileSync(join(cache, name), 'not an entry');
    same(onDemand(SAMPLE, cache).content);
    // And the damaged entries were replaced: the next load reads them.
    for (const name of damaged) expect(readFileSync(join(cache, name), 'utf8'), name).not.toBe('not an entry');
  });

  it('takes a transcript file as an earlier load found it without reading it (srt-facts.ts), and reads one written since', () => {
    const dir = folder();
    cpSync(SAMPLE, dir, { recursive: true });
    const transcripts = join(dir, 'transcripts');
    // Written an hour ago: a file written within the last seconds is read every time.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of readdirSync(transcripts)) utimesSync(join(transcripts, name), hourAgo, hourAgo);
    const cache = folder();
    const first = onDemand(dir, cache).content!;
    const episode = first.episodes.find((e) => e.transcript?.format === 'srt')!;
    const { path, digest } = episode.transcript!;
    const cues = episode.cues;

    // Other bytes of the same length put back in the same file with its time as it was: only a file read shows them.
    const found = statSync(path);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/[a-z]/, (c) => (c === 'x' ? 'y' : 'x')));
    utimesSync(path, found.atime, found.mtime);
    expect(statSync(path).ino).toBe(found.ino);
    const second = onDemand(dir, cache).content!.episodes.find((e) => e.id === episode.id)!;
    expect(second.transcript!.digest).toBe(digest);
    expect(second.cues).toEqual(cues);

    // Written again (a new time): read, and known by its new bytes.
    writeFileSync(path, text);
    const third = onDemand(dir, cache).content!.episodes.find((e) => e.id === episode.id)!;
    expect(third.transcript!.digest).toBe(digest);
    writeFileSync(path, `${text}\n`);
    const fourth = onDemand(dir, cache).content!.episodes.find((e) => e.id === episode.id)!;
    expect(fourth.transcript!.digest).not.toBe(digest);
    expect(fourth.cues).toEqual(cues);
  });

  it('parses a transcript again when its entry is damaged past the head, unless the file changed meanwhile', () => {
    const dir = folder();
    cpSync(SAMPLE, dir, { recursive: true });
    const copy = JSON.stringify(loadContent(dir).content);
    const cache = folder();
    onDemand(dir, cache);
    // Each entry loses the end of its cues' text: the summary still reads, the cues do not.
    const damage = () => {
      for (const name of readdirSync(cache).filter((n) => n.endsWith('.bin'))) {
        const bytes = readFileSync(join(cache, name));
        writeFileSync(join(cache, name), bytes.subarray(0, bytes.byteLength - 3));
      }
    };
    damage();
    const { content } = onDemand(dir, cache);
    expect(JSON.stringify(content)).toBe(copy);
    // The entries were parsed again and replaced: whole, they read.
    const decode = vi.spyOn(CUES_CODEC, 'decode');
    const { content: repaired } = onDemand(dir, cache);
    expect(JSON.stringify(repaired)).toBe(copy);
    expect(decode).toHaveBeenCalled();
    expect(decode.mock.results.every((r) => r.type === 'return')).toBe(true);
    damage();
    const { content: again } = onDemand(dir, cache);
    const episode = again!.episodes.find((e) => e.transcript?.format === 'srt')!;
    writeFileSync(episode.transcript!.path, '1\n00:00:01,000 --> 00:00:02,000\nEdited.\n');
    expect(() => episode.cues).toThrow(/changed while the build was reading it/);
  });

  it('reports a transcript that does not parse as the load that makes every cue does', () => {
    const dir = folder();
    cpSync(SAMPLE, dir, { recursive: true });
    const name = readdirSync(join(dir, 'transcripts')).find((n) => n.endsWith('.srt'))!;
    const path = join(dir, 'transcripts', name);
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n\n12345\nnot a time line\nstray text\n`);
    const broken = loadContent(dir, process.env, dir);
    expect(broken.errors.length).toBeGreaterThan(0);
    configureParseCache(folder());
    loadCuesOnDemand(true);
    expect(loadContent(dir, process.env, dir).errors).toEqual(broken.errors);
  });
});
