// adviseDesignParallel (pkg/node/advise.js): the design advisor with its candidates evaluated on
// worker threads, one engine per worker. The engine makes the candidates (adviseCandidates),
// each worker evaluates the ones it is handed (evaluateCandidate), and the engine answers from
// the evaluations in candidate order (adviseFrom): the same answer as adviseDesign, whatever the
// number of workers. Copied beside the Node glue by scripts/build-npm.sh.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { adviseCandidates, adviseFrom } from './rowkey_lab.js';

/**
 * @param {object | string} doc the design document
 * @param {object} [options] AdviseOptions
 * @param {{threads?: number, onProgress?: (p: {done: number, total: number, label: string}) => void}} [run]
 */
export async function adviseDesignParallel(doc, options, run = {}) {
  const set = adviseCandidates(doc, options);
  const total = set.candidates.length;
  const evaluations = new Array(total);
  const threads = Math.max(1, Math.min(run.threads || availableParallelism(), total));
  let next = 0;
  let done = 0;
  await new Promise((resolve, reject) => {
    let live = threads;
    const workers = [];
    // A worker that dies (not an engine error: those come back as {error}) stops the sweep.
    const fail = e => {
      for (const w of workers) w.terminate();
      reject(e);
    };
    for (let w = 0; w < threads; w++) {
      const worker = new Worker(new URL('./advise-worker.js', import.meta.url));
      workers.push(worker);
      const feed = () => {
        if (next < total) {
          const i = next++;
          worker.postMessage({ i, design: set.candidates[i].design, options, target: set.targetRegions });
          return;
        }
        worker.terminate();
        live -= 1;
        if (live === 0) resolve();
      };
      worker.on('message', m => {
        evaluations[m.i] = m.error === undefined ? m.metrics : { error: m.error };
        done += 1;
        run.onProgress?.({ done, total, label: set.candidates[m.i].label });
        feed();
      });
      worker.on('error', fail);
      feed();
    }
  });
  return adviseFrom(doc, options, evaluations);
}
