// adviseDesignParallel (pkg/node/advise.js): the design advisor with its candidates evaluated on
// worker threads, one engine per worker, by the advisor's one driver (../shared/advise-driver.js,
// the page's too): the same answer as adviseDesign, whatever the number of workers. The workers
// are pool.js's: a failure (a throwing onProgress too) rejects after every worker has ended.
// Copied beside the Node glue by scripts/build-npm.sh.
import { availableParallelism } from 'node:os';
import { adviceCalls } from '../shared/advice-calls.js';
import { adviseSpread } from '../shared/advise-driver.js';
import { checkRun } from '../shared/run.js';
import { checkCloneable, withThreads } from './pool.js';
import * as glue from './rowkey_lab.js';

/** A sample of the user's rows shared with the workers rather than copied for every candidate. */
function shared(rows) {
  const s = new Uint8Array(new SharedArrayBuffer(rows.length));
  s.set(rows);
  return s;
}

/**
 * @param {object | string} doc the design document
 * @param {object} [options] AdviseOptions
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number, label: string}) => void, rows?: Uint8Array}} [run]
 *   `rows`: a sample of the user's rows (RowsSession.rowSample()) the candidates are evaluated on
 */
export async function adviseDesignParallel(doc, options, run) {
  const { threads, onProgress, rows } = checkRun('adviseDesignParallel', run);
  checkCloneable('adviseDesignParallel', { options });
  const withWorkers = (total, use) => withThreads(Math.min(threads ?? availableParallelism(), total), use);
  return adviseSpread(
    adviceCalls(() => glue),
    withWorkers,
    { doc, options, rows },
    { share: shared, onProgress },
  );
}
