// The Web Worker adapter of the call interface (calls.js): a port over a Worker (or over the
// worker's own global scope), and the page's engine workers (worker.js) started as clients.
import { client } from './calls.js';

/** A port over `w`, a Worker (the caller's side) or a worker's global scope (`self`). */
export function webPort(w) {
  return {
    post: (message, transfer) => w.postMessage(message, transfer),
    listen(onMessage, onFail) {
      w.addEventListener('message', e => onMessage(e.data));
      if (!onFail) return; // (the worker's own side)
      // an error the worker did not catch: it loaded no module, or the engine trapped
      w.addEventListener('error', e => {
        e.preventDefault?.();
        onFail(new Error(e.message || 'the worker stopped'));
      });
    },
    end: () => w.terminate?.(),
  };
}

/** An engine worker (worker.js); `hash` sets it up (`#engine=fast`: the speed build; `#first=1&…`:
 * it analyzes the page's first design at once, as call 1). */
export function startWorker(hash = '') {
  return new Worker(new URL(`./worker.js${hash}`, import.meta.url), { type: 'module' });
}

/** A client of a new engine worker (see startWorker). */
export const engineWorker = (hash = '') => client(webPort(startWorker(hash)));
