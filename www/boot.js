// The first script of the page. It starts the analysis worker at once, with the first run in the
// worker's URL (the page's hash: the design, or the default preset), so the worker begins
// analyzing as soon as it has started (as call 1), without waiting for a message from this
// thread or for the rest of the page's modules. app.js adopts that run when it wants the same
// design (see `adoptFirstRun`), and otherwise starts its own.

import { firstRequest } from './engine/url-state.js';
import { engineWorker } from './engine/web-workers.js';

performance.mark('rowkey-lab:boot');

const request = { preview: true, previewAfterMs: 600, ...firstRequest() };
// A design of more than two of the engine's blocks (65,536 records each) is run at once on the
// speed build, spread over counting workers (one per core) that start beside it: the first run
// is the one a user waits for. A smaller one runs on the size build, whose download the page's
// thread shares: it is done before the speed build would have loaded. A design with Phoenix
// indexes runs on the speed build too: the size build leaves the index tables out.
const fast = (request.doc?.workload?.records ?? 0) > 2 * 65536 || (request.doc?.phoenix?.indexes?.length ?? 0) > 0;
const onHand = fast ? '#engine=fast' : '';
const engine = engineWorker(`#${fast ? 'engine=fast&' : ''}first=1&${location.hash.replace(/^#/, '')}`);
// The run's events that arrive before app.js has taken it over are kept for it.
const early = [];
const events = { on: (event, data) => early.push([event, data]) };
const answer = engine.adopt(1, events);
answer.catch(() => {}); // (app.js takes the answer, or ends the worker)

let taken = false;
/** The first run, once: `{ engine, onHand, request, answer, early, events }` (`onHand`: the
 * engine its worker runs, as runs.js names it; set `events.on` to take its events from now on;
 * `early` holds those so far), or null. */
export function adoptFirstRun() {
  if (taken) return null;
  taken = true;
  return { engine, onHand, request, answer, early, events };
}
