// A worker of analysisSessionParallel (analyze.js, through pool.js): counts each run of blocks it
// is handed with its own engine, reporting the records counted, then hands back the partial
// counts (their buffer transferred, not copied).
import { AnalysisSession } from './index.js';
import { serveTasks } from './pool.js';

serveTasks(({ doc, options, first, end }, progress) => {
  const s = AnalysisSession.forBlocks(doc, options, first, end);
  try {
    for (;;) {
      const p = s.step(1 << 16);
      progress(p.done);
      if (p.finished) break;
    }
    const partial = s.partial();
    return { result: partial, transfer: [partial.buffer] };
  } finally {
    s.free();
  }
});
