/** Worker thread of src/integration/kept-pages.ts: links the kept files, and posts back the ones it linked. */
import { linkSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const { fromClient, toClient, files } = workerData as { fromClient: string; toClient: string; files: string[] };
const made = new Set<string>();
const linked: string[] = [];
for (const file of files) {
  const to = join(toClient, file);
  const dir = dirname(to);
  try {
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    linkSync(join(fromClient, file), to);
    linked.push(file);
  } catch {
    // Gone from the old output, or already written by Astro (EEXIST): Astro has or makes its own copy.
  }
}
parentPort!.postMessage(linked);
