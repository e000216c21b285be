/**
 * The developer commands' own command lines: `--help` prints the usage and exits 0; an option a command does not
 * take, or an episode that does not exist, stops it at once with one line and the usage, never parseArgs' stack
 * trace and never a run that silently does nothing.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const run = (script: string, ...args: string[]) => spawnSync(process.execPath, [join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

describe.each([
  ['bench/run.ts', 'npm run bench '],
  ['bench/pipeline.ts', 'npm run bench:pipeline'],
  ['bench/hosts.ts', 'npm run bench:hosts'],
  ['bench/isolate.ts', 'npm run bench:isolate'],
  ['bench/site-size.ts', 'npm run bench:site-size'],
  ['bench/lighthouse.ts', 'npm run bench:lighthouse'],
])('%s', (script, usage) => {
  it('--help prints the usage', () => {
    const help = run(script, '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain(usage);
  });

  it('an unknown option: one line and the usage, exit 2', () => {
    const wrong = run(script, '--no-such-option');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("Unknown option '--no-such-option'");
    expect(wrong.stderr).toContain(usage);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('scripts/sample-audio.ts', () => {
  it('--help prints the usage; a slug no episode has stops it, listing the slugs', () => {
    expect(run('scripts/sample-audio.ts', '--help').stdout).toContain('Usage: npm run sample:audio [-- SLUG ...]');
    const typo = run('scripts/sample-audio.ts', '001-sourdogh');
    expect(typo.status).toBe(1);
    expect(typo.stderr).toContain('sample:audio: no episode "001-sourdogh"; the slugs are 001-sourdough, 002-cryptography');
  });
});
