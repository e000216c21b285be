/** Worker thread of src/integration/precompress.ts: runs the jobs it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import { runJob, type Job } from './precompress-job.ts';

parentPort!.on('message', ({ id, job }: { id: number; job: Job }) => {
  try {
    parentPort!.postMessage({ id, result: runJob(job) });
  } catch (e) {
    parentPort!.postMessage({ id, error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) });
  }
});
