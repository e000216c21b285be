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
function fixture(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-'));
  dirs.push(dir);
  const content = join(dir, 'content');
  for (const sub of ['episodes', 'transcripts', 'audio']) mkdirSync(join(content, sub), { recursive: true });
  writeFileSync(join(content, 'podcast.yaml'), SHOW);
  for (const [path, text] of Object.entries(files)) writeFileSync(join(content, path), text);
  return dir;
}

/** Audio that is MP3: frames of 128 kbit/s at 44.1 kHz, 417 bytes each (~26 ms), silent. */
const mp3 = (frames: number) => {
  const frame = new Uint8Array(417);
  frame.set([0xff, 0xfb, 0x90, 0x00]);
  return Buffer.concat(Array.from({ length: frames }, () => frame));
};
const MP3 = mp3(4);

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
    expect(errorsOf(dir)).toEqual(['content/episodes/001-a.md: date "2025-02-30" must be a real date written YYYY-MM-DD']);
    const dir2 = fixture({ 'episodes/001-a.md': episode('id: 1\nseason: 1\ntitle: A\ndate: last tuesday') });
    expect(errorsOf(dir2)).toEqual(['content/episodes/001-a.md: date "last tuesday" must be a real date written YYYY-MM-DD']);
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

  it('reports chapters out of order (players and JSON chapters read them in order of their start)', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'duration: "10:00"\nchapters:\n  - start: "00:00"\n    title: Hello\n  - start: "09:00"\n    title: Later\n  - start: "03:00"\n    title: Middle\n  - start: "09:00"\n    title: Same time'),
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/001-a.md: chapters: "Middle" (03:00) comes after "Later" (09:00) but starts before it; list the chapters in order of their start',
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

  it('refuses a site address that would publish a query, a fragment or credentials everywhere, and takes a path', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1) });
    for (const site of ['https://example.org/?x=1', 'https://example.org/#top', 'https://user:secret@example.org']) {
      expect(errorsOf(dir, { SITE_URL: site }), site).toEqual([
        `content/podcast.yaml: siteUrl "${site}" must be the address of the site, http(s) with an optional path, and no query, fragment or user name`,
      ]);
    }
    expect(errorsOf(dir, { SITE_URL: 'example.org' })).toEqual(['content/podcast.yaml: siteUrl "example.org" must be an absolute http(s) URL']);
    expect(errorsOf(dir, { SITE_URL: 'https://example.org/podcast' })).toEqual([]);
  });

  it('npm run check prints every problem and exits 1', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'duration: "75:3"'), 'episodes/002-b.md': valid(2, 'srtfile: x') });
    const run = spawnSync(process.execPath, [join(ROOT, 'src/content/check-cli.ts'), 'content'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('content/episodes/001-a.md: duration "75:3" must be MM:SS or HH:MM:SS');
    expect(run.stderr).toContain('content/episodes/002-b.md: unknown field "srtfile" (did you mean "srtFile"?)');
  });

  it('npm run check reads CONTENT_DIR when given no folder, as the build does and as its message says', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'duration: "75:3"') });
    const run = spawnSync(process.execPath, [join(ROOT, 'src/content/check-cli.ts')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CONTENT_DIR: join(dir, 'content') } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('episodes/001-a.md: duration "75:3" must be MM:SS or HH:MM:SS');
  });

  it('npm run check takes --help, and refuses an option or a second folder instead of checking a folder named so', () => {
    const check = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'src/content/check-cli.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
    const help = check('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm run check [-- DIR]');
    for (const [args, said] of [
      [['--verbose'], "check: Unknown option '--verbose'"],
      [['content', 'more'], 'check: give one content folder, not 2'],
    ] as const) {
      const run = check(...args);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(said);
      expect(run.stderr).toContain('Usage: npm run check [-- DIR]');
      expect(run.stderr).not.toContain('podcast.yaml: missing');
    }
  });

  it('accepts a WebVTT transcript and publishes it under an .srt name', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'transcriptFile: a.vtt'),
      'transcripts/a.vtt': 'WEBVTT\n\n00:00.000 --> 00:04.000\n<v Maya>Hello and welcome.\n\n00:04.200 --> 01:10.000\nThanks.\n',
    });
    const { content, errors } = loadContent(join(dir, 'content'), {}, dir);
    expect(errors).toEqual([]);
    expect(content!.episodes[0]).toMatchObject({ srtFile: 'a.srt', hasSrt: true, seconds: 70, transcript: { format: 'vtt' } });
    expect(content!.episodes[0]!.cues![0]).toEqual({ start: 0, end: 4, text: 'Maya: Hello and welcome.' });
  });

  it('reports a WebVTT that does not parse, with file and line, and transcriptFile beside srtFile', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'transcriptFile: a.vtt'),
      'episodes/002-b.md': valid(2, 'transcriptFile: b.vtt\nsrtFile: b.srt'),
      'episodes/003-c.md': valid(3, 'transcriptFile: c.txt'),
      'episodes/004-d.md': valid(4, 'audioFile: épisode.mp3'),
      'transcripts/a.vtt': 'WEBVTT\n\n00:00.000 --> 00:04.000\nok\n\n00:04.000 -> 00:05.000\nbroken\n',
      'transcripts/b.vtt': 'WEBVTT\n\n00:00.000 --> 00:04.000\nok\n',
      'transcripts/b.srt': SRT,
    });
    expect(errorsOf(dir)).toEqual([
      'content/transcripts/a.vtt:6: expected a timing line "HH:MM:SS.mmm --> HH:MM:SS.mmm", found "00:04.000 -> 00:05.000"',
      'content/episodes/002-b.md: transcriptFile and srtFile are both set; keep one (transcriptFile takes .srt or .vtt)',
      'content/episodes/003-c.md: transcriptFile "c.txt" must be a file name ending in .srt or .vtt of the letters A-Z and a-z, digits, "_", "." and "-" only (no folders, spaces or accents)',
      'content/episodes/004-d.md: audioFile "épisode.mp3" must be a file name ending in .mp3 (or .m4a, .aac, .ogg, .opus, .wav, .flac) of the letters A-Z and a-z, digits, "_", "." and "-" only (no folders, spaces or accents)',
    ]);
  });

  it('reports an iTunes category that Apple does not have, with the likely one', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1) });
    writeFileSync(join(dir, 'content/podcast.yaml'), SHOW.replace('- category: Technology', '- category: Technolgy'));
    expect(errorsOf(dir)).toEqual([
      'content/podcast.yaml: categories.2.category "Technolgy" is not an Apple Podcasts category (did you mean "Technology"?)',
    ]);
  });

  it('reports one MP3 used by two episodes, and two transcripts published under one name', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'audioFile: a.mp3\nsrtFile: a.srt'),
      'episodes/002-b.md': valid(2, 'audioFile: a.mp3\ntranscriptFile: a.vtt'),
      'audio/a.mp3': MP3,
      'transcripts/a.srt': SRT,
      'transcripts/a.vtt': 'WEBVTT\n\n00:00.000 --> 00:04.000\nok\n',
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/002-b.md: audioFile "a.mp3" is already used by content/episodes/001-a.md; each episode needs its own MP3',
      'content/episodes/002-b.md: the transcript would be published as /transcripts/a.srt, which content/episodes/001-a.md already uses; each episode needs its own transcript',
    ]);
  });

  it('an episode with a duplicate id still has its files checked, so one run lists every problem', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'audioFile: a.mp3'),
      'episodes/002-b.md': valid(1, 'audioFile: a.mp3'),
      'audio/a.mp3': MP3,
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/002-b.md: id 1 is already used by content/episodes/001-a.md; ids must be unique',
      'content/episodes/002-b.md: audioFile "a.mp3" is already used by content/episodes/001-a.md; each episode needs its own MP3',
    ]);
  });

  it('refuses an episode file name that is not a safe address, or one the episode list uses (links had answered 404; the build failed late)', () => {
    const dir = fixture({
      'episodes/016 Glass & Fire #1?.md': valid(16),
      'episodes/oldest.md': valid(17),
      'episodes/018-café.md': valid(18),
      'episodes/019-ok_name.v2.md': valid(19),
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/016 Glass & Fire #1?.md: the file name "016 Glass & Fire #1?" becomes the episode\'s address (/episodes/016 Glass & Fire #1?/), so it may hold only the letters A-Z and a-z (no accents), digits, "-", "_", "." and "~", starting with a letter or digit; rename it 016-glass-and-fire-1.md',
      'content/episodes/018-café.md: the file name "018-café" becomes the episode\'s address (/episodes/018-café/), so it may hold only the letters A-Z and a-z (no accents), digits, "-", "_", "." and "~", starting with a letter or digit; rename it 018-cafe.md',
      'content/episodes/oldest.md: the file name "oldest" is an address the episode list uses (/episodes/oldest/); rename the file (reserved: oldest, guests, topics, page, season, guest, topic)',
    ]);
  });

  it('refuses one guid on two episodes (apps would list one of them), addresses differing only in case, and an episode saved as .MD', () => {
    const guid = 'guid: 11111111-2222-3333-4444-555555555555';
    const dir = fixture({
      'episodes/001-a.md': valid(1, guid),
      'episodes/002-b.md': valid(2, guid),
      'episodes/003-c.md': valid(3),
      'episodes/003-C.md': valid(4),
      'episodes/005-e.MD': valid(5),
      'episodes/006-f.markdown': valid(6),
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/002-b.md: guid "11111111-2222-3333-4444-555555555555" is already used by content/episodes/001-a.md; each episode needs its own (or none: one is derived from its id)',
      "content/episodes/003-c.md: its address /episodes/003-c/ differs only in case from content/episodes/003-C.md's; rename one of them",
      'content/episodes/005-e.MD: episode files end in ".md" (lower case); rename it 005-e.md',
      'content/episodes/006-f.markdown: episode files end in ".md" (lower case); rename it 006-f.md',
    ]);
  });

  it('refuses a file that is not UTF-8, naming its line (Windows-1252 had been published as "caf� cr�me")', () => {
    const cp1252 = (text: string) => Uint8Array.from(text, (c) => ({ '—': 0x97, 'é': 0xe9, 'è': 0xe8, '“': 0x93, '”': 0x94 })[c] ?? c.charCodeAt(0));
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'srtFile: a.srt'),
      'episodes/002-b.md': cp1252(valid(2).replace('Episode 2', 'Café — fire')),
      'transcripts/a.srt': cp1252('1\n00:00:00,000 --> 00:00:04,000\nMaya: Welcome to Deep Field — café crème, “glass”\n'),
    });
    expect(errorsOf(dir)).toEqual([
      'content/transcripts/a.srt: line 3 is not UTF-8 text (an accented letter or a curly quote saved as Windows-1252 or Latin-1, perhaps): save the file as UTF-8',
      'content/episodes/002-b.md: line 4 is not UTF-8 text (an accented letter or a curly quote saved as Windows-1252 or Latin-1, perhaps): save the file as UTF-8',
    ]);
  });

  it('names a chapter as an editor counts it, and says how to write a time YAML read as a number', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'duration: "10:00"\nchapters:\n  - { start: "00:00", title: Intro }\n  - { start: "01:00", title: "" }\n  - { start: 90, title: Third }') });
    expect(errorsOf(dir)).toEqual([
      "content/episodes/001-a.md: chapter 2's title \"\" must not be empty",
      'content/episodes/001-a.md: chapter 3\'s start 90 must be a time in quotes, MM:SS or HH:MM:SS (e.g. "01:30")',
    ]);
  });

  it('refuses guests or topics whose pages would be one ("C++" and "C#"), and a name with no letter or digit', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'topics: ["C++", "Glass"]\nguests: ["Inès Duarte"]'),
      'episodes/002-b.md': valid(2, 'topics: ["C#", "glass", ".."]\nguests: ["ines  duarte"]'),
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/002-b.md: topic "C#" and "C++" (content/episodes/001-a.md) would share one page, /episodes/topic/c/; spell them alike if they are one, or tell them apart with letters or digits',
      'content/episodes/002-b.md: topic ".." has no letter or digit to make its page\'s address from',
    ]);
  });

  it('refuses an empty audio file and one that is not MP3 (the enclosure would offer apps nothing to play)', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'audioFile: a.mp3'),
      'episodes/002-b.md': valid(2, 'audioFile: b.mp3'),
      'audio/a.mp3': '',
      'audio/b.mp3': 'TODO upload real audio',
    });
    expect(errorsOf(dir)).toEqual([
      'content/episodes/001-a.md: audioFile "a.mp3" is empty (0 bytes); put the episode\'s audio there',
      'content/episodes/002-b.md: audioFile "b.mp3" is not MP3 audio (no MPEG audio frame where its audio starts); export the episode as MP3',
    ]);
  });

  it('notes a duration far from what the MP3 plays (players show the stated one)', () => {
    // 1,150 frames of 1,152 samples at 44.1 kHz: 30 s.
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'audioFile: a.mp3\nduration: "45:00"'), 'episodes/002-b.md': valid(2, 'audioFile: b.mp3\nduration: "00:35"'), 'audio/a.mp3': mp3(1150), 'audio/b.mp3': mp3(1150) });
    const { errors, notes } = loadContent(join(dir, 'content'), {}, dir);
    expect(errors).toEqual([]);
    expect(notes).toEqual(['content/episodes/001-a.md: duration "45:00" but a.mp3 plays about 00:30; the feed and players show the duration']);
  });

  it('notes, without stopping the build, an episode dated after today: there is no schedule, it is public at once', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1), 'episodes/002-b.md': valid(2).replace('2025-01-14', '2999-03-01') });
    const { content, errors, notes } = loadContent(join(dir, 'content'), {}, dir);
    expect(errors).toEqual([]);
    expect(content!.episodes).toHaveLength(2);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^content\/episodes\/002-b\.md: date 2999-03-01 is after today \(\d{4}-\d\d-\d\d\), but the episode is public as soon as the site is built, listed first; to publish it on that day, add the file then$/);
  });

  it('notes, without stopping the build, a transcript or audio file that no episode names', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'audioFile: a.mp3\nsrtFile: a.srt'),
      'episodes/002-b.md': valid(2),
      'audio/a.mp3': MP3,
      'audio/b.mp3': MP3,
      'audio/.DS_Store': '',
      'transcripts/a.srt': SRT,
      'transcripts/b.srt': SRT,
      'transcripts/c.vtt': 'WEBVTT\n',
    });
    const { content, errors, notes } = loadContent(join(dir, 'content'), {}, dir);
    expect(errors).toEqual([]);
    expect(content!.episodes.map((e) => e.hasSrt)).toEqual([true, false]);
    expect(notes).toEqual([
      "content/transcripts/b.srt: no episode names this transcript, so it is not published (in its episode's frontmatter: srtFile: b.srt)",
      "content/transcripts/c.vtt: no episode names this transcript, so it is not published (in its episode's frontmatter: transcriptFile: c.vtt)",
      "content/audio/b.mp3: no episode names this audio file, so it is not published (in its episode's frontmatter: audioFile: b.mp3)",
    ]);
    const run = spawnSync(process.execPath, [join(ROOT, 'src/content/check-cli.ts'), 'content'], { cwd: dir, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('! content: 3 notes\n  content/transcripts/b.srt: no episode names this transcript');
    // The sample names every file it has.
    expect(loadContent(join(ROOT, 'content'), {}, ROOT).notes).toEqual([]);
  });

  it('notes a show language searched with the English pipeline, and says more for a script written without spaces', () => {
    const notesFor = (language: string) => {
      const dir = fixture({ 'episodes/001-a.md': valid(1) });
      writeFileSync(join(dir, 'content/podcast.yaml'), SHOW.replace(/^language: .*$/m, `language: ${language}`));
      const { errors, notes } = loadContent(join(dir, 'content'), {}, dir);
      expect(errors).toEqual([]);
      return notes;
    };
    expect(notesFor('en-GB')).toEqual([]);
    expect(notesFor('fr')).toEqual([]);
    const [uk] = notesFor('uk');
    expect(uk).toMatch(/^content\/podcast\.yaml: language "uk" has no word analysis of its own here .* English pipeline/);
    expect(uk).not.toMatch(/without spaces/);
    const [ja] = notesFor('ja-JP');
    expect(ja).toMatch(/^content\/podcast\.yaml: language "ja-JP" .*text written without spaces between words is found only by whole runs/);
  });

  it('pins podcast:guid in podcast.yaml, so SITE_URL does not change it; checks hosts, medium and episode image', () => {
    const dir = fixture({ 'episodes/001-a.md': valid(1, 'image: /episodes/a.png') });
    const show = SHOW.replace(/^guid: .*$/m, 'guid: 917393e3-1b1e-5cef-ace4-edaa54e1f810');
    writeFileSync(join(dir, 'content/podcast.yaml'), show);
    const a = loadContent(join(dir, 'content'), { SITE_URL: 'https://a.example' }, dir).content!;
    const b = loadContent(join(dir, 'content'), { SITE_URL: 'https://b.example' }, dir).content!;
    expect(a.show.guid).toBe('917393e3-1b1e-5cef-ace4-edaa54e1f810');
    expect(b.show.guid).toBe(a.show.guid);
    expect(a.show.medium).toBe('podcast');
    expect(a.show.hosts[0]).toMatchObject({ name: 'Maya Okafor', role: 'host' });
    expect(a.episodes[0]!.image).toBe('/episodes/a.png');
    // Without a pinned guid it follows the feed URL, as before.
    writeFileSync(join(dir, 'content/podcast.yaml'), SHOW.replace(/^guid: .*$/m, ''));
    const c = loadContent(join(dir, 'content'), { SITE_URL: 'https://c.example' }, dir).content!;
    expect(c.show.guid).not.toBe(a.show.guid);

    writeFileSync(
      join(dir, 'content/podcast.yaml'),
      show.replace(/^guid: .*$/m, 'guid: not-a-uuid').replace(/^medium: podcast$/m, 'medium: radio').replace('href: https://deepfield.example/about', 'href: about-maya'),
    );
    writeFileSync(join(dir, 'content/episodes/001-a.md'), valid(1, 'image: a.png'));
    expect(errorsOf(dir)).toEqual([
      'content/podcast.yaml: guid "not-a-uuid" must be a UUID such as ead4c236-bf58-58c6-a2c6-a6b28d128cb6',
      expect.stringMatching(/^content\/podcast.yaml: medium "radio" must be one of podcast, music, video/),
      "content/podcast.yaml: host 1's href \"about-maya\" must be an absolute http(s) URL",
      'content/episodes/001-a.md: image "a.png" must be an absolute http(s) URL or a path on the site such as /episodes/1.png',
    ]);
  });

  it('npm run build with content mistakes prints every one, like check, and exits 1 without a stack trace', () => {
    const dir = fixture({
      'episodes/001-a.md': valid(1, 'audioFile: a.mp3'),
      'episodes/002-b.md': valid(2, 'audioFile: a.mp3'),
      'episodes/015-baddate.md': episode('id: 15\nseason: 1\ntitle: Bad date\ndate: 2025-02-30'),
      'episodes/016-c.md': valid(16, 'srtFile: c.srt'),
      'transcripts/c.srt': '1\n00:00:00,000 --> 00:00:02,000\nok\n\n2\n00:00:02,000 --> later\nbroken\n',
      'audio/a.mp3': MP3,
    });
    writeFileSync(join(dir, 'content/podcast.yaml'), SHOW.replace('- category: Technology', '- category: Technolgy'));
    const outDir = join(dir, 'out');
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: join(dir, 'content'), ASTRO_OUT_DIR: outDir, ASTRO_CACHE_DIR: `${outDir}-cache` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).toBe(1);
    expect(output).toContain('4 problems');
    expect(output).toContain('content/podcast.yaml: categories.2.category "Technolgy" is not an Apple Podcasts category (did you mean "Technology"?)');
    expect(output).toContain('content/episodes/002-b.md: audioFile "a.mp3" is already used by');
    expect(output).toContain('content/episodes/015-baddate.md: date "2025-02-30" must be a real date written YYYY-MM-DD');
    expect(output).toContain('content/transcripts/c.srt:6: expected a time line');
    expect(output).not.toMatch(/TypeError|\n\s+at /);
  }, 60_000);
});
