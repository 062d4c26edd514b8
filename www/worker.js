// Heavy runs off the main thread: an AnalysisSession stepped in chunks, posting progress.
// Cancel = the page terminates this worker and starts a new one (nothing to clean up).
import init, { AnalysisSession, compareDesigns, planReads } from './pkg/rowkey_lab.js';

const ready = init();
const CHUNK = 5000;

function post(msg, cells = []) {
  self.postMessage(msg, cells.map(c => c.buffer));
}

function errorOf(e) {
  return { message: String(e?.message ?? e), line: e?.line ?? null, column: e?.column ?? null, path: e?.path ?? null };
}

self.onmessage = async ({ data }) => {
  await ready;
  const { id, kind } = data;
  try {
    if (kind === 'analyze') {
      const s = new AnalysisSession(data.doc, data.options);
      let p = s.progress();
      let last = 0;
      while (!p.finished) {
        p = s.step(CHUNK);
        const now = performance.now();
        if (now - last > 50) { post({ id, kind: 'progress', done: p.done, total: p.total }); last = now; }
      }
      const report = s.finish();
      s.free();
      let reads = [];
      let readsError = null;
      try { reads = planReads(data.doc); } catch (e) { readsError = errorOf(e); }
      post({ id, kind: 'report', report, reads, readsError }, [report.matrix.cells, report.grid.cells]);
    } else if (kind === 'compare') {
      const c = compareDesigns(data.docs, data.options);
      post({ id, kind: 'comparison', comparison: c }, c.designs.map(d => d.grid.cells));
    }
  } catch (e) {
    post({ id, kind: 'error', error: errorOf(e) });
  }
};
