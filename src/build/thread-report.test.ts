import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { reportOf } from './thread-report.ts';

const MODULE = JSON.stringify(new URL('./thread-report.ts', import.meta.url).href);
/** A worker thread that reports what `work` (source text of a function) gives. */
const reporting = (work: string) => new Worker(`import(${MODULE}).then(({ reportToParent }) => reportToParent(${work}))`, { eval: true });

describe('a worker thread\'s one report', () => {
  it('hands over the value the work gives, awaited', async () => {
    await expect(reportOf(reporting('async () => ({ n: 42 })'), 'job')).resolves.toEqual({ n: 42 });
  });

  it('rejects with the work\'s error and stack, named by the label', async () => {
    await expect(reportOf(reporting('() => { throw new Error("boom"); }'), 'job')).rejects.toThrow(/^job: boom\n.*Error: boom/s);
  });

  it('rejects when the thread exits before reporting', async () => {
    await expect(reportOf(reporting('() => process.exit(3)'), 'job')).rejects.toThrow('job: the worker thread exited (3) before reporting');
  });
});
