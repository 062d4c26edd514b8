#!/usr/bin/env bash
# Builds the npm package's files into pkg/ (the root package.json is the npm package):
#   pkg/web/   wasm-bindgen --target web (browsers and bundlers), wasm-opt -Oz (npm binaryen)
#   pkg/node/  ESM Node entry: reads the wasm from disk and initSync's it at import time
#   pkg/cjs/   CommonJS entry (require) over the same pkg/web/ wasm, also initialised at load
#   pkg/web/rowkey_lab.d.ts  replaced by the hand-written src/types.d.ts
# The npm build keeps the default `vectors` feature (runVector), so the test suite can run
# every golden vector through the packed build; it costs a few KB gzip (see size-check.sh).
# NPM_FEATURES=none builds without it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
FEATURES=(); [ "${NPM_FEATURES:-vectors}" = none ] && FEATURES=(--no-default-features)
cargo build --lib --release --target wasm32-unknown-unknown "${FEATURES[@]}"
rm -rf pkg
mkdir -p pkg/web pkg/node pkg/cjs
# --low-memory-unused: see build-wasm.sh (no data below address 1024).
wasm-bindgen --target web --out-dir pkg/web target/wasm32-unknown-unknown/release/rowkey_lab.wasm
wasm-opt -Oz --converge --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  pkg/web/rowkey_lab_bg.wasm -o pkg/web/rowkey_lab_bg.wasm
rm -f pkg/web/.gitignore pkg/web/package.json

# Types: the hand-written declarations win over wasm-bindgen's (which say `any` for JsValue).
cp src/types.d.ts pkg/web/rowkey_lab.d.ts
rm -f pkg/web/rowkey_lab_bg.wasm.d.ts

cat > pkg/node/index.js <<'JS'
// Node ESM entry: loads the wasm from disk and initialises it at import time, so
// `import { md5Hex } from 'rowkey-lab'` works without `await init()`.
import { readFileSync } from 'node:fs';
import { initSync } from '../web/rowkey_lab.js';
initSync({ module: readFileSync(new URL('../web/rowkey_lab_bg.wasm', import.meta.url)) });
export * from '../web/rowkey_lab.js';
export { default } from '../web/rowkey_lab.js';
JS
cp src/types.d.ts pkg/node/index.d.ts

# CommonJS: a tiny wrapper that imports the ESM build would need top-level await; instead
# require() gets the Node 20.17+/22 `require(esm)` path when available, else a clear error.
cat > pkg/cjs/index.cjs <<'JS'
// CommonJS entry. Node >= 20.19 / 22.12 can require() ES modules without top-level await;
// the ESM Node entry has none, so this simply re-exports it.
'use strict';
module.exports = require('../node/index.js');
JS
cp src/types.d.ts pkg/cjs/index.d.cts

raw=$(stat -c %s pkg/web/rowkey_lab_bg.wasm); gz=$(gzip -9c pkg/web/rowkey_lab_bg.wasm | wc -c)
echo "[build-npm] pkg/web/rowkey_lab_bg.wasm: $raw bytes raw, $gz bytes gzip -9 (features: ${NPM_FEATURES:-vectors})" >&2
