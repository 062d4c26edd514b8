// The page's runs (an analysis, a comparison): one engine worker (worker.js) through the call
// interface, one run at a time, each numbered; what a run sends back is passed to the page's
// hooks only while it is the current run. The whole story of a run is here:
// - start: a run under way is dropped with its worker (it would finish a stale run first);
//   the call goes to the worker on hand.
// - cancel: the run's number moves on (nothing it still sends is shown) and its worker is ended,
//   and with it every counting worker it spread the run over; a new worker takes its place,
//   on the speed build warming its counting workers up on the design on show.
// - finish: the answer, or the engine's error, goes to the hooks; after an analysis the linter's
//   findings on its design are asked for (a call of its own, after the report).
// - the engine: boot.js's first worker shares the page's download of the size build, unless the
//   link's design is large (then it starts on the speed build, its counting workers beside it:
//   the first run is the one a user waits for); after the
//   first result, runs go to a worker on the speed build (useFastEngine), started once the
//   worker on hand is idle.
import { engineWorker } from './web-workers.js';

let engine = null,
  engineHash = '',
  onHand = '', // the engine the worker on hand was started on
  current = 0, // the current run's number
  running = 0; // the number of the run whose answer is still to come (0: none)
let hooks = {
  event() {},
  result() {},
  failed() {},
  lint() {},
  warmArgs: () => null,
  rowsOpen: () => false,
};

/** The page's hooks, called for the current run: `event(event, data)` (progress, preview,
 * layout), `result(id, name, result)`, `failed(error, name)`, `lint(findings)`, `warmArgs()` (the design on show, to
 * warm the counting workers up on, or null) and `rowsOpen()` (whether a file of rows is open). */
export function wireRuns(h) {
  hooks = { ...hooks, ...h };
}

/** The current run's number (a run's hooks are called only while it is current). */
export const currentRun = () => current;
/** Whether a run's answer is still to come. */
export const runUnderWay = () => running !== 0;

/** A new engine worker in place of the one on hand; unless a run follows at once (`warm`
 * false), one on the speed build warms its counting workers up on the design on show. */
function newWorker(warm) {
  engine?.end();
  engine = engineWorker(engineHash);
  onHand = engineHash;
  const args = warm && engineHash ? hooks.warmArgs() : null;
  if (args) engine.call('warm', args).catch(() => {});
  if (warm && hooks.rowsOpen()) warmRows();
}

/** While a file of rows is open (and no run is under way): the worker on hand loads the rows
 * build and starts the readers it shares a file's reading with (rows-calls.js warmRows), so the
 * run over the rows waits for neither. */
export function warmRows() {
  if (engine && !running) engine.call('warmRows').catch(() => {});
}
/** A worker on another engine than runs go to is replaced once it is idle. */
function moveWhenIdle() {
  if (onHand !== engineHash && !running && !engine.busy()) newWorker(true);
}
/** From now on runs go to a worker on the speed build. */
export function useFastEngine() {
  engineHash = '#engine=fast';
  moveWhenIdle();
}

/** Follows run `id`'s `answer` (a call of `name` on `on`) to its end. */
function follow(id, name, on, answer) {
  const mine = () => id === current;
  answer
    .then(
      r => mine() && hooks.result(id, name, r),
      e => mine() && e?.name !== 'AbortError' && hooks.failed(e, name),
    )
    .finally(() => {
      if (running === id) running = 0;
      if (name !== 'analyze' || !mine()) return moveWhenIdle();
      on.call('lint')
        .then(
          f => mine() && hooks.lint(f),
          () => {},
        )
        .finally(moveWhenIdle);
    });
}

/** Starts engine call `name` with `args` as the current run; returns its number. */
export function startRun(name, args) {
  if (!engine || running) newWorker(false);
  const id = ++current;
  running = id;
  const on = engine;
  follow(id, name, on, on.call(name, args, { on: (event, data) => id === current && hooks.event(event, data) }));
  return id;
}

/** The run under way is cancelled (see above). */
export function cancelRun() {
  current++;
  running = 0;
  newWorker(true);
}

/** boot.js's first run (adoptFirstRun) taken over as the current run; its events so far first. */
export function adoptRun(first) {
  engine = first.engine;
  onHand = first.onHand ?? '';
  const id = ++current;
  running = id;
  first.events.on = (event, data) => id === current && hooks.event(event, data);
  for (const [event, data] of first.early) hooks.event(event, data);
  follow(id, 'analyze', engine, first.answer);
  return id;
}

/** boot.js's first run not wanted: its worker ended, a new one on hand. */
export function dropFirstRun(first) {
  first?.engine.end();
  newWorker(false);
}
