/**
 * What a cache of build output must name besides its input: the code that made the output. A sha1 over the source
 * text of every module in the given folders and the versions of the given packages, so that any edit there (or an
 * upgrade) makes every entry stale, rather than a hand-kept list of modules missing the one that changed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CUE_MAKERS } from '../content/cue-makers.ts';

const require = createRequire(import.meta.url);

/**
 * `sources`: URLs of source folders (their .ts modules, tests excepted, read in name order) or of single .ts modules;
 * `packages`: names whose package.json version counts. Undefined when a source cannot be read (e.g. this module
 * bundled elsewhere): the caller then computes instead of caching.
 */
export function codeIdentity(sources: readonly URL[], packages: readonly string[] = []): string | undefined {
  const hash = createHash('sha1');
  try {
    for (const source of sources) {
      const path = fileURLToPath(source);
      if (path.endsWith('.ts')) {
        hash.update(`\0${basename(path)}\0`).update(readFileSync(path));
        continue;
      }
      const modules = readdirSync(path)
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .sort();
      if (!modules.length) return undefined;
      for (const name of modules) hash.update(`\0${name}\0`).update(readFileSync(join(path, name)));
    }
    for (const name of packages) hash.update(`\0${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

/**
 * codeIdentity for what is made from an episode's cues and kept by its transcript's digest: `sources` and `packages`,
 * then the code that makes the cues from the transcript's text (CUE_MAKERS), which the digest does not name.
 */
export function cuesCodeIdentity(sources: readonly URL[], packages: readonly string[] = []): string | undefined {
  return codeIdentity([...sources, ...CUE_MAKERS.sources], [...packages, ...CUE_MAKERS.packages]);
}
