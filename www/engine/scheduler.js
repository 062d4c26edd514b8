// The one scheduler that spreads the engine's work over workers, for the page and for Node (the
// npm package carries this file as pkg/shared/scheduler.js). It knows no Worker API: it talks to
// clients of the call interface (calls.js), which the adapters make from Web Workers
// (web-workers.js) or worker_threads (the npm package's pool.js).
//
// Two shapes of work:
// - spreadBlocks: a workload cut into blocks (the engine's unit), counted by workers that each
//   start on an even run of blocks (the engine's blockRanges); a worker that ends while another
//   still has blocks it has not begun asks it for the second half of them (the engine's
//   cedeHalf), so a run lasts as long as the average share rather than the slowest. The engine
//   adds the partial counts up into the report one worker would give: the result is the same
//   for any number of workers.
// - spreadTasks: a list of tasks (the advisor's candidates), each worker taking the next one
//   when it is free; the results come back in task order, whatever the number of workers.
//
// Both settle once, after every call they made has settled: a failure is the first one in work
// order (the one a single worker doing everything in order would have met); an abort of
// `signal` rejects at once (the calls were given the signal: their workers end).

/**
 * Blocks spread over `workers` (clients). Each worker is asked `countBlocks({ ...args, first,
 * end })` (events `progress` `{ done, total }`; result `{ partial, done }`) and `cede()` (result
 * `[first, end]` or null). Resolves to the partial counts, in block order.
 * @param {{ workers: object[], ranges: number[][], args: object, records: number,
 *   onProgress?: (p: { done: number, total: number }) => void,
 *   onPreview?: (p: { report: object, done: number }) => void, signal?: AbortSignal }} run
 * `onPreview` gets the `preview` events a worker sends (count.js: with `args.preview`, the run
 * that begins at block 0 sends its report so far).
 */
export function spreadBlocks({ workers, ranges, args, records, onProgress, onPreview, signal }) {
  return new Promise((resolve, reject) => {
    const n = workers.length;
    const parts = [];
    const failures = [];
    // per worker: records of its finished runs, and the run it counts now ({ first, done, total })
    const base = new Array(n).fill(0);
    const now = new Array(n).fill(null);
    let asking = 0,
      over = false;
    const finish = (fn, v) => {
      if (over) return;
      over = true;
      signal?.removeEventListener('abort', abort);
      fn(v);
    };
    const abort = () => finish(reject, signal.reason ?? new Error('cancelled'));
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    const progress = () => {
      const done = base.reduce((a, b, j) => a + b + (now[j]?.done ?? 0), 0);
      onProgress?.({ done, total: records });
    };
    const remaining = i => (now[i] ? now[i].total - now[i].done : 0);
    const settle = () => {
      if (asking > 0 || now.some(Boolean)) return;
      if (failures.length) {
        failures.sort((a, b) => a.first - b.first);
        return finish(reject, failures[0].error);
      }
      parts.sort((a, b) => a.first - b.first);
      finish(
        resolve,
        parts.map(p => p.partial),
      );
    };
    const assign = (i, [first, end]) => {
      now[i] = { first, done: 0, total: Infinity };
      const on = (event, data) => {
        if (event === 'preview' && !over) return guard(() => onPreview?.(data));
        if (event !== 'progress' || !now[i]) return;
        Object.assign(now[i], data);
        guard(progress);
      };
      workers[i].call('countBlocks', { ...args, first, end }, { on, signal }).then(
        ({ partial, done }) => {
          parts.push({ first, partial });
          base[i] += done;
          now[i] = null;
          guard(progress);
          takeWork(i);
        },
        error => {
          failures.push({ first, error });
          now[i] = null;
          takeWork(i);
        },
      );
    };
    // A throw of the caller's onProgress fails the run, as a failing worker does.
    const guard = fn => {
      try {
        fn();
      } catch (e) {
        failures.push({ first: -1, error: e });
      }
    };
    /** Worker `i` is free: it asks the busiest others, most records left first, for half of
     * their unbegun blocks until one hands some over. */
    const takeWork = (i, asked = new Set()) => {
      if (over) return;
      if (failures.length) return settle();
      const victim = now
        .map((_, j) => j)
        .filter(j => j !== i && now[j] && !asked.has(j))
        .sort((a, b) => remaining(b) - remaining(a))[0];
      if (victim === undefined) return settle();
      asked.add(victim);
      asking++;
      workers[victim].call('cede', {}, { signal }).then(
        blocks => {
          asking--;
          if (blocks && !failures.length) assign(i, blocks);
          else takeWork(i, asked);
        },
        () => {
          asking--;
          takeWork(i, asked);
        },
      );
    };
    if (!ranges.length) return settle();
    for (const [i, r] of ranges.entries()) assign(i, r);
  });
}

/**
 * `tasks` spread over `workers` (clients): worker by worker, `call(worker, task, index)` (a
 * promise) for the next task not yet begun. Resolves to the results in task order; `onResult(i,
 * result)` is told of each as it comes (a throw fails the run).
 * @param {{ workers: object[], tasks: unknown[], call: (w: object, task: unknown, i: number) =>
 *   Promise<unknown>, onResult?: (i: number, r: unknown) => void, signal?: AbortSignal }} run
 */
export async function spreadTasks({ workers, tasks, call, onResult, signal }) {
  const results = new Array(tasks.length);
  let next = 0,
    failure = null;
  const work = async w => {
    while (next < tasks.length && !failure && !signal?.aborted) {
      const i = next++;
      try {
        results[i] = await call(w, tasks[i], i);
        onResult?.(i, results[i]);
      } catch (error) {
        if (!failure || i < failure.i) failure = { i, error };
      }
    }
  };
  await Promise.all(workers.map(work));
  if (signal?.aborted) throw signal.reason ?? new Error('cancelled');
  if (failure) throw failure.error;
  return results;
}
