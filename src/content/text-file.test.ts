import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NotUtf8Error, readUtf8 } from './text-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'text-file-'));
const file = (name: string, bytes: Uint8Array | string) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

describe('readUtf8', () => {
  it('reads UTF-8, a U+FFFD the file spells itself included', () => {
    expect(readUtf8(file('ok.srt', '1\n00:00:00,000 --> 00:00:01,000\ncafé crème “glass” \uFFFD\n'))).toContain('café crème');
  });

  it('names the first line saved in another encoding (Windows-1252 here)', () => {
    const cp1252 = Buffer.concat([Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nWelcome to Deep Field '), Buffer.from([0x97, 0x20, 0x63, 0x61, 0x66, 0xe9]), Buffer.from('\n')]);
    const path = file('cp1252.srt', cp1252);
    expect(() => readUtf8(path)).toThrow(NotUtf8Error);
    expect(() => readUtf8(path)).toThrow(/^line 3 is not UTF-8 text .*save the file as UTF-8$/);
  });
});
