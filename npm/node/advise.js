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
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number, label: string}) => void, rows?: Uint8Array}} [run]
 *   `rows`: a sample of the user's rows (RowsSession.rowSample()) the candidates are evaluated on
 */
export async function adviseDesignParallel(doc, options, run) {
  const { threads, onProgress, rows } = checkRun('adviseDesignParallel', run);
  checkCloneable('adviseDesignParallel', { options });
  const set = adviseCandidates(doc, options, rows);
  // a sample of the user's rows, shared with the workers rather than copied for every candidate
  let shared;
  if (rows) {
    shared = new Uint8Array(new SharedArrayBuffer(rows.length));
    shared.set(rows);
  }
  const total = set.candidates.length;
  let done = 0;
  // an engine error evaluating one candidate is that candidate's answer ({error}), not a failure
  const n = Math.min(threads ?? availableParallelism(), total);
  const evaluations = await withThreads(n, workers =>
    spreadTasks({
      workers,
      tasks: set.candidates,
      call: (w, c) => w.call('evaluate', { design: c.design, options, targetRegions: set.targetRegions, rows: shared }),
      onResult(i) {
        done += 1;
        onProgress?.({ done, total, label: set.candidates[i].label });
      },
    }),
  );
  return adviseFrom(doc, options, evaluations, rows);
}
