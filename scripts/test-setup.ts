/**
 * `npm test`'s pretest: makes sure the Debian packages the tests use are there, so the README's `npm test` is
 * enough on a fresh machine. redis-server (the shared rate-limit tests) and Chromium at /usr/bin/chromium (the
 * browser tests): when one is missing and this runs as root, it is installed with apt-get (after apt-get
 * update); otherwise the run stops at once with one line naming the package to install.
 * SKIP_TEST_SETUP=1 skips the check (for machines that provide them some other way).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REQUIREMENTS = [
  { pkg: 'redis-server', present: () => onPath('redis-server') },
  { pkg: 'chromium', present: () => executable('/usr/bin/chromium') },
] as const;

export interface Probe {
  missing: string[];
  isRoot: boolean;
  hasAptGet: boolean;
}

export type Plan = { action: 'none' } | { action: 'install'; packages: string[] } | { action: 'stop'; message: string };

export function plan({ missing, isRoot, hasAptGet }: Probe): Plan {
  if (!missing.length) return { action: 'none' };
  if (isRoot && hasAptGet) return { action: 'install', packages: missing };
  const list = missing.join(' ');
  return {
    action: 'stop',
    message: `npm test needs the Debian package${missing.length > 1 ? 's' : ''} ${missing.join(' and ')}: run "sudo apt-get install ${list}" (or npm test as root, which installs ${missing.length > 1 ? 'them' : 'it'}).`,
  };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, name)));
}

function main(): number {
  if (process.env.SKIP_TEST_SETUP === '1') return 0;
  const missing = REQUIREMENTS.filter((r) => !r.present()).map((r) => r.pkg);
  const decision = plan({ missing, isRoot: process.getuid?.() === 0, hasAptGet: onPath('apt-get') });
  if (decision.action === 'none') return 0;
  if (decision.action === 'stop') {
    console.error(decision.message);
    return 1;
  }
  console.error(`npm test: installing ${decision.packages.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...decision.packages]]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) {
      console.error(`npm test: apt-get ${args[0]} failed (exit ${r.status}); install ${decision.packages.join(' ')} and run npm test again.`);
      return 1;
    }
  }
  const still = REQUIREMENTS.filter((r) => !r.present()).map((r) => r.pkg);
  if (still.length) {
    console.error(`npm test: ${still.join(' and ')} still missing after apt-get install.`);
    return 1;
  }
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = main();
