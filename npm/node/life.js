// lifeMonthsAsync (pkg/node/life.js): lifeMonths — or lifeCompare, with `otherOptions` — on a
// worker thread, so that a run stops when asked. A month runs in the engine to its end (at the
// 50,000-region cap one takes 25–100 s) and checks no flag inside it: `signal` ends the worker,
// and the call rejects with an AbortError at once, mid-month. The answer is lifeMonths's (or
// lifeCompare's), byte for byte. Copied beside the Node glue by scripts/build-npm.sh.
import { aborted } from '../shared/calls.js';
import { checkLifeRun } from '../shared/run.js';
import { checkCloneable, withThreads } from './pool.js';

/**
 * @param {object | string} doc the design document
 * @param {object | null} [options] LifeOptions
 * @param {{otherOptions?: object | null, onMonth?: (done: number, total: number) => void, signal?: AbortSignal}} [run]
 */
export async function lifeMonthsAsync(doc, options, run) {
  const { otherOptions, onMonth, signal } = checkLifeRun('lifeMonthsAsync', run);
  const args = otherOptions === undefined ? { doc, options } : { doc, options, otherOptions };
  // what a worker could not be sent is refused before it starts
  checkCloneable('lifeMonthsAsync', args);
  if (signal?.aborted) throw aborted(signal);
  return withThreads(1, async ([worker]) => {
    // what onMonth throws stops the run, as it does lifeMonths's (the worker ended, the call
    // rejecting with it), never an uncaught error in the worker's message handler
    const on = (event, d) => {
      if (event !== 'progress' || !onMonth) return;
      try {
        onMonth(d.done, d.total);
      } catch (e) {
        worker.end(e);
      }
    };
    return worker.call('lifeMonths', args, { on, signal });
  });
}
