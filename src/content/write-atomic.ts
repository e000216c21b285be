/**
 * Writes a file under another name and renames it into place, so a build that stops half-way never leaves a
 * truncated entry and a reader sees the old bytes or the new ones. The temporary name is the target's plus this
 * process and thread and `.tmp`: several threads of one build write into the same caches, and two may write the
 * same entry at once (two transcripts with the same text). The parse cache's upkeep removes a `.tmp` a stopped build
 * left; the other caches remove it with its entry.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';

export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}-${threadId}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
