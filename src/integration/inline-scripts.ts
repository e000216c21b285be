/**
 * The inline scripts of an HTML page, as the CSP allows them (by hash). Only node: modules here: precompress's worker
 * threads (precompress-job.ts) run it on each page while they have its bytes, so the asset manifest, the build's
 * last step, does not read the pages again (src/integration/asset-manifest.ts).
 */
import { createHash } from 'node:crypto';

/**
 * sha256 sources for the inline <script> elements of a page (external ones are covered by 'self'), from its bytes.
 * The page is read as latin1, one character a byte: the markup looked for is ASCII, and in UTF-8 an ASCII byte is
 * only ever that character, so the matches are the same as over the decoded text, and each script's characters
 * are its UTF-8 bytes, which the hash takes back as they were. Decoding every page as UTF-8 instead was most of
 * the asset manifest's time when it read the pages (N = 1,000: ~1 s of 1.6 for ~4,200 pages).
 */
export function inlineScriptHashes(page: Uint8Array): string[] {
  const html = Buffer.from(page.buffer, page.byteOffset, page.byteLength).toString('latin1');
  const hashes = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    // Attribute names as HTML's tokenizer splits them: after ASCII whitespace or a slash (data-src is not src; a
    // no-break space is no space).
    if (/(?:^|[\t\n\f\r /])src[\t\n\f\r ]*=/i.test(attrs)) continue;
    // JSON-LD and other data blocks are not executed, so they need no allowance.
    const type = /(?:^|[\t\n\f\r /])type[\t\n\f\r ]*=[\t\n\f\r ]*["']?([^"'\t\n\f\r >]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    hashes.add(`sha256-${createHash('sha256').update(m[2] ?? '', 'latin1').digest('base64')}`);
  }
  return [...hashes];
}
