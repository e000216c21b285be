import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecord, recordedResult, writeRecord, type RecordedFile } from './precompress-record.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const recorded: RecordedFile = { ino: 7, size: 900, mtimeMs: 1700000000123.25, result: { size: 900, sha1: 'abc', br: 300, gz: 350, key: 'k' } };
const same = { ino: 7, size: 900, mtimeMs: 1700000000123.25 };
const both = { br: true, gz: true };

describe('the precompress record', () => {
  it("gives the recorded result only for the same inode, size and time, with the recorded variants beside it", () => {
    expect(recordedResult(recorded, '/out/a.html', same, both)).toEqual({ ...recorded.result, file: '/out/a.html', hit: true });
    expect(recordedResult(undefined, '/out/a.html', same, both)).toBeUndefined();
    expect(recordedResult(recorded, '/out/a.html', { ...same, ino: 8 }, both)).toBeUndefined();
    expect(recordedResult(recorded, '/out/a.html', { ...same, size: 901 }, both)).toBeUndefined();
    expect(recordedResult(recorded, '/out/a.html', { ...same, mtimeMs: same.mtimeMs + 0.001 }, both)).toBeUndefined();
    expect(recordedResult(recorded, '/out/a.html', same, { br: false, gz: true })).toBeUndefined();
    // A variant the record says was not worth writing, found beside the file: not this record's.
    const gzOnly: RecordedFile = { ...recorded, result: { size: 900, sha1: 'abc', gz: 350 } };
    expect(recordedResult(gzOnly, '/out/a.html', same, both)).toBeUndefined();
    expect(recordedResult(gzOnly, '/out/a.html', same, { br: false, gz: true })).toMatchObject({ sha1: 'abc', hit: true });
  });

  it("reads back what it wrote for the same folder only, and nothing from a damaged file", () => {
    const dir = mkdtempSync(join(tmpdir(), 'precompress-record-'));
    dirs.push(dir);
    const file = join(dir, 'record.json');
    writeRecord(file, '/out', new Map([['/a.html', recorded]]));
    expect(readRecord(file, '/out').get('/a.html')).toEqual(recorded);
    expect(readRecord(file, '/elsewhere').size).toBe(0);
    writeFileSync(file, '{"root":"/out","files":{"/a.html":{"ino":"7"}}}');
    expect(readRecord(file, '/out').size).toBe(0);
    expect(readRecord(join(dir, 'missing.json'), '/out').size).toBe(0);
  });
});
