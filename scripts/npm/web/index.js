// Browser and bundler entry (pkg/web/index.js): the engine (call `await init()` first, the
// default export) and the presets, a module of their own that bundles drop when nothing imports
// them. Copied beside wasm-bindgen's glue by scripts/build-npm.sh.
export { getPreset, listPresets } from './presets.js';
export * from './rowkey_lab.js';
export { default } from './rowkey_lab.js';
