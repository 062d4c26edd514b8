// The engine's compiled module, once per process (pkg/node/wasm-module.js): the main thread
// compiles the wasm beside it, and every worker thread the package starts (pool.js) is handed
// that module in its workerData rather than compiling the file again. V8 shares a module's code
// between the threads it is sent to, the code its hot functions are optimised into included,
// so a worker starts at the speed the main thread has reached instead of from cold (measured
// on a Parquet row group: about 360 ms cold, 160–190 ms warm).
import { readFileSync } from 'node:fs';
import { workerData } from 'node:worker_threads';

const sent = workerData?.rowkeyLabWasm;
/** The compiled engine: the one this thread's starter sent, else compiled from the file. */
export const wasmModule =
  sent instanceof WebAssembly.Module
    ? sent
    : new WebAssembly.Module(readFileSync(new URL('./rowkey_lab_bg.wasm', import.meta.url)));
