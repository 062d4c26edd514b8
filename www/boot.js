// The first script of the page. It starts the analysis worker at once, with the first run in the
// worker's URL (the page's hash: the design, or the default preset), so the worker begins
// analyzing as soon as it has started, without waiting for a message from this thread or for
// the rest of the page's modules. app.js adopts that run when it wants the same design (see
// `adoptFirstRun`), and otherwise starts its own.
import { firstRequest } from './url-state.js';

performance.mark('rowkey-lab:boot');

/** A worker for analyses; `hash` (`#first=1&…`) asks it for a first run (see worker.js). */
export function startWorker(hash = '') {
  return new Worker(new URL(`./worker.js${hash}`, import.meta.url), { type: 'module' });
}

// Messages that arrive before app.js has taken the worker over are kept for it.
const early = [];
const worker = startWorker(`#first=1&${location.hash.replace(/^#/, '')}`);
worker.onmessage = ({ data }) => early.push(data);
const request = { id: 1, kind: 'analyze', preview: true, previewAfterMs: 600, ...firstRequest() };

let taken = false;
/** The first run, once: `{ worker, request, early }` (its messages so far), or null. */
export function adoptFirstRun() {
  if (taken) return null;
  taken = true;
  return { worker, request, early };
}
