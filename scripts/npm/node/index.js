// Node ESM entry (pkg/node/index.js): loads the wasm from disk and initialises it at import time,
// so `import { md5Hex } from 'rowkey-lab'` works without `await init()`. The wasm beside it is
// the speed build (see scripts/build-npm.sh), with the same API as pkg/web/.
import { readFileSync } from 'node:fs';
import { guardObjects } from '../shared/objects.js';
import * as glue from './rowkey_lab.js';

glue.initSync({ module: readFileSync(new URL('./rowkey_lab_bg.wasm', import.meta.url)) });
// A second free() is harmless; a freed object's method throws an illegalState error.
guardObjects(glue);

export { adviseDesignParallel } from './advise.js';
export { analysisSessionParallel, analyzeDesignParallel } from './analyze.js';
export { getPreset, listPresets } from './presets.js';
export * from './rowkey_lab.js';
export { default } from './rowkey_lab.js';
