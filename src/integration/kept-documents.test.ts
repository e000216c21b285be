import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { KeptFolders, keptGate, recordKept, removeLeftovers, sweep, takeKeptFolders } from './kept-documents.ts';
import { LinkedFiles } from './linked-files.ts';
import type { JobResult } from './precompress-job.ts';
import { KEPT_DOCUMENTS_FILE } from '../../contract/schemas/build-source.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const FOLDERS = ['/transcripts', '/search/passages'];

/** A last output (outDir/client with a file in each folder), its cache folder and the new build's staging folder. */
function lastBuild() {
  const root = mkdtempSync(join(tmpdir(), 'kept-documents-'));
  roots.push(root);
  const outDir = join(root, 'dist');
  const cacheRoot = join(root, 'cache');
  const staging = join(cacheRoot, 'bulk-documents-1');
  const write = (path: string, text: string) => {
    const file = join(outDir, 'client', path.slice(1));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  write('/transcripts/1.srt', 'one');
  write('/transcripts/1.srt.gz', 'one, compressed');
  write('/search/passages/1-0.json', '[1]');
  write('/index.html', '<p>page</p>');
  return { root, outDir, cacheRoot, staging, write };
}

describe('takeKeptFolders', () => {
  it("takes the folders whole when the last output's record carries the cache's token, and forgets the token", () => {
    const { outDir, cacheRoot, staging } = lastBuild();
    recordKept(outDir, cacheRoot, ['k2', 'k1', 'k1']);
    const gate = keptGate(staging, [...FOLDERS, '/chapters']);
    const decision = takeKeptFolders({ outDir, cacheRoot, staging, gate });
    expect(decision).toEqual({ folders: FOLDERS, keys: ['k1', 'k2'] });
    expect(readFileSync(join(staging, 'transcripts/1.srt'), 'utf8')).toBe('one');
    expect(readdirSync(join(staging, 'transcripts')).sort()).toEqual(['1.srt', '1.srt.gz']);
    expect(existsSync(join(outDir, 'client/transcripts'))).toBe(false);
    // What is not a keyed folder stays for the rest of the build's steps.
    expect(existsSync(join(outDir, 'client/index.html'))).toBe(true);
    // The bulk threads are let go with the decision.
    expect(Atomics.load(gate.flag, 0)).toBe(1);
    expect(JSON.parse(readFileSync(gate.file, 'utf8'))).toEqual(decision);
    // This build changes the folders: until it records its own, no later build takes them.
    const next = join(cacheRoot, 'bulk-documents-2');
    expect(takeKeptFolders({ outDir, cacheRoot, staging: next, gate: keptGate(next, FOLDERS) })).toEqual({ folders: [], keys: [] });
  });

  it('takes nothing when the token is not the one the cache holds (another build since, a cache cleared), and still lets the threads go', () => {
    const { outDir, cacheRoot, staging } = lastBuild();
    recordKept(outDir, cacheRoot, ['k1']);
    const record = JSON.parse(readFileSync(join(outDir, KEPT_DOCUMENTS_FILE), 'utf8')) as { token: string };
    writeFileSync(join(outDir, KEPT_DOCUMENTS_FILE), JSON.stringify({ ...record, token: 'another build' }));
    const gate = keptGate(staging, FOLDERS);
    expect(takeKeptFolders({ outDir, cacheRoot, staging, gate })).toEqual({ folders: [], keys: [] });
    expect(existsSync(join(outDir, 'client/transcripts/1.srt'))).toBe(true);
    expect(Atomics.load(gate.flag, 0)).toBe(1);

    // No record at all (a first build, an output from before kept documents).
    const { outDir: bare, cacheRoot: bareCache, staging: bareStaging } = lastBuild();
    expect(takeKeptFolders({ outDir: bare, cacheRoot: bareCache, staging: bareStaging, gate: keptGate(bareStaging, FOLDERS) }).folders).toEqual([]);
  });
});

describe('sweep', () => {
  it('removes the files of the taken folders this build did not place or make, and the variants their results lack', () => {
    const { staging } = lastBuild();
    for (const name of ['1.srt', '1.srt.gz', '1.srt.br', '2.srt', '2.srt.gz']) {
      mkdirSync(join(staging, 'transcripts'), { recursive: true });
      writeFileSync(join(staging, 'transcripts', name), name);
    }
    const done = new Map<string, JobResult>([['/transcripts/1.srt', { file: '', size: 3, sha1: 'x', gz: 2 }]]);
    expect(sweep(staging, ['/transcripts', '/search/passages'], done)).toBe(3);
    expect(readdirSync(join(staging, 'transcripts')).sort()).toEqual(['1.srt', '1.srt.gz']);
  });
});

describe('removeLeftovers', () => {
  it('removes what stopped builds left in the cache folder, not what a running build (this one) or anything else has there', async () => {
    const { cacheRoot } = lastBuild();
    // Above Linux's highest process id: no process runs with it.
    const stopped = join(cacheRoot, 'bulk-documents-999999999');
    mkdirSync(join(stopped, 'transcripts'), { recursive: true });
    writeFileSync(join(stopped, 'transcripts/1.srt'), 'one');
    writeFileSync(`${stopped}.kept.json`, '{}');
    const own = join(cacheRoot, `bulk-documents-${process.pid}`);
    mkdirSync(own);
    mkdirSync(join(cacheRoot, 'bulk-documents-other'));
    writeFileSync(join(cacheRoot, 'kept-documents-token'), 't');
    await removeLeftovers(cacheRoot, 'bulk-documents-');
    expect(readdirSync(cacheRoot).sort()).toEqual([`bulk-documents-${process.pid}`, 'bulk-documents-other', 'kept-documents-token']);
    // No cache folder yet: nothing to do.
    await removeLeftovers(join(cacheRoot, 'none'), 'bulk-documents-');
  });
});

describe('KeptFolders', () => {
  it('answers for the folders the main thread took, and only for keys the last output published', () => {
    const { outDir, cacheRoot, staging } = lastBuild();
    recordKept(outDir, cacheRoot, ['k1']);
    // The main thread could not take /search/passages (another file system, say).
    rmSync(join(outDir, 'client/search/passages'), { recursive: true });
    const gate = keptGate(staging, FOLDERS);
    takeKeptFolders({ outDir, cacheRoot, staging, gate });
    const kept = new KeptFolders(gate);
    expect(kept.taken('/transcripts/1.srt')).toBe(true);
    // A candidate folder the main thread did not take, and a folder that is no candidate.
    expect(kept.taken('/search/passages/1-0.json')).toBe(false);
    expect(kept.taken('/search/lunr-index.json')).toBe(false);
    expect(kept.holds('k1', ['/transcripts/1.srt'])).toBe(true);
    expect(kept.holds('k2', ['/transcripts/1.srt'])).toBe(false);
    expect(kept.holds('k1', ['/transcripts/1.srt', '/search/passages/1-0.json'])).toBe(false);
    expect(kept.holds('k1', [])).toBe(false);
    // Without the decision's file a thread still knows what is in its staging folder, and holds no key as kept.
    rmSync(gate.file);
    const blind = new KeptFolders(gate);
    expect(blind.taken('/transcripts/1.srt')).toBe(true);
    expect(blind.holds('k1', ['/transcripts/1.srt'])).toBe(false);
  });

  it('makes a thread that asks before the main thread has decided wait for the decision', async () => {
    const { outDir, cacheRoot, staging } = lastBuild();
    recordKept(outDir, cacheRoot, ['k1']);
    const gate = keptGate(staging, ['/transcripts']);
    const module = new URL('./kept-documents.ts', import.meta.url).href;
    const worker = new Worker(
      new URL(
        `data:text/javascript,${encodeURIComponent(`
          import { parentPort, workerData } from 'node:worker_threads';
          const { KeptFolders } = await import(workerData.module);
          const kept = new KeptFolders(workerData.gate);
          parentPort.postMessage('asking');
          parentPort.postMessage(kept.holds('k1', ['/transcripts/1.srt']));
        `)}`,
      ),
      { workerData: { module, gate } },
    );
    try {
      const answers: unknown[] = [];
      const answered = new Promise<void>((resolve, reject) => {
        worker.on('message', (m: unknown) => {
          answers.push(m);
          // Decided only once the thread is about to ask: it cannot have read the decision before.
          if (m === 'asking') takeKeptFolders({ outDir, cacheRoot, staging, gate });
          else resolve();
        });
        worker.once('error', reject);
      });
      await answered;
      expect(answers).toEqual(['asking', true]);
    } finally {
      await worker.terminate();
    }
  });
});

describe('LinkedFiles in a build that took the folders', () => {
  /** The linked files' cache holding key `k1` for /transcripts/1.srt, and an output that published it. */
  function cached() {
    const build = lastBuild();
    const linked = join(build.cacheRoot, 'linked-files');
    const precompress = join(build.cacheRoot, 'precompress');
    const first = new LinkedFiles(linked, precompress);
    const staging0 = join(build.root, 'staging-0');
    for (const [key, text] of [
      ['k1', 'one'],
      ['k0', 'an older one'],
    ] as const) {
      expect(first.place(key, ['/transcripts/1.srt'], staging0, () => ({ gz: 5 }), new Map())).toBe(false);
      const file = join(staging0, key, 'transcripts/1.srt');
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      first.keep('/transcripts/1.srt', { gz: 5 }, { file, size: text.length, sha1: key });
    }
    // The last output's file is the cache entry's (the build linked it from there), and it published k1.
    rmSync(join(build.outDir, 'client/transcripts/1.srt'));
    rmSync(join(build.outDir, 'client/transcripts/1.srt.gz'));
    linkSync(join(linked, 'k1.0'), join(build.outDir, 'client/transcripts/1.srt'));
    recordKept(build.outDir, build.cacheRoot, ['k1']);
    const gate = keptGate(build.staging, FOLDERS);
    takeKeptFolders({ outDir: build.outDir, cacheRoot: build.cacheRoot, staging: build.staging, gate });
    return { ...build, linked, precompress, kept: new KeptFolders(gate) };
  }

  it('places a published key by the file already in the taken folder, without a link', () => {
    const { linked, precompress, kept, staging } = cached();
    const before = statSync(join(staging, 'transcripts/1.srt'));
    const files = new LinkedFiles(linked, precompress, kept);
    const done = new Map<string, JobResult>();
    expect(files.place('k1', ['/transcripts/1.srt'], staging, () => ({ gz: 5 }), done)).toBe(true);
    expect(done.get('/transcripts/1.srt')).toMatchObject({ size: 3, sha1: 'k1', hit: true });
    const after = statSync(join(staging, 'transcripts/1.srt'));
    expect([after.ino, after.nlink, after.ctimeMs]).toEqual([before.ino, before.nlink, before.ctimeMs]);
    expect(files.published()).toEqual(['k1']);
  });

  it("replaces another key's file in the taken folder without writing through it, so the cache keeps its bytes", () => {
    const { linked, precompress, kept, staging } = cached();
    const files = new LinkedFiles(linked, precompress, kept);
    // k0 is cached but was not published by the last output: its file is linked over the one there (k1's).
    expect(files.place('k0', ['/transcripts/1.srt'], staging, () => ({ gz: 5 }), new Map())).toBe(true);
    expect(readFileSync(join(staging, 'transcripts/1.srt'), 'utf8')).toBe('an older one');
    expect(readFileSync(join(linked, 'k1.0'), 'utf8')).toBe('one');
    // A key nobody cached: the file there goes, for the caller to write anew.
    expect(files.place('k9', ['/transcripts/1.srt'], staging, () => ({ gz: 5 }), new Map())).toBe(false);
    expect(existsSync(join(staging, 'transcripts/1.srt'))).toBe(false);
    expect(readFileSync(join(linked, 'k0.0'), 'utf8')).toBe('an older one');
  });
});
