/**
 * A record a build writes beside its output's client/ (which files Astro made, which documents' keys it published),
 * trusted by the next build only while Astro's cache folder still holds the same token. Every build forgets the
 * cache's token when it starts, so a stopped build, another output built with the same cache, or a cleared cache
 * leaves the record and the cache apart, and nothing of the record is trusted. kept-pages.ts (prerendered.json)
 * and kept-documents.ts (kept-documents.json) each keep one, under a token file of their own.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';

/** The token in `cacheDir`'s file `name` (read before the build changes the cache), or undefined. */
export function cacheToken(cacheDir: string, name: string): string | undefined {
  try {
    return readFileSync(join(cacheDir, name), 'utf8') || undefined;
  } catch {
    return undefined;
  }
}

/** The cache is about to change: no output matches it until this build records its own. */
export function forgetCacheToken(cacheDir: string, name: string): void {
  rmSync(join(cacheDir, name), { force: true });
}

/** The record in `file` when it parses and carries `token`; undefined otherwise (and without a token). */
export function matchingRecord<T extends { token: string }>(file: string, schema: z.ZodType<T>, token: string | undefined): T | undefined {
  if (!token) return undefined;
  try {
    const record = schema.parse(JSON.parse(readFileSync(file, 'utf8')));
    return record.token === token ? record : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `body` to `file` under a new token, and the token to `cacheDir`'s file `name`. */
export function writeRecord(file: string, cacheDir: string, name: string, body: object): void {
  const token = randomUUID();
  writeFileSync(file, JSON.stringify({ token, ...body }));
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(join(cacheDir, name), token);
}
