/**
 * What a cache of build output must name besides its input: the code that made the output. A sha1 over the source
 * text of every module in the given folders and the versions of the given packages, so that any edit there (or an
 * upgrade) makes every entry stale, rather than a hand-kept list of modules missing the one that changed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * `folders`: URLs of source folders (their .ts modules, tests excepted, read in name order); `packages`: names whose
 * package.json version counts. Undefined when a folder cannot be read (e.g. this module bundled elsewhere): the
 * caller then computes instead of caching.
 */
export function codeIdentity(folders: readonly URL[], packages: readonly string[] = []): string | undefined {
  const hash = createHash('sha1');
  try {
    for (const folder of folders) {
      const dir = fileURLToPath(folder);
      const modules = readdirSync(dir)
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .sort();
      if (!modules.length) return undefined;
      for (const name of modules) hash.update(`\0${name}\0`).update(readFileSync(join(dir, name)));
    }
    for (const name of packages) hash.update(`\0${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}
