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

/** One read off this thread (a design file, a table's region text) by an engine worker of its
 * own (`call` of worker.js, with `args`; `hash` `#engine=fast` for a call only the speed build
 * answers), so that a run under way neither waits for it nor is held up by it. Resolves to the
 * call's answer, rejects with the engine's error (an AbortError when cancel() ended it); `on(event,
 * data)` gets the call's events (progress). */
export function readOff(call, args, hash = '', on = undefined) {
  const stop = new AbortController();
  const engine = engineWorker(hash);
  const answer = engine.call(call, args, { signal: stop.signal, on }).finally(() => engine.end());
  return Object.assign(answer, { cancel: () => stop.abort() });
}
