import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { codeIdentity } from './code-identity.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('codeIdentity', () => {
  it("changes with any module of a folder or a single module's text, and with a package's version", () => {
    dir = mkdtempSync(join(tmpdir(), 'code-identity-'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib/a.ts'), 'export const a = 1;');
    writeFileSync(join(dir, 'lib/a.test.ts'), 'test');
    writeFileSync(join(dir, 'one.ts'), 'export const one = 1;');
    const url = (p: string) => pathToFileURL(join(dir!, p));
    const id = () => codeIdentity([url('lib'), url('one.ts')]);
    const first = id();
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    writeFileSync(join(dir, 'lib/a.test.ts'), 'another test');
    expect(id()).toBe(first);
    writeFileSync(join(dir, 'one.ts'), 'export const one = 2;');
    const second = id();
    expect(second).not.toBe(first);
    writeFileSync(join(dir, 'lib/b.ts'), 'export const b = 1;');
    expect(id()).not.toBe(second);
    expect(codeIdentity([url('lib'), url('one.ts')], ['lunr'])).not.toBe(id());
    expect(codeIdentity([url('missing.ts')])).toBeUndefined();
    expect(codeIdentity([url('lib')], ['no-such-package'])).toBeUndefined();
  });
});
