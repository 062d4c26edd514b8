// Node ESM entry (pkg/node/index.js): loads the wasm from disk and initialises it at import time,
// so `import { md5Hex } from 'rowkey-lab'` works without `await init()`. The wasm beside it is
// the speed build (see scripts/build-npm.sh), with the same API as pkg/web/. When the native
// engine loads (./engine.js: the platform's package, ROWKEY_LAB_ENGINE), the calls it answers
// (./native.js) are its, with the same names, arguments, answers and errors; the rest stay the
// wasm build's.
import { guardObjects } from '../shared/objects.js';
import { rekeyRows as rekeyRowsWith } from '../shared/rekey.js';
import { analyzeRows as analyzeRowsWith, rowsSample as rowsSampleWith } from '../shared/rows.js';
import { checkRowsOpts } from '../shared/run.js';
import { native } from './engine.js';
import { nativeCalls, nativeRows } from './native.js';
import * as glue from './rowkey_lab.js';
import { analyzeRowsParallel as analyzeRowsParallelWith } from './rows.js';
import { wasmModule } from './wasm-module.js';

glue.initSync({ module: wasmModule });
// free() and [Symbol.dispose]() may be called again; a method on a freed object or on anything
// but an object of its class throws a TypeError before reaching wasm (../shared/objects.js).
guardObjects(glue);
const fast = native ? nativeCalls(native) : null;

export { engine } from './engine.js';
// The calls the native engine answers when it runs: the same names, answers and errors.
/** A whole design document analyzed. */
export const analyzeDesign = fast ? fast.analyzeDesign : glue.analyzeDesign;
/** A design's workload analyzed and checked against budgets. */
export const checkDesign = fast ? fast.checkDesign : glue.checkDesign;
/** A design read, validated and written back with its defaults. */
export const validateDesign = fast ? fast.validateDesign : glue.validateDesign;
/** The lint findings over a design. */
export const lintDesign = fast ? fast.lintDesign : glue.lintDesign;

export { adviseDesignParallel } from './advise.js';
export { analysisSessionParallel, analyzeDesignParallel } from './analyze.js';
export { lifeMonthsAsync } from './life.js';
/** What a file of rows says of its columns, as `RekeyVerifier` takes each export: ../shared/rows.js. */
export function rowsSample(source, rows) {
  return rowsSampleWith(glue, source, rows);
}
/** Your own rows (CSV, JSON Lines, Parquet, Arrow IPC) analyzed with `doc`: ../shared/rows.js. */
export function analyzeRows(doc, source, opts) {
  return analyzeRowsWith(glue, doc, source, opts);
}
/** The same, the file's reading spread over worker threads (`opts.threads`): ./rows.js. */
export async function analyzeRowsParallel(doc, source, opts) {
  const o = checkRowsOpts('analyzeRowsParallel', opts);
  // a file's path: read by the native engine itself when it runs (no bytes through JS)
  if (fast && nativeRows(doc, source, o)) return fast.analyzeRowsFile(doc, source, o);
  return analyzeRowsParallelWith(glue, doc, source, o);
}

/** The rekey plan over your rows (`opts`: `rows`, `threads`, `regions`, `by`, `options`; each
 * design's analysis read as analyzeRowsParallel reads it): ../shared/rekey.js. */
export async function rekeyRows(oldDoc, newDoc, source, opts = {}) {
  const { rows, threads, signal, ...plan } = checkRowsOpts('rekeyRows', opts);
  return rekeyRowsWith(glue, oldDoc, newDoc, d => analyzeRowsParallel(d, source, { rows, threads, signal }), plan);
}

export { getPreset, listPresets } from './presets.js';
export * from './rowkey_lab.js';
export { default } from './rowkey_lab.js';
export { openRowsReader } from './rows.js';
