// adviseDesignParallel (pkg/node/advise.js): the design advisor with its candidates evaluated on
// worker threads, one engine per worker. The engine makes the candidates (adviseCandidates),
// each worker evaluates the ones it is handed (evaluateCandidate), and the engine answers from
// the evaluations in candidate order (adviseFrom): the same answer as adviseDesign, whatever the
// number of workers. The candidates are spread by the scheduler the page uses too
// (../shared/scheduler.js spreadTasks); the workers are pool.js's: a failure (a throwing onProgress too) rejects
// after every worker has ended. Copied beside the Node glue by scripts/build-npm.sh.
import { availableParallelism } from 'node:os';
import { checkRun } from '../shared/run.js';
import { spreadTasks } from '../shared/scheduler.js';
import { checkCloneable, withThreads } from './pool.js';
import { adviseCandidates, adviseFrom } from './rowkey_lab.js';

/**
 * @param {object | string} doc the design document
 * @param {object} [options] AdviseOptions
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number, label: string}) => void}} [run]
 */
export async function adviseDesignParallel(doc, options, run) {
  const { threads, onProgress } = checkRun('adviseDesignParallel', run);
  checkCloneable('adviseDesignParallel', { options });
  const set = adviseCandidates(doc, options);
  const total = set.candidates.length;
  let done = 0;
  // an engine error evaluating one candidate is that candidate's answer ({error}), not a failure
  const n = Math.min(threads ?? availableParallelism(), total);
  const evaluations = await withThreads(n, workers =>
    spreadTasks({
      workers,
      tasks: set.candidates,
      call: (w, c) => w.call('evaluate', { design: c.design, options, target: set.targetRegions }),
      onResult(i) {
        done += 1;
        onProgress?.({ done, total, label: set.candidates[i].label });
      },
    }),
  );
  return adviseFrom(doc, options, evaluations);
}
