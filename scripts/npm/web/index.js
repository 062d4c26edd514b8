// Browser and bundler entry (pkg/web/index.js): the engine (call `await init()` first, the
// default export) and the presets, a module of their own that bundles drop when nothing imports
// them. A second free() is harmless and a freed object's method throws an illegalState error
// (../shared/objects.js). Copied beside wasm-bindgen's glue by scripts/build-npm.sh.
import { guardObjects } from '../shared/objects.js';
import * as glue from './rowkey_lab.js';

guardObjects(glue);

export { getPreset, listPresets } from './presets.js';
export * from './rowkey_lab.js';
export { default } from './rowkey_lab.js';
