// The advisor's driver, one for the page (engine/advise-run.js) and the npm package (pkg/shared/:
// adviseDesignParallel in Node and in browsers): the engine makes the candidates
// (adviseCandidates), the workers evaluate them spread by the scheduler (evaluateCandidate, an
// engine error on one its answer: advice-calls.js), and the engine answers from the evaluations
// in candidate order (adviseFrom), so the answer does not depend on the number of workers. Each
// shell only says where the engine is and how a worker is called.
/**
 * The advice on `doc` with `options` (AdviseOptions), over `rows` (a sample of the user's rows,
 * or none).
 * @param {{ adviseCandidates: Function, adviseFrom: Function }} engine the engine's calls on
 *   `{doc, options, rows}` and `{doc, options, evaluations, rows}` (advice-calls.js's, or a
 *   worker's), answering or resolving
 * @param {(total: number, use: (workers: object[]) => Promise<unknown>) => Promise<unknown>} withWorkers
 *   runs `use` with the workers for `total` candidates (clients, `call(name, args, opts)`, whose
 *   `evaluate` is advice-calls.js's) and resolves what it resolves
 * @param {{ signal?: AbortSignal, share?: (rows: Uint8Array) => Uint8Array,
 *   onStart?: (total: number) => void,
 *   onProgress?: (p: { done: number, total: number, label: string }) => void }} [run]
 *   `share`: the rows as the workers get them (Node: one shared copy rather than one per call)
 */
export async function adviseSpread(engine, withWorkers, { doc, options, rows }, run = {}) {
  const { signal, share, onStart, onProgress } = run;
  // (imported when the advisor first runs: no part of the page's first load)
  const { spreadTasks } = await import('./scheduler.js');
  const set = await engine.adviseCandidates({ doc, options, rows });
  const total = set.candidates.length;
  const theirs = rows && share ? share(rows) : rows;
  let done = 0;
  onStart?.(total);
  const evaluations = await withWorkers(total, workers =>
    spreadTasks({
      workers,
      tasks: set.candidates,
      signal,
      call: (w, c) =>
        w.call('evaluate', { design: c.design, options, targetRegions: set.targetRegions, rows: theirs }, { signal }),
      onResult(i) {
        done += 1;
        onProgress?.({ done, total, label: set.candidates[i].label });
      },
    }),
  );
  return engine.adviseFrom({ doc, options, evaluations, rows });
}
