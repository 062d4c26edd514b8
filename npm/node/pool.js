// The worker_threads adapter of the call interface (../shared/calls.js), the Node side of the
// one scheduler (../shared/scheduler.js) that the page's Web Workers use too: a port over a
// worker thread, and `withThreads`, which starts engine workers (worker.js) as clients, hands
// them to a scheduler call and ends every one of them before settling, so no failure leaves a
// thread running (a live worker keeps the process from exiting). Copied by scripts/build-npm.sh.
import { Worker } from 'node:worker_threads';
import { client } from '../shared/calls.js';
import { argumentError } from '../shared/run.js';
import { wasmModule } from './wasm-module.js';

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

/** A port over `w`: a Worker (the caller's side), or the worker's parentPort. */
export function nodePort(w) {
  return {
    post: (message, transfer) => w.postMessage(message, transfer),
    listen(onMessage, onFail) {
      w.on('message', onMessage);
      if (!onFail) return; // (the worker's own side)
      w.on('error', onFail);
      w.on('messageerror', onFail);
      w.on('exit', code => onFail(new Error(`a worker thread exited (code ${code}) before its calls were done`)));
    },
    end: () => w.terminate(),
  };
}

/**
 * The process's Node flags for a worker, without `--input-type`: a worker started from a file
 * refuses it ("--input-type can only be used with string input via --eval"), so under
 * `node --input-type=module -e '…'` every worker failed to start and each spread call fell back
 * to one thread or failed.
 */
function workerExecArgv() {
  const out = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--input-type') i++;
    else if (!argv[i].startsWith('--input-type=')) out.push(argv[i]);
  }
  return out;
}

/**
 * `use(workers)` with `n` engine workers (clients of worker.js); every thread is ended before the
 * answer (or the failure) is passed on.
 * @template T
 * @param {number} n
 * @param {(workers: object[]) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withThreads(n, use) {
  const threads = [];
  try {
    const workers = Array.from({ length: n }, () => {
      // the compiled engine goes with it: the worker shares its code (./wasm-module.js)
      const w = new Worker(new URL('./worker.js', import.meta.url), {
        workerData: { rowkeyLabWasm: wasmModule },
        execArgv: workerExecArgv(),
      });
      threads.push(w);
      return client(nodePort(w));
    });
    return await use(workers);
  } finally {
    await Promise.allSettled(threads.map(w => w.terminate()));
  }
}
