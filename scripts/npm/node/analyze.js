// analysisSessionParallel / analyzeDesignParallel (pkg/node/analyze.js): a design's generated
// workload counted on worker threads, one engine per worker. The engine cuts the workload into
// blocks (AnalysisSession#blocks) and runs of blocks (blockRanges); each worker counts one run
// (AnalysisSession.forBlocks) and hands back its partial counts, which the engine adds up
// (combineAnalyses) into the session one thread counting every block would have: the same
// report, byte for byte, whatever the number of workers. Copied beside the Node glue by
// scripts/build-npm.sh.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AnalysisSession, blockRanges, combineAnalyses } from './rowkey_lab.js';

/**
 * A finished AnalysisSession of `doc`'s generated workload (`finish()`, `check()`; free it).
 * @param {object | string} doc the design document
 * @param {object} [options] AnalyzeOptions
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number}) => void}} [run]
 */
export async function analysisSessionParallel(doc, options, run = {}) {
  const whole = new AnalysisSession(doc, options);
  const blocks = whole.blocks();
  const total = whole.progress().total;
  const threads = Math.max(1, Math.min(run.threads || availableParallelism(), blocks));
  if (threads === 1) {
    for (;;) {
      const p = whole.step(1 << 16);
      run.onProgress?.({ done: p.done, total: p.total });
      if (p.finished) return whole;
    }
  }
  whole.free();
  const ranges = blockRanges(blocks, threads);
  const done = ranges.map(() => 0);
  const workers = [];
  try {
    const parts = await Promise.all(
      ranges.map(
        ([first, end], i) =>
          new Promise((resolve, reject) => {
            const w = new Worker(new URL('./analyze-worker.js', import.meta.url), {
              workerData: { doc, options, first, end },
            });
            workers.push(w);
            w.on('message', m => {
              if (m.partial) resolve(m.partial);
              else if (m.error) reject(Object.assign(new Error(m.error.message), m.error));
              else {
                done[i] = m.done;
                run.onProgress?.({ done: done.reduce((a, b) => a + b, 0), total });
              }
            });
            w.on('error', reject);
          }),
      ),
    );
    return combineAnalyses(doc, options, parts);
  } finally {
    for (const w of workers) w.terminate();
  }
}

/**
 * analyzeDesign on worker threads: the same report.
 * @param {object | string} doc the design document
 * @param {object} [options] AnalyzeOptions
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number}) => void}} [run]
 */
export async function analyzeDesignParallel(doc, options, run = {}) {
  const s = await analysisSessionParallel(doc, options, run);
  try {
    return s.finish();
  } finally {
    s.free();
  }
}
