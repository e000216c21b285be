/** npm test's pretest (scripts/test-setup.ts): what it does on a fresh machine, as root or not. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan } from '../../scripts/test-setup.ts';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/test-setup.ts');

describe('npm test setup', () => {
  it('does nothing when redis-server and chromium are there', () => {
    expect(plan({ missing: [], isRoot: false, hasAptGet: true })).toEqual({ action: 'none' });
  });

  it('installs what is missing with apt-get when root', () => {
    expect(plan({ missing: ['redis-server', 'chromium'], isRoot: true, hasAptGet: true })).toEqual({ action: 'install', packages: ['redis-server', 'chromium'] });
  });

  it('otherwise stops with one line naming the missing package', () => {
    const decision = plan({ missing: ['redis-server'], isRoot: false, hasAptGet: true });
    expect(decision).toEqual({
      action: 'stop',
      message: 'npm test needs the Debian package redis-server: run "sudo apt-get install redis-server" (or npm test as root, which installs it).',
    });
    expect(plan({ missing: ['chromium'], isRoot: true, hasAptGet: false })).toMatchObject({ action: 'stop', message: expect.stringContaining('chromium') });
  });

  it('passes at once on this machine, where both are installed', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8', env: { ...process.env, SKIP_TEST_SETUP: '' } });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
