/** Worker thread of semantic-thread.ts: the semantic artifact from the analysis it is given. */
import { parentPort, workerData } from 'node:worker_threads';
import { semanticFromAnalysis } from './semantic.ts';
import type { SemanticWorkerData, SemanticWorkerReport } from './semantic-thread.ts';

const { language, episodeTexts, terms, ids, offsets } = workerData as SemanticWorkerData;
const passages = Array.from({ length: offsets.length - 1 }, (_, i) => ids.subarray(offsets[i]!, offsets[i + 1]!));
let report: SemanticWorkerReport;
try {
  report = { data: await semanticFromAnalysis({ language, episodeTexts, analysed: { terms, passages } }) };
} catch (e) {
  report = { error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) };
}
parentPort!.postMessage(report);
