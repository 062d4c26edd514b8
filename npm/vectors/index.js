// `import { runVector } from 'rowkey-lab/vectors'` (pkg/vectors/index.js): the golden-vector
// runner in its own wasm (test-only; the main entry does not have it), Node-only, initialised at
// import time like pkg/node/.
import { readFileSync } from 'node:fs';
import { initSync } from './rowkey_lab.js';

initSync({ module: readFileSync(new URL('./rowkey_lab_bg.wasm', import.meta.url)) });

export { runVector } from './rowkey_lab.js';
