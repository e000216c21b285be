import { mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changedFiles, contentStamps } from './site.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('contentStamps and changedFiles (a build that saw the content change while it ran)', () => {
  it('name every file added, removed or rewritten, in nested folders, and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'content-stamps-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'episodes'));
    mkdirSync(join(dir, 'transcripts'));
    writeFileSync(join(dir, 'podcast.yaml'), 'title: x\n');
    writeFileSync(join(dir, 'episodes', '001-a.md'), '---\ntitle: A\n---\n');
    writeFileSync(join(dir, 'transcripts', '001-a.srt'), '1\n');
    const before = contentStamps(dir);
    expect([...before.keys()].map((p) => p.slice(dir.length + 1))).toEqual(['episodes/001-a.md', 'podcast.yaml', 'transcripts/001-a.srt']);
    expect(changedFiles(before, contentStamps(dir))).toEqual([]);

    // Same size, a later modification time (an editor's save of one changed letter).
    writeFileSync(join(dir, 'episodes', '001-a.md'), '---\ntitle: B\n---\n');
    utimesSync(join(dir, 'episodes', '001-a.md'), new Date(), new Date(Date.now() + 5_000));
    rmSync(join(dir, 'transcripts', '001-a.srt'));
    writeFileSync(join(dir, 'transcripts', '001-a.vtt'), 'WEBVTT\n');
    expect(changedFiles(before, contentStamps(dir)).map((p) => p.slice(dir.length + 1))).toEqual([
      'episodes/001-a.md',
      'transcripts/001-a.srt',
      'transcripts/001-a.vtt',
    ]);
  });
});
