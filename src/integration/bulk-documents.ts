/**
 * Build step, after prerendering and before precompress: writes the bulk documents (src/build/bulk-documents.ts:
 * transcripts, chapters, search shards and passages) into the output, from the content the pages were built
 * from. Their routes list no paths in a build with this integration.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { bulkDocuments, setBulkDocumentsWrittenByIntegration } from '../build/bulk-documents.ts';
import { getContent } from '../content/site.ts';

export function bulkDocumentsIntegration(): AstroIntegration {
  return {
    name: 'bulk-documents',
    hooks: {
      'astro:config:setup': ({ command }) => {
        if (command === 'build') setBulkDocumentsWrittenByIntegration(true);
      },
      'astro:build:done': async ({ dir, logger }) => {
        const t = performance.now();
        const { files, bytes } = await writeBulkDocuments(fileURLToPath(dir));
        logger.info(`${files} documents written (${Math.round(bytes / 1024 / 1024)} MB) in ${Math.round(performance.now() - t)} ms`);
      },
    },
  };
}

export async function writeBulkDocuments(root: string): Promise<{ files: number; bytes: number }> {
  const dirs = new Set<string>();
  const pending = new Set<Promise<void>>();
  let files = 0;
  let bytes = 0;
  for await (const [path, body] of bulkDocuments(getContent())) {
    const file = join(root, path.slice(1));
    const dir = dirname(file);
    if (!dirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      dirs.add(dir);
    }
    const write = writeFile(file, body).then(() => void pending.delete(write));
    pending.add(write);
    files++;
    bytes += Buffer.byteLength(body);
    // A few writes in flight: the bodies of a large show do not all sit in memory at once.
    if (pending.size >= 16) await Promise.race(pending);
  }
  await Promise.all(pending);
  return { files, bytes };
}
