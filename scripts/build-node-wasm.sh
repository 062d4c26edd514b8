#!/usr/bin/env bash
# The npm package's Node wasm (pkg/node/): the engine built for speed, not size (`--features
# library,fast,rows`, profile `wasm-fast` at opt-level 3 with LLVM's inline threshold as the
# native builds have it, wasm-opt -O1 with SIMD), wasm-bindgen --target web, into the folder $1.
# Node reads it from disk, so its bytes are not budgeted, and it keeps the native-speed paths
# the browser wasm leaves out. -O1, not -O3: LLVM has already optimised it at opt-level 3, and on
# this ~11 MB module (the rows readers in) binaryen.js's -O3 took 6 min 9 s on 2 cores against
# 64 s for -O1, for a difference in analyzeDesign's time within the noise of a loaded machine
# (4M-record telecom design, best of 5: 534/689 ms -O3, 566/715 ms without wasm-opt;
# String.hashCode/MD5).
#
# Built in a target directory of its own (target/node-speed): cargo locks a target directory, and
# this build's long single-threaded end (fat LTO, one codegen unit) then overlaps the page's
# builds (scripts/build-wasm.sh) when scripts/test.sh runs both at once on 2 cores.
# Usage: build-node-wasm.sh OUT [FROM]: FROM, a folder this script filled before, is copied when
# its .source (the sha256 of the module it was made from) matches this cargo output.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
out=$1
from=${2:-}
export CARGO_TARGET_DIR="$ROOT/target/node-speed"
WASM="$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-fast/rowkey_lab.wasm"
RUSTFLAGS="$(speed_rustflags)" cargo build --lib --profile wasm-fast --target wasm32-unknown-unknown --no-default-features --features library,fast,rows
sum=$(sha256sum "$WASM" | cut -d' ' -f1)
if [ -n "$from" ] && [ -f "$from/.source" ] && [ "$(cat "$from/.source")" = "$sum" ]; then
  rm -rf "$out"
  mkdir -p "$out"
  cp "$from/rowkey_lab.js" "$from/rowkey_lab_bg.wasm" "$from/.source" "$out/"
  echo "[build-node-wasm] $out: copied from $from (the same cargo output)" >&2
  exit 0
fi
rm -rf "$out"
wasm-bindgen --target web --out-dir "$out" "$WASM"
wasm-opt -O1 --low-memory-unused --strip-producers --strip-target-features --enable-bulk-memory \
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-reference-types \
  --enable-multivalue --enable-simd "$out/rowkey_lab_bg.wasm" -o "$out/rowkey_lab_bg.wasm"
rm -f "$out/.gitignore" "$out/package.json" "$out/rowkey_lab_bg.wasm.d.ts" "$out/rowkey_lab.d.ts"
echo "$sum" >"$out/.source"
