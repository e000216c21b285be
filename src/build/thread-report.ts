/**
 * A worker thread's one report to the thread that started it: what it made, or why it failed. The build's threads
 * that run one job and end (the bulk documents' parts, the semantic artifact) use both ends of this exchange.
 */
import { parentPort, type Worker } from 'node:worker_threads';

export type ThreadReport<T> = { value: T } | { error: string };

/** In the worker thread: runs `work` and posts its value, or its error with the stack. */
export async function reportToParent<T>(work: () => T | Promise<T>): Promise<void> {
  let report: ThreadReport<T>;
  try {
    report = { value: await work() };
  } catch (e) {
    report = { error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) };
  }
  parentPort!.postMessage(report);
}

/**
 * In the thread that started `worker`: the value it reports. Rejects, naming `label`, when it reports an error or
 * exits before reporting, and with the worker's own error when it throws.
 */
export function reportOf<T>(worker: Worker, label: string): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', (report: ThreadReport<T>) => ('error' in report ? reject(new Error(`${label}: ${report.error}`)) : resolve(report.value)));
    worker.once('error', reject);
    // After a report this changes nothing (a settled promise stays as it is).
    worker.once('exit', (code) => reject(new Error(`${label}: the worker thread exited (${code}) before reporting`)));
  });
}
