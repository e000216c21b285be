/**
 * An editor saves while a build runs: the pages and documents made after the save show the new content, those made
 * before it the old (a probe saw the episode page and /episodes.json with a new title, /rss.xml and the search
 * records with the old one). The build must not pass that off as a good build.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'edit-during-build-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The log without colours (a CI terminal may ask for them). */
const plain = (output: string[]) => output.join('').replace(/\x1b\[[0-9;]*m/g, '');

describe('a content edit saved while the site is being built', () => {
  it('fails the build, naming the file, once the output is complete', async () => {
    const content = join(work, 'content');
    cpSync(join(ROOT, 'content'), content, { recursive: true });
    const episode = join(content, 'episodes', '004-volcanoes.md');
    const output: string[] = [];
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build'], {
        cwd: ROOT,
        env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', CONTENT_DIR: content, ASTRO_OUT_DIR: join(work, 'dist'), ASTRO_CACHE_DIR: join(work, 'cache'), NO_COLOR: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let edited = false;
      const read = (d: Buffer) => {
        output.push(String(d));
        // Astro names the output folder once the content has been read and checked: the save comes after that.
        if (!edited && /\[build\] output:/.test(plain(output))) {
          edited = true;
          writeFileSync(episode, readFileSync(episode, 'utf8').replace(/^title: "/m, 'title: "Saved mid-build: '));
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('close', done);
    });
    const log = plain(output);
    expect(code, log).toBe(1);
    expect(log).toMatch(/content changed while the site was being built \(.*episodes\/004-volcanoes\.md\).*Build again\./);
    // It says so once the rest of the build is done: the output is complete, only mixed.
    expect(readFileSync(join(work, 'dist', 'client', '_manifest.json'), 'utf8')).toContain('"version"');
  });
});
