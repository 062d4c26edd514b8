// A worker of analysisSessionParallel (analyze.js): counts its run of blocks with its own engine,
// posting its progress, then its partial counts (or the error, with its fields).
import { parentPort, workerData } from 'node:worker_threads';
import { AnalysisSession } from './index.js';

const { doc, options, first, end } = workerData;
try {
  const s = AnalysisSession.forBlocks(doc, options, first, end);
  for (;;) {
    const p = s.step(1 << 16);
    parentPort.postMessage({ done: p.done });
    if (p.finished) break;
  }
  const partial = s.partial();
  s.free();
  parentPort.postMessage({ partial }, [partial.buffer]);
} catch (e) {
  parentPort.postMessage({
    error: { message: String(e?.message ?? e), kind: e?.kind, reason: e?.reason, path: e?.path },
  });
}
