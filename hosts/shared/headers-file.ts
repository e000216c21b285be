/**
 * The `_headers` file that Cloudflare's assets layer and Netlify's CDN both read: the headers the pipeline would
 * add, for the files the CDN answers without the function (pages, scripts, styles, images, audio). One site-wide
 * CSP allows the inline scripts of every page by hash (the union of the manifest's per-page policies), so the
 * file stays a handful of rules at any number of episodes (Cloudflare reads at most 100).
 */
import { contentSecurityPolicy } from '../../contract/http-policy.ts';
import type { AssetEntry, AssetManifest } from '../../contract/schemas/asset-manifest.ts';

/** One CSP for every page the CDN answers alone: the union of the pages' inline-script hashes. */
export function siteWideCsp(manifest: AssetManifest): string {
  const hashes = new Set<string>();
  for (const [, entry] of manifest.files.entries()) {
    for (const m of entry.csp?.matchAll(/'(sha256-[^']+)'/g) ?? []) hashes.add(m[1]!);
  }
  return contentSecurityPolicy([...hashes].sort());
}

/** A path pattern (`/dir/*` or an exact path) and the headers a CDN adds to the files it answers there alone. */
export interface HeaderRule {
  pattern: string;
  headers: Record<string, string>;
}

export interface CdnRuleOptions {
  /** Files a host routes through its function besides the manifest's `fn` ones: the CDN never answers them alone. */
  throughFunction?: (entry: AssetEntry) => boolean;
}

/**
 * The headers the pipeline would add, as CDN rules: the security headers everywhere, and each file's cache policy
 * (the manifest's) where it differs from a page's, which is what a CDN does by default. The files of one folder
 * that share a policy get one rule (`/audio/*`), so the rules stay a handful at any number of episodes.
 */
export function cdnHeaderRules(manifest: AssetManifest, options: CdnRuleOptions = {}): HeaderRule[] {
  const rules: HeaderRule[] = [
    {
      pattern: '/*',
      headers: {
        'Content-Security-Policy': siteWideCsp(manifest),
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
        'X-Frame-Options': 'DENY',
      },
    },
  ];
  const folders = new Map<string, Map<string, HeaderRule['headers']>>();
  for (const [path, entry] of manifest.files.entries()) {
    if (entry.fn || options.throughFunction?.(entry) || entry.type.startsWith('text/html')) continue;
    const folder = /^\/[^/]+\//.exec(path)?.[0];
    const headers: HeaderRule['headers'] = { 'Cache-Control': entry.cacheControl };
    if (/^(audio|video)\//.test(entry.type)) headers['Accept-Ranges'] = 'bytes';
    const key = folder ?? path;
    const byPath = folders.get(key) ?? new Map<string, HeaderRule['headers']>();
    byPath.set(path, headers);
    folders.set(key, byPath);
  }
  for (const [key, byPath] of [...folders].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const distinct = new Set([...byPath.values()].map((h) => JSON.stringify(h)));
    if (key.endsWith('/') && distinct.size === 1) rules.push({ pattern: `${key}*`, headers: byPath.values().next().value! });
    else for (const [path, headers] of byPath) rules.push({ pattern: path, headers });
  }
  return rules;
}

/** The `_headers` file of Cloudflare's assets layer and Netlify's CDN. */
export function headersFile(manifest: AssetManifest, options: CdnRuleOptions = {}): string {
  return cdnHeaderRules(manifest, options)
    .map(({ pattern, headers }) => `${pattern}\n${Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`).join('\n')}\n`)
    .join('\n');
}

/** Route patterns for the files that must go through the function layer (the manifest's `fn` files). */
export function functionRoutedPatterns(manifest: AssetManifest): string[] {
  const patterns = new Set<string>();
  for (const [path, entry] of manifest.files.entries()) {
    if (!entry.fn) continue;
    const dir = /^\/(\.well-known|transcripts|chapters|search)\//.exec(path);
    patterns.add(dir ? `/${dir[1]}/*` : path);
  }
  return [...patterns].sort();
}
