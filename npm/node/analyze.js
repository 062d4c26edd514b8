// analysisSessionParallel / analyzeDesignParallel (pkg/node/analyze.js): a design's generated
// workload counted on worker threads, one engine per worker. The engine cuts the workload into
// blocks (AnalysisSession#blocks); the scheduler the page uses too (../shared/scheduler.js
// spreadBlocks) starts each worker on an even run of them (blockRanges) and lets a worker that
// ends take half of the unbegun blocks of another (cedeHalf); each hands back its partial counts
// (AnalysisSession.forBlocks, partial), which the engine adds up (combineAnalyses) into the
// session one thread counting every block would have: the same report, byte for byte, whatever
// the number of workers. The workers are pool.js's: a failure (a throwing onProgress too)
// rejects after every worker has ended. Copied beside the Node glue by scripts/build-npm.sh.
import { availableParallelism } from 'node:os';
import { checkRun, finished, stepped } from '../shared/run.js';
import { spreadBlocks } from '../shared/scheduler.js';
import { checkCloneable, withThreads } from './pool.js';
import { AnalysisSession, blockRanges, combineAnalyses } from './rowkey_lab.js';

/**
 * A finished AnalysisSession of `doc`'s generated workload (`finish()`, `check()`; free it).
 * @param {object | string} doc the design document
 * @param {object} [options] AnalyzeOptions
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number}) => void}} [run]
 */
export async function analysisSessionParallel(doc, options, run) {
  const { threads, onProgress } = checkRun('analysisSessionParallel', run);
  // on one thread as on many: what a worker could not be sent is refused whatever the core count
  checkCloneable('analysisSessionParallel', { doc, options });
  const whole = new AnalysisSession(doc, options);
  const blocks = whole.blocks();
  const total = whole.progress().total;
  const workers = Math.min(threads ?? availableParallelism(), blocks);
  if (workers <= 1) return stepped(whole, onProgress);
  whole.free();
  const parts = await withThreads(workers, threads =>
    spreadBlocks({
      workers: threads,
      ranges: blockRanges(blocks, workers),
      args: { doc, options },
      records: total,
      onProgress,
    }),
  );
  return combineAnalyses(doc, options, parts);
}

/**
 * analyzeDesign on worker threads: the same report.
 * @param {object | string} doc the design document
 * @param {object} [options] AnalyzeOptions
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number}) => void}} [run]
 */
export async function analyzeDesignParallel(doc, options, run) {
  return finished(await analysisSessionParallel(doc, options, run));
}
