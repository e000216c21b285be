/**
 * What loading a SubRip transcript learns that the next build can know without reading it (file-facts.ts): its
 * digest (the sha1 that names its text in every cache of the build) and the count and end of its cues. Each of a
 * build's three threads read every transcript (87 MB at 1,000 hour-long episodes), hashed it and read its cues'
 * cache entry to count them: ~0.3 s a thread on a quiet machine, ~1 s beside the others in a one-episode rebuild. A
 * file as it was is taken from here; its cues are read from the cache when something asks for them (load.ts,
 * loadCuesOnDemand). Only transcripts without problems are remembered.
 */
import type { Stats } from 'node:fs';
import { FileFacts } from './file-facts.ts';

export interface SrtFacts {
  digest: string;
  count: number;
  lastEnd: number | undefined;
}

type Kept = [digest: string, count: number, lastEnd: number | null];

const isKept = (v: unknown): v is Kept =>
  Array.isArray(v) && v.length === 3 && typeof v[0] === 'string' && Number.isFinite(v[1]) && (v[2] === null || Number.isFinite(v[2]));

const facts = new FileFacts<Kept>('srt-facts-2', isKept);

/** The facts of the SubRip transcript at `path` when the file is as they were learnt; `found`: its stat. */
export function knownSrt(path: string, found?: Stats): SrtFacts | undefined {
  const kept = facts.known(path, found);
  return kept && { digest: kept[0], count: kept[1], lastEnd: kept[2] ?? undefined };
}

/** Facts learnt by reading the file at `readAt` (Date.now() before the read), the file then as `found` says. */
export function learntSrt(path: string, found: Stats, readAt: number, learnt: SrtFacts): void {
  facts.learnt(path, found, readAt, [learnt.digest, learnt.count, learnt.lastEnd ?? null]);
}

/** Keeps the facts of the transcripts this thread has seen, when they differ from what was kept (FileFacts.keep). */
export function keepSrtFacts(): void {
  facts.keep();
}
