#!/usr/bin/env bash
# Builds the npm package's files into pkg/ (the root package.json is the npm package):
#   pkg/web/   wasm-bindgen --target web (browsers and bundlers), wasm-opt -Oz (npm binaryen);
#              the full export set (features `library,rows`; the page's first wasm from
#              build-wasm.sh is built without them), the same artifact as the page's rows build
#              (www/pkg/rows/, copied when present: scripts/build-rows-wasm.sh); index.js adds
#              the presets (presets.js) to the glue's exports
#   pkg/node/  ESM Node entry: reads its own wasm from disk and initSync's it at import time.
#              That wasm is built for speed, not size (scripts/build-node-wasm.sh): Node reads it
#              from disk, so its bytes are not budgeted.
#   pkg/cjs/   CommonJS entry (require): re-exports pkg/node/
#   pkg/web/rowkey_lab.d.ts  replaced by the hand-written src/types.d.ts
#   pkg/vectors/  `rowkey-lab/vectors`: a second, test-only wasm exporting runVector alone
#                 (feature `vectors-only`), so the test suite can run every golden vector
#                 through the packed package while the main wasm (built without `vectors`)
#                 carries no test code.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
WASM=target/wasm32-unknown-unknown/release/rowkey_lab.wasm
# wasm-bindgen (--target web) into $1 and wasm-opt -Oz; -ocimfs=25 and --low-memory-unused:
# see build-wasm.sh.
FEATURES=(--enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
  --enable-mutable-globals --enable-reference-types --enable-multivalue)
bindgen_opt() {
  wasm-bindgen --target web --out-dir "$1" "$WASM"
  wasm-opt -Oz -ocimfs=25 --low-memory-unused --strip-producers --strip-target-features "${FEATURES[@]}" \
    "$1/rowkey_lab_bg.wasm" -o "$1/rowkey_lab_bg.wasm"
  rm -f "$1/.gitignore" "$1/package.json" "$1/rowkey_lab_bg.wasm.d.ts" "$1/rowkey_lab.d.ts"
}
rm -rf pkg
mkdir -p pkg/web pkg/node pkg/cjs pkg/vectors
# pkg/web is the page's rows build (www/pkg/rows/): copied from there when build-wasm.sh made it
# from this same cargo output, else made here (scripts/build-rows-wasm.sh). Before the vectors
# build: the builds of one profile write one rowkey_lab.wasm, so cargo links a build again after
# another feature set's (a fat-LTO link, 45 s on 2 cores); the rows build is build-wasm.sh's last.
bash scripts/build-rows-wasm.sh pkg/web www/pkg/rows
rm -f pkg/web/.source
mv pkg/web/.profile pkg/web-profile
if test_builds; then
  # The tests' vectors wasm (ROWKEY_LAB_TEST_BUILDS=1): the dev profile, on the dependencies the
  # wasm tests built for wasm32 at it, without the release profile's fat LTO and wasm-opt (its
  # LTO link was 47 s of one core in a full run); it carries no code the vectors do not run.
  cargo build --lib --target wasm32-unknown-unknown --no-default-features --features vectors-only
  wasm-bindgen --target web --out-dir pkg/vectors target/wasm32-unknown-unknown/debug/rowkey_lab.wasm
  rm -f pkg/vectors/.gitignore pkg/vectors/package.json pkg/vectors/rowkey_lab_bg.wasm.d.ts pkg/vectors/rowkey_lab.d.ts
  echo dev >pkg/vectors-profile
else
  cargo build --lib --release --target wasm32-unknown-unknown --no-default-features --features vectors-only
  bindgen_opt pkg/vectors
  echo release >pkg/vectors-profile
fi
# the speed build (scripts/build-node-wasm.sh; ROWKEY_LAB_TEST_BUILDS picks the tests'); which
# profile made it is kept beside the package's folders, not in them (npm pack ships pkg/node/),
# for the benchmarks to check (scripts/shipped-build.mjs)
bash scripts/build-node-wasm.sh pkg/node
mv pkg/node/.profile pkg/node-profile

# The presets beside each build's glue (listPresets/getPreset in JS; see scripts/presets-js.mjs).
node scripts/presets-js.mjs pkg/web pkg/node
# The entries around the glue, hand-written in npm/ (same layout as pkg/, formatted and
# linted with the other JS): pkg/web/index.js (the glue's exports and the presets'),
# pkg/node/index.js and pkg/vectors/index.js (initSync at import time), pkg/cjs/index.cjs
# (require of the Node entry) and pkg/vectors/index.d.ts.
cp -R npm/. pkg/
# The call interface to the engine's workers, the scheduler that spreads work over them, the
# counting workers' and the advisor's calls and the driver of a file of rows (analyzeRows): one
# source for the page (www/engine/) and the package (pkg/shared/).
cp www/engine/advice-calls.js www/engine/advise-driver.js www/engine/observe-through.js www/engine/calls.js www/engine/count.js www/engine/scheduler.js www/engine/rows.js \
  www/engine/rekey.js www/engine/life-calls.js pkg/shared/
# Types: the hand-written declarations win over wasm-bindgen's (which say `any` for JsValue).
cp src/types.d.ts pkg/web/rowkey_lab.d.ts
cp src/types.d.ts pkg/node/index.d.ts
cp src/types.d.ts pkg/cjs/index.d.cts

raw=$(stat -c %s pkg/web/rowkey_lab_bg.wasm); gz=$(gzip -9c pkg/web/rowkey_lab_bg.wasm | wc -c)
echo "[build-npm] pkg/web/rowkey_lab_bg.wasm: $raw bytes raw, $gz bytes gzip -9" >&2
raw=$(stat -c %s pkg/node/rowkey_lab_bg.wasm); gz=$(gzip -9c pkg/node/rowkey_lab_bg.wasm | wc -c)
echo "[build-npm] pkg/node/rowkey_lab_bg.wasm (Node, speed build): $raw bytes raw, $gz bytes gzip -9" >&2
raw=$(stat -c %s pkg/vectors/rowkey_lab_bg.wasm); gz=$(gzip -9c pkg/vectors/rowkey_lab_bg.wasm | wc -c)
echo "[build-npm] pkg/vectors/rowkey_lab_bg.wasm (test-only): $raw bytes raw, $gz bytes gzip -9" >&2
