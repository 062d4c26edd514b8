// The advisor run from the page (views/advice-view.js draws it): the advisor's one driver
// (advise-driver.js, the npm package's too) over a set of workers on the speed build
// (worker-sets.js sizes the set): the engine makes the candidates, the workers evaluate them,
// the engine answers from the evaluations in candidate order, so the answer does not depend on
// the number of workers. Over the rows the page analyzed, the candidates are counted on
// a sample of them (the rows build reads it), not on the generated workload.
// Its lifecycle is the analysis's (runs.js), one advisor run at a time, each numbered:
// - start: a run under way is stopped first (its workers ended);
// - cancel: the run's number moves on (nothing it still sends is shown) and its workers end;
// - finish: the answer, or the engine's error, goes to the hooks only while it is the current run.
import { startWorker } from './web-workers.js';
import { workerSet } from './worker-sets.js';

let current = 0, // the current run's number
  stopping = null; // the AbortController of the run under way (null: none)

/** Starts the advisor on `args` ({ doc, options, rows }, see adviseRun) as the current run, a run
 * under way stopped first. While it is current: `status(text, fraction)` as it goes, then
 * `done({ advice, candidates, workers, seconds })` or `failed(error)`. Returns its number. */
export function startAdvice(args, { status = () => {}, done = () => {}, failed = () => {} }) {
  cancelAdvice();
  const id = ++current;
  const mine = () => id === current;
  stopping = new AbortController();
  adviseRun(args, { signal: stopping.signal, onStatus: (text, f) => mine() && status(text, f) }).then(
    r => {
      if (!mine()) return;
      stopping = null;
      done(r);
    },
    e => {
      if (!mine()) return;
      stopping = null;
      failed(e);
    },
  );
  return id;
}

/** The run under way, if any, is cancelled (see above). */
export function cancelAdvice() {
  current++;
  stopping?.abort();
  stopping = null;
}

/**
 * The advice on `doc` with `options` (AdviseOptions); `rows`: the page's run over a file of rows
 * (its args), or null. `signal` stops the run; `onStatus(text, fraction)` says how far it is.
 * Resolves `{ advice, candidates, workers, seconds }`; the run's workers end with it.
 */
async function adviseRun({ doc, options, rows }, { signal, onStatus = () => {} }) {
  const pool = workerSet('advisors', () => startWorker('#engine=fast'));
  const workers = Array.from({ length: pool.size }, (_, i) => pool.at(i));
  const first = workers[0];
  try {
    onStatus('Making the candidates…', 0);
    // (imported when the advisor first runs: no part of the page's first load)
    const { adviseSpread } = await import('./advise-driver.js');
    let sample;
    if (rows) {
      onStatus(`Sampling the rows of ${rows.file.name}…`, 0);
      const s = await first.call('rowsSample', { ...rows, records: options.records }, { signal });
      doc = s.design;
      sample = s.sample;
    }
    const engine = {
      adviseCandidates: args => first.call('adviseCandidates', args, { signal }),
      adviseFrom: args => first.call('adviseFrom', args, { signal }),
    };
    let total = 0,
      t0 = 0,
      t1 = 0;
    const advice = await adviseSpread(
      engine,
      (_total, use) => use(workers),
      { doc, options, rows: sample },
      {
        signal,
        onStart(n) {
          total = n;
          t0 = t1 = performance.now();
        },
        onProgress({ done }) {
          t1 = performance.now();
          onStatus(`${done} of ${total} candidates evaluated (${workers.length} workers)…`, done / total);
        },
      },
    );
    // the evaluations' time: from the first handed out to the last answered
    const seconds = (t1 - t0) / 1000;
    return { advice, candidates: total, workers: workers.length, seconds };
  } finally {
    pool.end();
  }
}
