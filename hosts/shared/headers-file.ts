/**
 * The `_headers` file that Cloudflare's assets layer and Netlify's CDN both read: the headers the pipeline would
 * add, for the files the CDN answers without the function (pages, scripts, styles, images, audio). One site-wide
 * CSP allows the inline scripts of every page by hash (the union of the manifest's per-page policies), so the
 * file stays a handful of rules at any number of episodes (Cloudflare reads at most 100).
 */
import { contentSecurityPolicy } from '../../contract/http-policy.ts';
import type { AssetManifest } from '../../contract/schemas/asset-manifest.ts';

/** One CSP for every page the CDN answers alone: the union of the pages' inline-script hashes. */
export function siteWideCsp(manifest: AssetManifest): string {
  const hashes = new Set<string>();
  for (const [, entry] of manifest.files.entries()) {
    for (const m of entry.csp?.matchAll(/'(sha256-[^']+)'/g) ?? []) hashes.add(m[1]!);
  }
  return contentSecurityPolicy([...hashes].sort());
}

export function headersFile(manifest: AssetManifest): string {
  const rules: Array<[string, string[]]> = [
    [
      '/*',
      [
        `Content-Security-Policy: ${siteWideCsp(manifest)}`,
        'X-Content-Type-Options: nosniff',
        'Referrer-Policy: strict-origin-when-cross-origin',
        'X-Frame-Options: DENY',
      ],
    ],
    ['/_astro/*', ['Cache-Control: public, max-age=31536000, immutable']],
    ['/audio/*', ['Cache-Control: public, max-age=86400', 'Accept-Ranges: bytes']],
  ];
  return rules.map(([path, lines]) => `${path}\n${lines.map((l) => `  ${l}`).join('\n')}\n`).join('\n');
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
