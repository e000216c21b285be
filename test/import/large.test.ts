/**
 * A 10,000-item feed is imported within a bounded heap: the command runs with V8's old space capped at 256 MB and
 * would die of "heap out of memory" if the importer held more. No wall-clock assertion (the machines are shared).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generateFeed } from './generate.ts';
import { runImportCli } from './helpers.ts';

const work = mkdtempSync(join(tmpdir(), 'import-large-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('imports a 10,000-item feed with the heap capped at 256 MB', async () => {
  const feed = join(work, 'large.xml');
  writeFileSync(feed, generateFeed(10_000));
  const content = join(work, 'content');
  const result = await runImportCli([feed, '--content', content], ['--max-old-space-size=256']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('10000 episodes (10000 new, 0 updated, 0 unchanged)');
  const files = readdirSync(join(content, 'episodes'));
  expect(files).toHaveLength(10_000);
  // itunes:episode numbers are distinct, so they are the ids; the widest number sets the padding.
  expect(files).toContain('10000-episode-10000-on-subject-number-9.md');
  expect(readFileSync(join(content, 'episodes', '00001-episode-1-on-subject-number-1.md'), 'utf8')).toMatch(/^---\nid: 1\nseason: 1\n/);
}, 600_000);
