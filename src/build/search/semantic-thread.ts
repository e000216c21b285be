/**
 * The semantic artifact (semantic.ts) made on a thread of its own from the show's analysis, while the thread that
 * asked for it writes the index it built from the same analysis (the bulk documents' search part,
 * src/build/bulk-documents.ts says when it starts it). One after the other they were ~11 s and ~6 s of that thread
 * in a rebuild at 1,000 episodes, while the other core had nothing left to do. The passages' term ids go over in one
 * SharedArrayBuffer: copied once, not cloned.
 */
import { Worker } from 'node:worker_threads';
import type { SemanticData } from '../../../contract/search/semantic.ts';
import { languageKey } from '../../../contract/search/language.ts';
import type { LoadedContent } from '../../content/load.ts';
import { analyseShow } from './analysis.ts';
import { episodeTexts } from './semantic.ts';
import { reportOf } from '../thread-report.ts';
import { addParseCacheUsage, parseCacheDir, type ParseCacheUsage } from '../../content/parse-cache.ts';

/** What semantic-worker.ts is given. */
export interface SemanticWorkerData {
  language: string;
  episodeTexts: string[];
  terms: string[];
  /** Every passage's term ids one after the other (over a SharedArrayBuffer); passage i is ids[offsets[i], offsets[i + 1]). */
  ids: Int32Array;
  offsets: Int32Array;
  /** The build's cache folder (parse-cache.ts), where WordNet's part of the artifact is kept between builds. */
  parseCache?: string;
}

/** What semantic-worker.ts reports: the artifact, and what it used of the cache (for pruneParseCache). */
export interface SemanticWorkerReport {
  data: SemanticData;
  cache: ParseCacheUsage;
}

export interface SemanticThread {
  /** The same artifact as semanticArtifact(content). */
  result: Promise<SemanticData>;
  /** Ends the thread whether or not it is done (a caller that gives up on the result). */
  stop(): Promise<void>;
}

/** Resolves once the thread is started: the analysis is ready then, for the caller's index as well (analyseShow). */
export async function semanticOnThread(content: Pick<LoadedContent, 'show' | 'episodes'>): Promise<SemanticThread> {
  const language = languageKey(content.show.language);
  const { terms, passages } = await analyseShow(content.episodes, language);
  const offsets = new Int32Array(passages.length + 1);
  passages.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const ids = new Int32Array(new SharedArrayBuffer(4 * offsets[passages.length]!));
  passages.forEach((p, i) => ids.set(p, offsets[i]));
  const workerData: SemanticWorkerData = { language, episodeTexts: episodeTexts(content.episodes), terms, ids, offsets, parseCache: parseCacheDir() };
  const worker = new Worker(new URL('./semantic-worker.ts', import.meta.url), { workerData });
  const result = reportOf<SemanticWorkerReport>(worker, 'semantic artifact').then((report) => {
    addParseCacheUsage(report.cache);
    return report.data;
  });
  // A caller that stops early may never await it.
  result.catch(() => {});
  return { result, stop: async () => void (await worker.terminate()) };
}
