import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, summarizeRuns } from '../lib/stats.ts';
import { summarizeProfile, whereOf } from '../lib/profile.ts';
import { familyOf, renderResults, writeResults } from '../lib/report.ts';
import type { BenchResult } from '../lib/result.ts';
import { flushWrites, newFileMicros } from '../lib/fs-probe.ts';
import { cpuProbeMs } from '../lib/cpu-probe.ts';
import { inTurns } from '../lib/schedule.ts';

const root = mkdtempSync(join(tmpdir(), 'bench-lib-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('stats', () => {
  it('takes nearest-rank percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('reports the median run, so one noisy run does not decide', () => {
    const s = summarizeRuns([[1, 1, 1, 100], [1, 1, 1, 2], [1, 1, 1, 3]]);
    expect(s.p99).toBe(3);
    expect(s.p99Range).toEqual([2, 100]);
    expect(s.runs).toBe(3);
    expect(s.queries).toBe(4);
  });
});

describe('profile summary', () => {
  it('attributes self and inclusive time, and groups by package', () => {
    const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
      id,
      callFrame: { functionName, url, lineNumber: 0, columnNumber: 0, scriptId: '0' },
      hitCount: 0,
      children,
    });
    const profile = {
      nodes: [
        frame(1, '(root)', '', [2, 5]),
        frame(2, 'handler', 'file:///x/functions/search/engine.ts', [3]),
        frame(3, 'query', 'file:///x/node_modules/lunr/lunr.js', [4]),
        frame(4, 'query', 'file:///x/node_modules/lunr/lunr.js'),
        frame(5, '(garbage collector)', ''),
      ],
      // Samples at 2, 3, 3, 4, 5; each stands for the delta that follows it (1 ms each, the last one 0).
      samples: [2, 3, 3, 4, 5, 5],
      timeDeltas: [0, 1000, 1000, 1000, 1000, 1000],
      startTime: 0,
      endTime: 5000,
    };
    const file = join(root, 'p.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    const p = summarizeProfile(file);
    expect(p.totalMs).toBe(5);
    expect(p.byWhere.find((w) => w.where === 'lunr')!.selfMs).toBe(3);
    expect(p.bySelf[0]!.fn).toMatch(/^query lunr\.js/);
    // Recursion (query → query) is counted once in inclusive time.
    expect(p.byTotal.find((f) => f.fn.startsWith('query'))!.totalMs).toBe(3);
    expect(p.byTotal.find((f) => f.fn.startsWith('handler'))!.totalMs).toBe(4);
    expect(p.special['(garbage collector)']).toBeCloseTo(0.2);
  });

  it('names where a frame lives', () => {
    const f = (url: string) => whereOf({ functionName: 'f', url, lineNumber: 0 });
    expect(f('file:///a/node_modules/@astrojs/node/dist/x.js')).toBe('@astrojs/node');
    expect(f('node:internal/deps/undici/undici')).toBe('node:internal');
    expect(f('wasm://wasm/00ad0bc6')).toBe('wasm (TypeScript type stripping)');
  });
});

describe('report', () => {
  it('groups per-episode files into one family', () => {
    const paths = [1, 2, 3, 4].map((i) => ({ path: `/episodes/000${i}-episode/index.html` }));
    expect(familyOf(paths[0]!.path, paths)).toBe('/episodes/*/index.html');
    expect(familyOf('/.well-known/x402/supported', [{ path: '/.well-known/x402/supported' }])).toBe('/.well-known/x402/supported');
  });

  it('judges the targets and keeps the hand-written text around the generated part', () => {
    const dir = join(root, 'results');
    mkdirSync(dir, { recursive: true });
    const md = join(root, 'RESULTS.md');
    const result: BenchResult = {
      episodes: 100,
      seed: 42,
      date: '2026-01-01T00:00:00.000Z',
      command: 'npm run bench',
      machine: { cpu: 'Test CPU', cores: 2, memoryBytes: 8e9, os: 'Linux', node: 'v24.0.0' },
      loadavg: { start: [0.1, 0.1, 0.1], end: [0.2, 0.2, 0.2] },
      stages: {},
      build: { ms: 20_000, cpuMs: 25_000, phases: [], notes: [], routes: [] },
      coldStart: { runs: [{ toListeningMs: 500, toFirstSearchMs: 1500, status: 200 }], medianToListeningMs: 500, medianToFirstSearchMs: 1500 },
      http: { options: { connections: 10, duration: 5, warmup: 1 } },
    };
    writeResults(result, dir, md);
    let text = readFileSync(md, 'utf8');
    expect(text).toMatch(/\| Full build \| ≤ 60 s \| 20\.0 s \| \*\*yes\*\* \|/);
    expect(text).toMatch(/\| Process start → first search answered \| ≤ 1 s \| 1500 ms \| \*\*no\*\* \|/);
    expect(text).toMatch(/In-process search \/ ask p99, computed anew \(no answer cache; npm start's V8 flags\) \| ≤ 10 ms \| – \| not measured/);
    writeFileSync(md, `# Mine\n\nAnalysis before.\n\n${text.slice(text.indexOf('<!-- bench:results:begin'))}\nAnalysis after.\n`);
    renderResults(dir, md);
    text = readFileSync(md, 'utf8');
    expect(text.startsWith('# Mine\n\nAnalysis before.')).toBe(true);
    expect(text.trimEnd().endsWith('Analysis after.')).toBe(true);
    expect(text.match(/## N = 100 episodes/g)).toHaveLength(1);

    // N = 2,000 beside N = 1,000: each figure also as a ratio to the N = 1,000 one, the rebuild's included.
    const at = (episodes: number, k: number): BenchResult => ({
      ...result,
      episodes,
      build: { ms: 90_000 * k, cpuMs: 170_000 * k, phases: [], notes: [], routes: [], runs: [95_000, 90_000, 88_000].map((x) => ({ ms: x * k, cpuMs: 2 * x * k })) },
      rebuild: { ms: 40_000 * k, cpuMs: 70_000 * k, phases: [], runs: [41_000, 40_000, 45_000].map((x) => ({ ms: x * k })) },
    });
    writeResults(at(1000, 1), dir, md);
    writeResults(at(2000, 2.1), dir, md);
    text = readFileSync(md, 'utf8');
    expect(text).toMatch(/\| N = 2,000 \/ N = 1,000: build \| ≤ 2× \| 2\.10× \| \*\*no\*\* \|/);
    expect(text).toMatch(/\| N = 2,000 \/ N = 1,000: one-episode rebuild \| ≤ 2× \| 2\.10× \| \*\*no\*\* \|/);
    // The build's and the rebuild's figures are the medians of their runs, each run shown.
    expect(text).toMatch(/\| Full build \| ≤ 60 s \| 90\.0 s \(median of 95\.0 s \/ 90\.0 s \/ 88\.0 s\) \| \*\*no\*\* \|/);
    expect(text).toContain('the median of 3 builds (95.0 s / 190.0 s CPU, 90.0 s / 180.0 s CPU, 88.0 s / 176.0 s CPU)');
    expect(text).toMatch(/\| Adding one episode and rebuilding \| ≤ 10 s \| 40\.0 s \(median of 41\.0 s \/ 40\.0 s \/ 45\.0 s\) \| \*\*no\*\* \|/);
    expect(text).toMatch(/\| N = 2,000 \/ N = 1,000: first search answered \| ≤ 2× \| 1\.00× \| \*\*yes\*\* \|/);

    // A run measured with the disk probe shows what a new file cost just before it.
    const probed = at(1000, 1);
    probed.build!.runs = [{ ms: 95_000, cpuMs: 190_000, newFileUs: 812.4 }, { ms: 90_000, cpuMs: 180_000, newFileUs: 40 }];
    probed.rebuild!.runs = [{ ms: 40_000, newFileUs: 350 }, { ms: 41_000, newFileUs: 351 }];
    writeResults(probed, dir, md);
    text = readFileSync(md, 'utf8');
    expect(text).toContain('(median of 95.0 s [new file 812 µs] / 90.0 s [new file 40 µs])');
    expect(text).toContain('the median of 2 builds (95.0 s [new file 812 µs] / 190.0 s CPU, 90.0 s [new file 40 µs] / 180.0 s CPU)');
    expect(text).toContain('median of 40.0 s [new file 350 µs] / 41.0 s [new file 351 µs]');

    // And with the CPU probe, how fast the machine was just before each.
    probed.build!.runs = [{ ms: 95_000, cpuMs: 190_000, newFileUs: 812.4, cpuProbeMs: 801.2 }, { ms: 90_000, cpuMs: 180_000, newFileUs: 40, cpuProbeMs: 530 }];
    writeResults(probed, dir, md);
    text = readFileSync(md, 'utf8');
    expect(text).toContain('(median of 95.0 s [new file 812 µs, CPU probe 801 ms] / 90.0 s [new file 40 µs, CPU probe 530 ms])');
    expect(text).toContain('bench/lib/cpu-probe.ts');

    // And how long writing out the earlier builds' files took before each.
    probed.build!.runs = [{ ms: 95_000, cpuMs: 190_000, syncMs: 2_412, newFileUs: 40, cpuProbeMs: 530 }, { ms: 90_000, cpuMs: 180_000, syncMs: 35.2, newFileUs: 41, cpuProbeMs: 531 }];
    writeResults(probed, dir, md);
    text = readFileSync(md, 'utf8');
    expect(text).toContain('(median of 95.0 s [sync 2412 ms, new file 40 µs, CPU probe 530 ms] / 90.0 s [sync 35.2 ms, new file 41 µs, CPU probe 531 ms])');
    expect(text).toContain('sync(1)');
  });
});

describe('inTurns', () => {
  it('takes every item once a round, the items in their order, round after round', () => {
    expect([...inTurns([1000, 2000], 3)].map(({ item, round }) => `${item}#${round}`)).toEqual(['1000#1', '2000#1', '1000#2', '2000#2', '1000#3', '2000#3']);
    expect([...inTurns([100], 2)]).toEqual([{ item: 100, round: 1 }, { item: 100, round: 2 }]);
    expect([...inTurns([], 3)]).toEqual([]);
  });
});

describe('CPU probe', () => {
  it('times a fixed piece of work that uses none of the project', () => {
    const ms = cpuProbeMs(1);
    expect(ms).toBeGreaterThan(0);
    expect(Number.isFinite(ms)).toBe(true);
  });
});

describe('flushWrites', () => {
  it('writes out the dirty pages and says how long that took', () => {
    writeFileSync(join(root, 'dirty.bin'), Buffer.alloc(1 << 20, 1));
    const ms = flushWrites();
    // It runs sync(1): starting a process alone takes more than a tenth of a millisecond.
    expect(ms).toBeGreaterThan(0.1);
    expect(Number.isFinite(ms)).toBe(true);
  });
});

describe('disk probe', () => {
  it('times new files in a folder of its own and leaves them there', () => {
    const dir = join(root, 'probe');
    const us = newFileMicros(dir, 50);
    expect(us).toBeGreaterThan(0);
    expect(readdirSync(dir)).toHaveLength(50);
    expect(readFileSync(join(dir, '49.json')).byteLength).toBe(1400);
    // A folder that exists is refused: its files would not be new.
    expect(() => newFileMicros(dir, 1)).toThrow(/EEXIST/);
  });
});
