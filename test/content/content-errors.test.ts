/** The content model's error messages, one by one: what an editor sees from `npm run check` and the build. */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContent } from '../../src/content/load.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOW = readFileSync(join(ROOT, 'content/podcast.yaml'), 'utf8');
const SRT = '1\n00:00:00,000 --> 00:00:04,000\nMaya: Hello and welcome.\n\n2\n00:00:04,200 --> 00:01:10,000\nInes: Thanks for having me.\n';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A content folder in a temp dir; paths in messages are relative to it, as they are to the project root. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  dirs.push(dir);
  const content = join(dir, 'content');
  for (const sub of ['episodes', 'transcripts', 'audio']) mkdirSync(join(content, sub), { recursive: true });
  writeFileSync(join(content, 'podcast.yaml'), SHOW);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(content, path), text);
  return dir;
}

const episode = (fields: string, body = 'Notes.') => `---\n${fields.trim()}\n---\n${body}\n`;
const valid = (id: number, extra = '') => episode(`id: ${id}\nseason: 1\ntitle: Episode ${id}\ndate: 2025-01-14\n${extra}`);

function errorsOf(dir: string, env: Record<string, string> = {}) {
  const result = loadContent(join(dir, 'content'), env, dir);
  return result.errors;
}

describe('content errors', () => {
  it('accepts valid content and derives seconds, hasSrt, guid and desc', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'srtFile: a.srt'),
      'episodes/002-b.md': valid(2, 'duration: "1:02:03"'),
      'transcripts/a.srt': SRT,
    });
    const { content, errors } = loadContent(join(dir, 'content'), {}, dir);
    expect(errors).toEqual([]);
    const [a, b] = content!.episodes;
    expect(a).toMatchObject({ id: 1, seconds: 70, duration: '01:10', hasSrt: true, desc: 'Notes.' });
    expect(b).toMatchObject({ id: 2, seconds: 3723, duration: '1:02:03', hasSrt: false });
    expect(a!.guid).toMatch(/^[0-9a-f-]{36}$/);
    // Stable: the same content gives the same guid.
    expect(loadContent(join(dir, 'content'), {}, dir).content!.episodes[0]!.guid).toBe(a!.guid);
  });

  it('names file, field and expectation for a bad duration', () => {
    const dir = fixture({ 'episodes/012-x.md': valid(12, 'duration: "75:3"') });
    expect(errorsOf(dir)).toEqual(['content/episodes/012-x.md: duration "75:3" must be MM:SS or HH:MM:SS']);
  });

  it('reports duplicate ids with both files', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1), 'episodes/001-b.md': valid(1) });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/001-b.md: id 1 is already used by content/episodes/001-a.md; ids must be unique',
    ]);
  });

  it('reports a srtFile that does not exist', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'srtFile: nope.srt') });
    expect(errorsOf(dir)).toEqual(['content/episodes/001-a.md: srtFile "nope.srt" does not exist in content/transcripts/']);
  });

  it('reports an SRT that does not parse, with file and line', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'srtFile: a.srt'),
      'transcripts/a.srt': '1\n00:00:00,000 --> 00:00:02,000\nok\n\n2\n00:00:02,000 --> later\nbroken\n',
    });
    expect(errorsOf(dir)).toEqual([
      'content/transcripts/a.srt:6: expected a time line "HH:MM:SS,mmm --> HH:MM:SS,mmm", found "00:00:02,000 --> later"',
    ]);
  });

  it('reports an unknown field and suggests the likely one', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'srtfile: a.srt') });
    expect(errorsOf(dir)).toEqual(['content/episodes/001-a.md: unknown field "srtfile" (did you mean "srtFile"?)']);
  });

  it('reports a date that is not a date', () => {
    const dir = fixture({ 'episodes/001-a.md': episode('id: 1\nseason: 1\ntitle: A\ndate: 2025-02-30') });
    expect(errorsOf(dir)).toEqual(['content/episodes/001-a.md: date "2025-02-30" must be a date YYYY-MM-DD']);
    const dir2 = fixture({ 'episodes/001-a.md': episode('id: 1\nseason: 1\ntitle: A\ndate: last tuesday') });
    expect(errorsOf(dir2)).toEqual(['content/episodes/001-a.md: date "last tuesday" must be a date YYYY-MM-DD']);
  });

  it('reports a missing required field and a derived field typed by hand', () => {
    const dir = fixture({ 'episodes/001-a.md': episode('id: 1\nseason: 1\ndate: 2025-01-01\nseconds: 10') });
    expect(errorsOf(dir).sort()).toEqual([
      'content/episodes/001-a.md: field "seconds" is derived by the build and must not be written',
      'content/episodes/001-a.md: title is required',
    ]);
  });

  it('reports a missing audio file and a chapter after the end', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'duration: "10:00"\naudioFile: a.mp3\nchapters:\n  - start: "11:00"\n    title: Late'),
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/001-a.md: audioFile "a.mp3" does not exist in content/audio/ (or set audioBaseUrl in podcast.yaml)',
      'content/episodes/001-a.md: chapters: "Late" starts at 11:00, after the episode ends (10:00)',
    ]);
  });

  it('collects every problem across files, not only the first', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'duration: "75:3"'),
      'episodes/002-b.md': valid(2, 'srtFile: missing.srt'),
      'episodes/003-c.md': episode('id: 3\nseason: 1\ntitle: C\ndate: 2025-13-01\nguests: Ines'),
    });
    const errors = errorsOf(dir);
    expect(errors).toHaveLength(4);
    expect(errors).toContain('content/episodes/003-c.md: guests "Ines" Invalid input: expected array, received string');
  });

  it('reports a bad show setting and honours SITE_URL', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1) });
    writeFileSync(join(dir, 'content/podcast.yaml'), SHOW.replace('language: en', 'language: English!'));
    expect(errorsOf(dir)).toEqual(['content/podcast.yaml: language "English!" must be a language tag such as en or pt-BR']);
    const ok = fixture({ 'episodes/001-a.md': valid(1) });
    const { content } = loadContent(join(ok, 'content'), { SITE_URL: 'https://pod.example.org/' }, ok);
    expect(content!.show.siteUrl).toBe('https://pod.example.org');
    expect(content!.show.feedUrl).toBe('https://pod.example.org/rss.xml');
  });

  it('npm run check prints every problem and exits 1', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'duration: "75:3"'), 'episodes/002-b.md': valid(2, 'srtfile: x') });
    const run = spawnSync(process.execPath, [join(ROOT, 'src/content/check-cli.ts'), 'content'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('content/episodes/001-a.md: duration "75:3" must be MM:SS or HH:MM:SS');
    expect(run.stderr).toContain('content/episodes/002-b.md: unknown field "srtfile" (did you mean "srtFile"?)');
  });
});
