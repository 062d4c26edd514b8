// Browser and bundler entry (pkg/web/index.js): the engine (call `await init()` first, the
// default export) and the presets, a module of their own that bundles drop when nothing imports
// them. free() and [Symbol.dispose]() may be called again, and a method called on a freed object
// or on anything but an object of its class throws a TypeError before reaching wasm
// (../shared/objects.js). Copied beside wasm-bindgen's glue by scripts/build-npm.sh.

import { adviceCalls } from '../shared/advice-calls.js';
import { adviseSpread } from '../shared/advise-driver.js';
import { aborted } from '../shared/calls.js';
import { guardObjects } from '../shared/objects.js';
import { rekeyRows as rekeyRowsWith } from '../shared/rekey.js';
import { analyzeRows as analyzeRowsWith, rowsSample as rowsSampleWith } from '../shared/rows.js';
import { checkLifeRun, checkRun, finished, stepped } from '../shared/run.js';
import * as glue from './rowkey_lab.js';

guardObjects(glue);

/** Which engine answers: the wasm build, always in browsers (the Node entry may run the native one). */
export const engine = () => 'wasm';

/**
 * The browser has no worker pool here: adviseDesignParallel evaluates the candidates one after the
 * other on this thread, by the advisor's one driver (../shared/advise-driver.js: the same answer
 * as adviseDesign), reporting progress; the Node entry uses worker threads.
 */
export async function adviseDesignParallel(doc, options, run) {
  const { onProgress, rows } = checkRun('adviseDesignParallel', run);
  const calls = adviceCalls(() => glue);
  // one worker: this thread, calling the engine directly
  const here = { call: async (name, args) => calls[name](args) };
  return adviseSpread(calls, (_total, use) => use([here]), { doc, options, rows }, { onProgress });
}

/**
 * Nor for the analysis: analysisSessionParallel counts the workload here, stepping (the same
 * report as analyzeDesign), reporting progress; the Node entry uses worker threads.
 */
export async function analysisSessionParallel(doc, options, run) {
  const { onProgress } = checkRun('analysisSessionParallel', run);
  return stepped(new glue.AnalysisSession(doc, options), onProgress);
}

export async function analyzeDesignParallel(doc, options, run) {
  return finished(await analysisSessionParallel(doc, options, run));
}

/**
 * Nor for the months: lifeMonthsAsync runs lifeMonths (lifeCompare with `otherOptions`) on this
 * thread, the same answer; a `signal` already aborted refuses it, and what `onMonth` throws stops
 * it at a month's end (nothing on this thread can interrupt a month). The Node entry runs it on a
 * worker thread, which `signal` ends mid-month.
 */
export async function lifeMonthsAsync(doc, options, run) {
  const { otherOptions, onMonth, signal } = checkLifeRun('lifeMonthsAsync', run);
  if (signal?.aborted) throw aborted(signal);
  const on = (done, total) => onMonth?.(done, total);
  return otherOptions === undefined
    ? glue.lifeMonths(doc, options ?? null, on)
    : glue.lifeCompare(doc, options ?? null, otherOptions ?? null, on);
}

/** What a file of rows says of its columns, as `RekeyVerifier` takes each export: ../shared/rows.js. */
export function rowsSample(source, rows) {
  return rowsSampleWith(glue, source, rows);
}
/** Your own rows (CSV, JSON Lines, Parquet, Arrow IPC) analyzed with `doc`: ../shared/rows.js. */
export function analyzeRows(doc, source, opts) {
  return analyzeRowsWith(glue, doc, source, opts);
}

/** The browser has no worker pool here: analyzeRowsParallel reads the file in one pass (a path
 * is Node's alone), to the same report. */
export function analyzeRowsParallel(doc, source, opts = {}) {
  const { threads: _threads, ...rest } = opts ?? {};
  if (typeof source === 'string')
    return Promise.reject(
      Object.assign(new TypeError('analyzeRowsParallel: a path is read in Node; in a browser give a File or Blob'), {
        kind: 'illegalArgument',
        path: 'source',
      }),
    );
  return analyzeRowsWith(glue, doc, source, rest);
}

/** The rekey plan over your rows (`opts`: `rows`, `regions`, `by`, `options`; each design's
 * analysis read as analyzeRows reads it): ../shared/rekey.js. */
export function rekeyRows(oldDoc, newDoc, source, opts = {}) {
  const { rows, signal, threads: _threads, ...plan } = opts ?? {};
  return rekeyRowsWith(glue, oldDoc, newDoc, d => analyzeRows(d, source, { rows, signal }), plan);
}

export { getPreset, listPresets } from './presets.js';
export * from './rowkey_lab.js';
export { default } from './rowkey_lab.js';
