#!/usr/bin/env bash
# Runs every test: lints, native unit tests, golden vectors, wasm in Node, wasm in headless
# Chromium, and the JS suites (npm package, page in Chromium). Sets up what is missing first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
START=$(date +%s)
mkdir -p target
# The speed and rows wasm builds and the Python wheel with the tests' cargo profiles: the same code
# without the link-time optimisation (and wasm-opt) that ships, minutes of one core each on this
# machine (Cargo.toml, python/Cargo.toml; scripts/env.sh's build_profile). The page's first wasm,
# whose bytes are budgeted, is the release build; the benchmarks refuse the tests' builds.
export ROWKEY_LAB_TEST_BUILDS=1
# The wasm-bindgen CLI (a cargo install: 4-5 min from a fresh clone) compiles beside the set-up,
# the lints and the native tests, none of which needs it; the wasm tests wait for it.
bash scripts/setup.sh --bindgen-only >target/bindgen.log 2>&1 &
BINDGEN=$!
bash scripts/setup.sh --browser --no-bindgen
# Two builds the tests need later start now, beside the lints and tests, at a lower priority
# (nice), so that they take the cores the steps on the path leave idle (downloads, one-core link
# ends, the browser tests): the npm package's Node wasm (its cargo build, which the page's rows
# build in the tests also is: scripts/build-rows-wasm.sh waits for it; wasm-bindgen after the
# CLI's install), the Python package's set-up and wheel (Java when missing, once set-up's own
# apt-get is done, the virtual environment, pyspark and pyarrow), and its binding crate's lints.
nice -n 10 bash scripts/build-node-wasm.sh --cargo-only >target/node-wasm.log 2>&1 &
NODE_WASM=$!
nice -n 15 bash scripts/test-python.sh --build >target/python-build.log 2>&1 &
PYTHON_BUILD=$!
nice -n 15 bash scripts/test-python.sh --lint >target/python-lint.log 2>&1 &
PYTHON_LINT=$!
source scripts/env.sh
step() { echo; echo "=== $* ($(( $(date +%s) - START ))s)"; }
# Waits for background job $1, then prints its log $2; stops the run, saying $3 failed, if it did.
# Says how long it waited (a background job still running holds the run up).
join() {
  local from=$(date +%s)
  if ! wait "$1"; then
    cat "$2"
    echo "$3 failed" >&2
    exit 1
  fi
  cat "$2"
  echo "[joined: $3, after waiting $(( $(date +%s) - from )) s]"
}

step "rustfmt"
cargo fmt --all -- --check
step "biome (JS format + lint)"
# ci: checks only, never writes; a mis-formatted file or any lint finding (warnings too) fails.
node_modules/.bin/biome ci --error-on-warnings .
step "clippy (host)"
cargo clippy --all-targets -- -D warnings
step "clippy (wasm32)"
cargo clippy --target wasm32-unknown-unknown --lib --tests -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --no-default-features -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features library,rows -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features library,fast,rows -- -D warnings
# the page's speed build (www/pkg/fast/: the workers', with the advisor's exports)
cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features fast -- -D warnings
step "rustdoc (every intra-doc link resolves)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --document-private-items
step "native tests (unit + golden vectors)"
# RUSTFLAGS set, and empty: without .cargo/config.toml's LLVM inline threshold, which is there for
# the native benchmarks (opt-level 3); it multiplied the compile time of the ~20 test binaries.
# The `native-tests` profile (Cargo.toml): opt-level 1 without the release profile's fat LTO and
# single codegen unit (there for the wasm's size). Measured on 2 cores: the crate's tests rebuilt
# in 2 min 1 s against 6 min 11 s at `--release`, every dependency too in 3 min 26 s; the tests
# themselves run in 40 s.
RUSTFLAGS= cargo test --profile native-tests --no-fail-fast
step "wasm tests (Node + headless Chromium; the wasm-bindgen CLI's install joined)"
join "$BINDGEN" target/bindgen.log "installing the wasm-bindgen CLI"
# Without the rows readers (feature `rows`): the wasm tests do not reach them, and building
# arrow-rs and parquet once more for wasm32's test profile costs minutes on 2 cores.
cargo test --target wasm32-unknown-unknown --no-fail-fast --no-default-features --features vectors,library --test wasm_node --test wasm_browser --test wasm_keyspec
step "build wasm for the page; the page's minified build (dist/www, what the page tests load)"
bash scripts/build-wasm.sh
node scripts/build-page.mjs
node scripts/build-single.mjs
# --- npm package (wt-npm): build pkg/ for npm pack, then the wasm size budget ---------
step "npm package build + wasm size budget (the Node wasm's cargo build joined)"
join "$NODE_WASM" target/node-wasm.log "the Node wasm's cargo build"
bash scripts/build-npm.sh
bash scripts/size-check.sh
# --- end npm package block ------------------------------------------------------------
step "JS tests (node --test: page in Chromium, package)"
# Two test files at a time (Node 20 runs one on a 2-core machine: availableParallelism - 1):
# the page tests wait on Chromium and the CLI tests on their processes much of the time. Not
# three (the CPU was busy all along), and not beside the Python tests: from a fresh clone both
# together took 834 s against 627 s and about 120 s one after the other.
node --test --test-concurrency=2 tests/js/
step "Python package (pytest against the CLI, Spark in local mode; its wheel's build and lints joined)"
join "$PYTHON_BUILD" target/python-build.log "the Python package's set-up and wheel"
join "$PYTHON_LINT" target/python-lint.log "the Python binding crate's format and clippy"
bash scripts/test-python.sh --built
echo "all tests passed in $(( $(date +%s) - START ))s"
