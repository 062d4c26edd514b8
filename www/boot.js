// The first script of the page. It starts the analysis worker at once, with the first run in the
// worker's URL (the page's hash: the design, or the default preset), so the worker begins
// analyzing as soon as it has started (as call 1), without waiting for a message from this
// thread or for the rest of the page's modules. app.js adopts that run when it wants the same
// design (see `adoptFirstRun`), and otherwise starts its own.
import { engineWorker } from './engine/web-workers.js';
import { firstRequest } from './state/url-state.js';

performance.mark('rowkey-lab:boot');

const engine = engineWorker(`#first=1&${location.hash.replace(/^#/, '')}`);
const request = { preview: true, previewAfterMs: 600, ...firstRequest() };
// The run's events that arrive before app.js has taken it over are kept for it.
const early = [];
const events = { on: (event, data) => early.push([event, data]) };
const answer = engine.adopt(1, events);
answer.catch(() => {}); // (app.js takes the answer, or ends the worker)

let taken = false;
/** The first run, once: `{ engine, request, answer, early, events }` (set `events.on` to take
 * its events from now on; `early` holds those so far), or null. */
export function adoptFirstRun() {
  if (taken) return null;
  taken = true;
  return { engine, request, answer, early, events };
}
