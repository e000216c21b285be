/**
 * The layering the README describes, enforced: data flows content → build (src/) → output → functions/ → hosts/.
 * contract/ is the one Web-safe place every layer (and the browser) imports; functions/ never imports the build,
 * and neither contract/ nor functions/ uses a Node-only API, so every host (Workers, Deno, Bun, Netlify, Vercel)
 * can run them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) {
      out.push(relative(ROOT, join(entry.parentPath, entry.name)));
    }
  }
  return out;
}

/** Every module specifier a file imports (static, dynamic and re-exports), resolved to a repo path when relative. */
function imports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.map((s) => (s.startsWith('.') ? relative(ROOT, resolve(ROOT, file, '..', s)) : s));
}

/** Packages that run unchanged in every runtime the hosts target (no Node built-ins underneath). */
const WEB_SAFE_PACKAGES = ['zod', 'jose', 'lunr', 'lunr-languages', '@modelcontextprotocol/sdk/types.js'];

function violations(dir: string, allowedDirs: string[]): string[] {
  const bad: string[] = [];
  for (const file of sources(dir)) {
    for (const spec of imports(file)) {
      const relativeOk = allowedDirs.some((d) => spec.startsWith(`${d}/`));
      const packageOk = WEB_SAFE_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`));
      const isRelative = !spec.includes(':') && (spec.startsWith('contract/') || spec.startsWith('functions/') || spec.startsWith('src/') || spec.startsWith('hosts/') || spec.startsWith('..') || spec.startsWith('package.json'));
      if (isRelative ? !relativeOk : !packageOk) bad.push(`${file} imports ${spec}`);
    }
  }
  return bad;
}

describe('layers', () => {
  it('finds the files it checks (the scan itself works)', () => {
    expect(sources('functions').length).toBeGreaterThan(30);
    expect(sources('contract').length).toBeGreaterThan(15);
    expect(imports('functions/app.ts')).toContain('functions/errors.ts');
  });

  it('contract/ imports only itself and Web-safe packages', () => {
    expect(violations('contract', ['contract'])).toEqual([]);
  });

  it('functions/ imports only itself, contract/ and Web-safe packages: never src/ (the build) or hosts/, never node:*', () => {
    expect(violations('functions', ['functions', 'contract'])).toEqual([]);
  });

  it('the build (src/) never imports hosts/', () => {
    const bad = sources('src').flatMap((f) => imports(f).filter((s) => s.startsWith('hosts/')).map((s) => `${f} imports ${s}`));
    expect(bad).toEqual([]);
  });
});
