#!/usr/bin/env bash
# The engine with the rows readers, for browsers: `--features library,rows`, wasm-bindgen
# --target web, wasm-opt -Oz (one pass), into the folder $1. The page's rows build
# (www/pkg/rows/, scripts/build-wasm.sh) and the npm package's pkg/web (scripts/build-npm.sh) are
# this one artifact: whichever script runs second finds it already made from the same cargo
# output (the sha256 in $1/.source) and copies it instead of running wasm-bindgen and wasm-opt
# again (about 2 minutes on 2 cores). Usage: build-rows-wasm.sh OUT [FROM]: FROM, a folder this
# script filled before, is copied when its .source matches.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
out=$1
from=${2:-}
if test_builds; then
  # ROWKEY_LAB_TEST_BUILDS=1 (scripts/test.sh): the Node build's own wasm (scripts/build-node-wasm.sh,
  # `library,fast,rows` at wasm-fast-test), wasm-bindgen'd for browsers. The same Rust code, with
  # the speed paths `fast` keeps (the size build's `lean` paths are tested through the page's
  # first wasm and the wasm tests); one cargo build of arrow-rs and parquet for wasm32 in a test
  # run instead of two (the release-test rows build took 289 s of CPU, 157 s on 2 cores).
  profile=$(build_profile wasm-fast wasm-fast-test)
  bash scripts/build-node-wasm.sh --cargo-only
  WASM=$(node_wasm)
else
  profile=release
  WASM=target/wasm32-unknown-unknown/$profile/rowkey_lab.wasm
  cargo build --lib --profile "$profile" --target wasm32-unknown-unknown --no-default-features --features library,rows
fi
sum=$(sha256sum "$WASM" | cut -d' ' -f1)
if [ -n "$from" ] && [ -f "$from/.source" ] && [ "$(cat "$from/.source")" = "$sum" ]; then
  rm -rf "$out"
  mkdir -p "$out"
  cp "$from/rowkey_lab.js" "$from/rowkey_lab_bg.wasm" "$from/.source" "$out/"
  echo "$profile" >"$out/.profile"
  echo "[build-rows-wasm] $out: copied from $from (the same cargo output)" >&2
  exit 0
fi
rm -rf "$out"
wasm-bindgen --target web --out-dir "$out" "$WASM"
# One -Oz pass, not --converge: with the rows readers (arrow-rs, parquet, zstd) the module is
# about 5 MB, and converging took binaryen.js eight minutes on 2 cores for a few percent.
# -ocimfs=25 and --low-memory-unused: see build-wasm.sh.
if ! test_builds; then
  wasm-opt -Oz -ocimfs=25 --low-memory-unused --strip-producers --strip-target-features --enable-bulk-memory \
    --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-reference-types \
    --enable-multivalue "$out/rowkey_lab_bg.wasm" -o "$out/rowkey_lab_bg.wasm"
fi
rm -f "$out/.gitignore" "$out/package.json" "$out/rowkey_lab_bg.wasm.d.ts" "$out/rowkey_lab.d.ts"
echo "$sum" >"$out/.source"
echo "$profile" >"$out/.profile"
