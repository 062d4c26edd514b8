// Node ESM entry (pkg/node/index.js): loads the wasm from disk and initialises it at import time,
// so `import { md5Hex } from 'rowkey-lab'` works without `await init()`. The wasm beside it is
// the speed build (see scripts/build-npm.sh), with the same API as pkg/web/.
import { readFileSync } from 'node:fs';
import { guardObjects } from '../shared/objects.js';
import { analyzeRows as analyzeRowsWith } from '../shared/rows.js';
import * as glue from './rowkey_lab.js';

glue.initSync({ module: readFileSync(new URL('./rowkey_lab_bg.wasm', import.meta.url)) });
// free() and [Symbol.dispose]() may be called again; a method on a freed object or on anything
// but an object of its class throws a TypeError before reaching wasm (../shared/objects.js).
guardObjects(glue);

export { adviseDesignParallel } from './advise.js';
export { analysisSessionParallel, analyzeDesignParallel } from './analyze.js';
/** Your own rows (CSV, JSON Lines, Parquet, Arrow IPC) analyzed with `doc`: ../shared/rows.js. */
export function analyzeRows(doc, source, opts) {
  return analyzeRowsWith(glue, doc, source, opts);
}

export { getPreset, listPresets } from './presets.js';
export * from './rowkey_lab.js';
export { default } from './rowkey_lab.js';
