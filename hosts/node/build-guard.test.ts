import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRefusal } from './build-guard.ts';

const work = mkdtempSync(join(tmpdir(), 'build-guard-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** A folder holding a build (client/episodes.json), made from `source` when given. */
function aBuild(source?: string): string {
  const dir = join(work, `dist-${n++}`);
  mkdirSync(join(dir, 'client'), { recursive: true });
  writeFileSync(join(dir, 'client', 'episodes.json'), '[]');
  if (source) writeFileSync(join(dir, 'build-source.json'), JSON.stringify({ contentDir: source }));
  return dir;
}
function aContent(): string {
  const dir = join(work, `content-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'podcast.yaml'), 'title: A show\n');
  return dir;
}
const REASON = 'the build is for http://a.example but SITE_URL is http://b.example';

describe('buildRefusal', () => {
  it('lets a build of the same content be rebuilt, also through a symlink to it', () => {
    const content = aContent();
    const link = join(work, `link-${n++}`);
    symlinkSync(content, link);
    expect(buildRefusal(REASON, { distDir: aBuild(content), contentDir: link, named: true, siteUrl: 'http://b.example' })).toBeUndefined();
  });

  it('refuses to replace a build of other content, naming both folders', () => {
    const [mine, theirs] = [aContent(), aContent()];
    const dist = aBuild(theirs);
    const refused = buildRefusal(REASON, { distDir: dist, contentDir: mine, named: false, siteUrl: 'http://b.example' });
    expect(refused).toContain(`holds a build of ${theirs}, and rebuilding would replace it with a build of ${mine}`);
    expect(refused).toContain(`start with CONTENT_DIR=${theirs}`);
  });

  it('a build without build-source.json: rebuilt in the project own dist/, refused in a named folder', () => {
    const content = aContent();
    expect(buildRefusal(REASON, { distDir: aBuild(), contentDir: content, named: false })).toBeUndefined();
    expect(buildRefusal(REASON, { distDir: aBuild(), contentDir: content, named: true })).toContain('does not say which content it was built from');
  });

  it('refuses when SITE_URL asks for a rebuild and there is no content', () => {
    expect(buildRefusal(REASON, { distDir: aBuild(), contentDir: join(work, 'none'), named: true, siteUrl: 'http://b.example' })).toContain(
      'and there is no content/ here to rebuild it from',
    );
  });

  it('builds into a missing or empty folder (or one holding only .git or what a stopped build left), never into one holding other files', () => {
    const content = aContent();
    expect(buildRefusal('no build output found', { distDir: join(work, 'new'), contentDir: content, named: true })).toBeUndefined();
    const empty = join(work, `empty-${n++}`);
    mkdirSync(join(empty, '.git'), { recursive: true });
    expect(buildRefusal('no build output found', { distDir: empty, contentDir: content, named: true })).toBeUndefined();
    const full = join(work, `full-${n++}`);
    mkdirSync(full);
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) writeFileSync(join(full, name), '');
    expect(buildRefusal('no build output found', { distDir: full, contentDir: content, named: true })).toBe(
      `no build output found in ${full} (DIST_DIR), which holds other files (a.txt, b.txt, c.txt, ...) that a build would remove: point DIST_DIR at a build, or at an empty or new folder`,
    );
    // What a stopped build leaves is the build's to replace; only the rest is named.
    const stopped = join(work, `stopped-${n++}`);
    for (const sub of ['client', 'server', '.replaced-1-2']) mkdirSync(join(stopped, sub), { recursive: true });
    symlinkSync(content, join(stopped, 'node_modules'));
    writeFileSync(join(stopped, 'prerendered.json'), '{}');
    expect(buildRefusal('no build output found', { distDir: stopped, contentDir: content, named: true })).toBeUndefined();
    writeFileSync(join(stopped, 'notes.txt'), '');
    expect(buildRefusal('no build output found', { distDir: stopped, contentDir: content, named: true })).toContain('which holds other files (notes.txt) that');
    // The project's own dist/ is the build's folder: what is in it is the build's to replace.
    expect(buildRefusal('no build output found', { distDir: full, contentDir: content, named: false })).toBeUndefined();
  });
});
