// The page's sets of engine workers, one helper with its caps in one table: the counting
// workers a large run is spread over (spread.js), the readers sharing a file of rows
// (rows-calls.js) and the advisor's evaluators (advise-run.js). Each set is as large as the
// browser's cores, at most its cap (each worker holds its own copy of the engine and its memory).
import { client } from './calls.js';
import { webPort } from './web-workers.js';

/** At most this many workers in a set of each kind. */
export const WORKER_CAPS = Object.freeze({
  /** counting a spread run's blocks: the caller is counter 0 */
  counters: 8,
  /** reading a file's chunks: the caller is reader 0 */
  readers: 8,
  /** evaluating the advisor's candidates (each a whole analysis: memory, not cores, bounds it) */
  advisors: 4,
});

/** How many workers a set of `kind` has on this browser: its cores, at most the kind's cap (one
 * where no Worker can be started). */
export function setSize(kind) {
  const cores = typeof Worker === 'function' ? navigator.hardwareConcurrency || 1 : 1;
  return Math.max(1, Math.min(cores, WORKER_CAPS[kind]));
}

/** A set of `kind`: worker `i`'s client from `at(i)`, started by `start()` (a Worker) on first
 * use and kept; `first`, when given, is worker 0 (the caller itself, over a channel of its own).
 * `end()` ends every worker the set started. */
export function workerSet(kind, start, first = null) {
  const clients = first ? [first] : [];
  return {
    size: setSize(kind),
    at(i) {
      clients[i] ??= client(webPort(start()));
      return clients[i];
    },
    end() {
      for (const [i, c] of clients.entries()) if (!(first && i === 0)) c.end();
      clients.length = first ? 1 : 0;
    },
  };
}
