// The one pool of worker threads of the Node entry (analyze.js, advise.js), both sides of it.
// The pool hands tasks to up to `threads` workers of one script, one task at a time by message; a
// worker (serveTasks) answers each with progress messages ({i, progress}), then {i, result} or
// {i, error}. The pool settles once: with every result in task order, or with the first failure
// (an engine error, a worker that throws, dies or exits, a callback of the caller's that throws),
// and only after every worker it started has been terminated, so no failure leaves a thread
// running (a live worker keeps the process from exiting). Copied by scripts/build-npm.sh.
import { parentPort, Worker } from 'node:worker_threads';
import { argumentError } from '../shared/run.js';

/**
 * Refuses what a worker cannot be sent, before any worker starts: structured clone takes no
 * functions or symbols (the engine on the main thread would read a function as absent). A
 * TypeError naming the first such member, e.g. `options.onDone`.
 * @param {string} fn the function's name, for the message
 * @param {Record<string, unknown>} values what the workers will be sent, by argument name
 */
export function checkCloneable(fn, values) {
  for (const [name, value] of Object.entries(values)) {
    try {
      structuredClone(value);
    } catch (e) {
      const found = uncloneable(value, name, new Set());
      if (found) throw argumentError(fn, found.path, `is a ${found.type}: a worker thread can be sent plain data only`);
      throw argumentError(fn, name, `cannot be sent to a worker thread: ${e?.message ?? e}`);
    }
  }
}

/** The path and type of the first function or symbol in `v`, if any. */
function uncloneable(v, path, seen) {
  if (typeof v === 'function' || typeof v === 'symbol') return { path, type: typeof v };
  if (v === null || typeof v !== 'object' || seen.has(v)) return undefined;
  seen.add(v);
  try {
    for (const k of Object.keys(v)) {
      const found = uncloneable(v[k], Array.isArray(v) ? `${path}[${k}]` : `${path}.${k}`, seen);
      if (found) return found;
    }
  } catch {
    // a getter or a proxy that throws: the clone's own message says what went wrong
  }
  return undefined;
}

/**
 * Runs `tasks` on up to `threads` workers of the script at `url`.
 * @param {URL} url a script that calls serveTasks
 * @param {unknown[]} tasks plain data, one message each
 * @param {number} threads at most this many workers
 * @param {{progress?: (i: number, value: unknown) => void, result?: (i: number, value: unknown) => void}} [on]
 *   called on the main thread for each message; a throw fails the pool with that error
 * @returns {Promise<unknown[]>} the results, in task order
 */
export function runPool(url, tasks, threads, on = {}) {
  return new Promise((resolve, reject) => {
    const workers = [];
    const results = new Array(tasks.length);
    let next = 0;
    let left = tasks.length;
    let settled = false;
    const settle = (end, value) => {
      if (settled) return;
      settled = true;
      Promise.allSettled(workers.map(w => w.terminate())).then(() => end(value));
    };
    const fail = e => settle(reject, e);
    // a worker with no task left is ended at once (its 'exit' then is no failure)
    const idle = new Set();
    const feed = w => {
      if (next < tasks.length) {
        const i = next++;
        w.postMessage({ i, task: tasks[i] });
      } else {
        idle.add(w);
        w.terminate();
      }
    };
    const onMessage = (w, m) => {
      if (settled) return;
      if (m.error) throw Object.assign(new Error(m.error.message), m.error);
      if (!('result' in m)) return on.progress?.(m.i, m.progress);
      results[m.i] = m.result;
      on.result?.(m.i, m.result);
      left -= 1;
      if (left === 0) settle(resolve, results);
      else feed(w);
    };
    if (left === 0) return settle(resolve, results);
    try {
      for (let n = 0; n < Math.min(threads, tasks.length); n++) {
        const w = new Worker(url);
        workers.push(w);
        w.on('message', m => {
          try {
            onMessage(w, m);
          } catch (e) {
            fail(e);
          }
        });
        w.on('error', fail);
        w.on('messageerror', fail);
        w.on('exit', code => {
          if (!idle.has(w)) fail(new Error(`a worker thread exited (code ${code}) before its tasks were done`));
        });
        feed(w);
      }
    } catch (e) {
      fail(e);
    }
  });
}

/**
 * The worker's side: answers each task with `work(task, progress)`'s `{result, transfer}`, or
 * with the error it throws (its message and the engine's fields: kind, reason, path, ...).
 * @param {(task: any, progress: (value: unknown) => void) => {result: unknown, transfer?: Transferable[]}} work
 */
export function serveTasks(work) {
  parentPort.on('message', ({ i, task }) => {
    try {
      const { result, transfer } = work(task, progress => parentPort.postMessage({ i, progress }));
      parentPort.postMessage({ i, result }, transfer);
    } catch (e) {
      const { kind, reason, path, offset, line, column } = e ?? {};
      const fields = Object.entries({ kind, reason, path, offset, line, column }).filter(([, v]) => v !== undefined);
      parentPort.postMessage({ i, error: { message: String(e?.message ?? e), ...Object.fromEntries(fields) } });
    }
  });
}
