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
# ROWKEY_LAB_TEST_BUILDS=1 (scripts/test.sh): profile wasm-fast-test, the same code without fat LTO
# and wasm-opt, for the tests only (Cargo.toml says why); the profile's name goes to $1/.profile,
# and the benchmarks refuse a build with a tests' profile, `*-test` (scripts/shipped-build.mjs).
#
# Built in a target directory of its own (target/node-speed): cargo locks a target directory, and
# this build then runs beside the page's builds and the tests when scripts/test.sh starts it
# early (`--cargo-only`: the cargo build alone, before the wasm-bindgen CLI is installed).
# Usage: build-node-wasm.sh --cargo-only | OUT
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
profile=$(build_profile wasm-fast wasm-fast-test)
export CARGO_TARGET_DIR="$ROOT/target/node-speed"
WASM=$(node_wasm)
RUSTFLAGS="$(speed_rustflags)" cargo build --lib --profile "$profile" --target wasm32-unknown-unknown --no-default-features --features library,fast,rows
[ "${1:-}" = --cargo-only ] && exit 0
out=$1
rm -rf "$out"
wasm-bindgen --target web --out-dir "$out" "$WASM"
if ! test_builds; then
  wasm-opt -O1 --low-memory-unused --strip-producers --strip-target-features --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-reference-types \
    --enable-multivalue --enable-simd "$out/rowkey_lab_bg.wasm" -o "$out/rowkey_lab_bg.wasm"
fi
rm -f "$out/.gitignore" "$out/package.json" "$out/rowkey_lab_bg.wasm.d.ts" "$out/rowkey_lab.d.ts"
echo "$profile" >"$out/.profile"
