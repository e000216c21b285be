/** Worker thread of semantic-thread.ts: the semantic artifact from the analysis it is given. */
import { workerData } from 'node:worker_threads';
import { configureParseCache, parseCacheUsage } from '../../content/parse-cache.ts';
import { reportToParent } from '../thread-report.ts';
import { semanticFromAnalysis } from './semantic.ts';
import type { SemanticWorkerData, SemanticWorkerReport } from './semantic-thread.ts';

const { language, episodeTexts, terms, ids, offsets, parseCache } = workerData as SemanticWorkerData;
configureParseCache(parseCache);
const passages = Array.from({ length: offsets.length - 1 }, (_, i) => ids.subarray(offsets[i]!, offsets[i + 1]!));
await reportToParent(async (): Promise<SemanticWorkerReport> => ({
  data: await semanticFromAnalysis({ language, episodeTexts, analysed: { terms, passages } }),
  cache: parseCacheUsage(),
}));
