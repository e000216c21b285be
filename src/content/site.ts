import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ContentError, loadContent, type LoadedContent, type LoadResult } from './load.ts';

let cached: { content: LoadedContent; edits: number } | undefined;

/** The folder the build reads the content from: CONTENT_DIR, else content/ (relative to where it runs). */
export function contentDir(): string {
  return process.env.CONTENT_DIR || 'content';
}

/**
 * The validated content, read once per build process (every page and document shares it); under `astro dev`, read
 * again after each edit to the content folder (contentEdited).
 */
export function getContent(): LoadedContent {
  const edits = contentEdits();
  if (cached?.edits !== edits) {
    const { content, errors } = loadSharedContent(contentDir());
    if (!content) throw new ContentError(errors);
    cached = { content, edits };
  }
  return cached.content;
}

const EDITS = Symbol.for('podcast-listener-service.content-edits');
const contentEdits = () => (globalThis as { [EDITS]?: number })[EDITS] ?? 0;

/**
 * `astro dev`: the content folder changed (src/integration/content-check.ts watches it). Every copy of this module
 * in the process reads the content again at its next getContent(); a build never calls this, so reads it once.
 */
export function contentEdited(): void {
  (globalThis as { [EDITS]?: number })[EDITS] = contentEdits() + 1;
}

const SHARED = Symbol.for('podcast-listener-service.content');

/**
 * loadContent(dir), shared by every copy of this module in the process. Astro evaluates it several times in one
 * build (the content check in the config's integrations, the content layer's loaders, the prerender bundle),
 * and each copy used to read and parse every episode and transcript again: at 1,000 episodes, seconds each.
 * The result is reused while the folder's files (names, sizes, modification times) and the environment the
 * content reads are the same, so `astro dev` still sees an edit. Callers must not modify it.
 */
export function loadSharedContent(dir: string): LoadResult {
  const g = globalThis as { [SHARED]?: { key: string; result: LoadResult } };
  const key = fingerprint(dir);
  if (g[SHARED]?.key === key) return g[SHARED].result;
  const result = loadContent(dir);
  g[SHARED] = { key, result };
  return result;
}

function fingerprint(dir: string): string {
  const env = ['SITE_URL', 'TIP_WALLET_ADDRESS', 'TIP_NETWORK', 'TIP_URL'].map((k) => process.env[k] ?? '');
  const parts = [resolve(dir), process.cwd(), ...env];
  for (const [path, stamp] of contentStamps(dir)) parts.push(`${path}:${stamp}`);
  return createHash('sha1').update(parts.join('\n')).digest('hex');
}

/** Every file under the content folder, in name order, with its size and modification time. */
export function contentStamps(dir: string): Map<string, string> {
  const stamps = new Map<string, string>();
  const walk = (d: string) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else {
        const s = statSync(full, { throwIfNoEntry: false });
        stamps.set(full, `${s?.size}:${s?.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return stamps;
}

/** The files added, removed or changed between two contentStamps of one folder. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = [...after].filter(([path, stamp]) => before.get(path) !== stamp).map(([path]) => path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed.sort();
}
