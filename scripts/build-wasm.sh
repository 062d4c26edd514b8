#!/usr/bin/env bash
# Builds the page's release wasm, runs wasm-bindgen (--target web) into www/pkg/ and shrinks the
# module with npm binaryen's wasm-opt -Oz (Debian's binaryen cannot parse today's wasm).
# The page's export set: no default features, so neither `vectors` (runVector) nor `library`
# (the exports only the npm package has, e.g. analyzeDesign, KeyCodec, md5Hex); wasm-bindgen
# then emits exactly what www/ imports (scripts/build-page.mjs checks both ways).
# scripts/build-npm.sh builds the full set for the npm package itself.
# --low-memory-unused: nothing lives below address 1024 (rustc puts data at 1 MiB and the
# stack just below it), so wasm-opt may fold constant offsets into loads and stores.
# -ocimfs=25: a function with one caller is inlined only when it is small (25 instead of
# binaryen's unlimited default). Inlining big single-caller functions makes the module
# smaller raw but larger gzipped (the moved bodies lose the repetition gzip feeds on):
# +8.7 KB raw, -10.2 KB gzip; analyzeDesign under Node measured no slower (docs/bench-size.md).
# --strip-producers --strip-target-features: tool metadata no runtime reads (-0.2 KB gzip).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
cargo build --lib --release --target wasm32-unknown-unknown --no-default-features
rm -rf www/pkg
wasm-bindgen --target web --out-dir www/pkg target/wasm32-unknown-unknown/release/rowkey_lab.wasm
wasm-opt -Oz --converge -ocimfs=25 --low-memory-unused --strip-producers --strip-target-features --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  www/pkg/rowkey_lab_bg.wasm -o www/pkg/rowkey_lab_bg.wasm
# The speed build for the analysis workers (www/pkg/fast/, same exports): profile wasm-fast
# (opt-level 3), feature `fast` (the native fast paths), wasm-opt -O3 with SIMD (the MD5 lanes).
# Larger than the size build, so it is not part of the first load: workers switch to it after
# the first render (engine/runs.js, engine/worker.js's `engine=fast`). LLVM's inline threshold as the native
# builds have it (.cargo/config.toml): 0.88-0.9x the workers' time, twice the bytes (fetched
# after the first render).
# ROWKEY_LAB_TEST_BUILDS=1 (scripts/test.sh): profile wasm-fast-test, without fat LTO and wasm-opt
# (Cargo.toml), and the rows build's module (below); the profile's name goes to
# www/pkg/fast/.profile (not copied to dist/www).
fast=$(build_profile wasm-fast wasm-fast-test)
# The rows build (www/pkg/rows/), loaded by the engine worker only when the user opens a file of
# rows (engine/rows-calls.js): the readers for CSV, Parquet, JSON Lines and Arrow IPC are
# megabytes of wasm, so neither the size build nor the speed build has them (docs/page.md). It is
# the very artifact the npm package's pkg/web is (`library,rows`, wasm-opt -Oz once, see
# build-npm.sh): cargo reuses it, and build-npm.sh copies this output rather than running
# wasm-bindgen and wasm-opt on the same module again when .source (the sha256 of the module it
# was made from) matches its own cargo output.
bash scripts/build-rows-wasm.sh www/pkg/rows
rm -rf www/pkg/fast
if test_builds; then
  # The tests' speed build is the rows build (itself the Node build's wasm in the tests:
  # build-rows-wasm.sh): the same Rust code with `fast`, its exports a superset of the speed
  # build's, so one cargo build of the engine for wasm32 serves the page's workers, its rows and
  # the npm package in a test run (the speed build alone cost minutes of CPU on 2 cores). The
  # shipped page keeps the lean speed build below: its workers load a third of the bytes.
  mkdir -p www/pkg/fast
  cp www/pkg/rows/rowkey_lab.js www/pkg/rows/rowkey_lab_bg.wasm www/pkg/fast/
else
  RUSTFLAGS="$(speed_rustflags)" cargo build --lib --profile "$fast" --target wasm32-unknown-unknown --no-default-features --features fast
  wasm-bindgen --target web --out-dir www/pkg/fast "target/wasm32-unknown-unknown/$fast/rowkey_lab.wasm"
  wasm-opt -O3 --low-memory-unused --strip-producers --strip-target-features --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd \
    www/pkg/fast/rowkey_lab_bg.wasm -o www/pkg/fast/rowkey_lab_bg.wasm
  rm -f www/pkg/fast/.gitignore www/pkg/fast/package.json www/pkg/fast/*.d.ts
fi
echo "$fast" >www/pkg/fast/.profile
# The presets beside the glue (listPresets/getPreset; see scripts/presets-js.mjs).
node scripts/presets-js.mjs --lazy www/pkg
# The key editor's CodeMirror bundle beside them (loaded lazily by www/views/key-editor.js).
node scripts/build-editor.mjs
raw=$(stat -c %s www/pkg/rowkey_lab_bg.wasm); gz=$(gzip -9c www/pkg/rowkey_lab_bg.wasm | wc -c)
echo "[build] www/pkg/rowkey_lab_bg.wasm: $raw bytes raw, $gz bytes gzip -9" >&2
raw=$(stat -c %s www/pkg/fast/rowkey_lab_bg.wasm); gz=$(gzip -9c www/pkg/fast/rowkey_lab_bg.wasm | wc -c)
echo "[build] www/pkg/fast/rowkey_lab_bg.wasm (workers, after the first render): $raw bytes raw, $gz bytes gzip -9" >&2
raw=$(stat -c %s www/pkg/rows/rowkey_lab_bg.wasm); gz=$(gzip -9c www/pkg/rows/rowkey_lab_bg.wasm | wc -c)
echo "[build] www/pkg/rows/rowkey_lab_bg.wasm (a file of rows opened): $raw bytes raw, $gz bytes gzip -9" >&2
