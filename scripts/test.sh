#!/usr/bin/env bash
# The tests, in tiers (docs/ARCHITECTURE.md's test section has the times; docs/testing.md what
# was tried). Each sets up what is missing first (scripts/setup.sh, scripts/test-python.sh).
#   bash scripts/test.sh          the everyday tier: the lints but the wasm32 clippy passes and
#                                 rustdoc (scripts/check.sh --everyday), the native tests (unit,
#                                 tests/engine, golden vectors) and the JS tests that need no
#                                 browser; those of them that need the npm package's pkg/ (the
#                                 CLI's) run when pkg/ is built and newer than its sources, and
#                                 are skipped, saying so, when not. No wasm build.
#   bash scripts/test.sh --full   everything (CI, .ci/run): the lints, native tests, wasm in Node
#                                 and headless Chromium, the page's builds and the npm package,
#                                 the wasm size budget, every JS test (page in Chromium, package,
#                                 CLI) and the Python package (wheel, pytest, Spark in local mode).
#   bash scripts/test.sh --lane wasm|page|npm|python   one lane of --full alone, with the builds
#                                 and set-up it needs: wasm (the wasm tests in Node and headless
#                                 Chromium), page (the page's builds, its size budget and its
#                                 tests in Chromium), npm (the npm package's build and the package
#                                 and CLI tests), python (the binding's lints, the wheel, pytest
#                                 against the CLI, Spark).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"; }
MODE=everyday LANE=
case "${1:-}" in
  "") ;;
  --full) MODE=full ;;
  --lane)
    MODE=lane LANE=${2:-}
    case "$LANE" in wasm | page | npm | python) ;; *) usage >&2; exit 2 ;; esac
    ;;
  -h | --help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac
START=$(date +%s)
mkdir -p target
# The speed and rows wasm builds and the Python wheel with the tests' cargo profiles: the same code
# without the link-time optimisation (and wasm-opt) that ships, minutes of one core each on this
# machine (Cargo.toml, python/Cargo.toml; scripts/env.sh's build_profile). The page's first wasm,
# whose bytes are budgeted, is the release build; the benchmarks refuse the tests' builds.
export ROWKEY_LAB_TEST_BUILDS=1
# The machine's CPU time (user, nice, system, irq, softirq) and all its time, in jiffies: each
# step says how busy the cores were during the one before it, and the run at its end (the
# whole machine's: on CI, this run's).
cpu_jiffies() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 }' /proc/stat; }
read -r CPU0 ALL0 < <(cpu_jiffies)
STEP_AT=$START STEP_CPU=$CPU0 STEP_ALL=$ALL0
busy_since() { # $1 $2: jiffies then; prints "N s of CPU, P % of the cores"
  local cpu all
  read -r cpu all < <(cpu_jiffies)
  awk -v c=$((cpu - $1)) -v a=$((all - $2)) -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%d s of CPU, the cores %d %% busy", c / hz, a ? 100 * c / a : 0 }'
}
step() {
  local now
  now=$(date +%s)
  [ "$now" -gt "$STEP_AT" ] && echo "[the step before: $((now - STEP_AT)) s, $(busy_since "$STEP_CPU" "$STEP_ALL")]"
  read -r STEP_CPU STEP_ALL < <(cpu_jiffies)
  STEP_AT=$now
  echo; echo "=== $* ($((now - START))s)"
}
# Waits for background job $1, then prints its log $2; stops the run, saying $3 failed, if it did.
# Says how long it waited (a background job still running holds the run up).
join() {
  local from
  from=$(date +%s)
  if ! wait "$1"; then
    cat "$2"
    echo "$3 failed" >&2
    exit 1
  fi
  cat "$2"
  echo "[joined: $3, after waiting $(( $(date +%s) - from )) s]"
}
done_in() {
  step "end"
  echo "$1 passed in $(( $(date +%s) - START ))s ($(busy_since "$CPU0" "$ALL0"))"
}

# The steps of --full, each also a lane's.
native_tests() {
  step "native tests (unit, tests/engine, golden vectors, 3 s of the readers' fuzzer)"
  # RUSTFLAGS set, and empty: without .cargo/config.toml's LLVM inline threshold, which is there for
  # the native benchmarks (opt-level 3); it multiplied the compile time of the test binaries.
  # The `native-tests` profile (Cargo.toml): opt-level 1 without the release profile's fat LTO and
  # single codegen unit (there for the wasm's size). Measured on 2 cores: the crate's tests rebuilt
  # in 2 min 1 s against 6 min 11 s at `--release`, every dependency too in 3 min 26 s; the tests
  # themselves run in about 90 s (87 s on 2026-11-29). The integration tests are one crate (tests/engine: one test binary
  # to compile and link where there were 25, Cargo.toml); the wasm tests' targets are wasm32's.
  local rc=0
  RUSTFLAGS='' cargo test --profile native-tests --no-fail-fast 2>&1 | tee target/native-tests.log || rc=$?
  # One count for the lane: the sum of every test binary's and the doc-tests' results (the
  # golden vectors print their own line above).
  awk '/^test result:/ { p += $4; f += $6; i += $8; n++ }
    END { printf "native tests: %d passed, %d failed, %d ignored (%d test runs)\n", p, f, i, n }' target/native-tests.log
  # The native side of tests/js/npm/npm.test.mjs's every-preset comparison, written now from the
  # example `cargo test` has just built (about a second): the test itself ran it through cargo,
  # which in the full run of 2026-11-29 compiled the crate again inside the test (136 s of it).
  if [ "$rc" = 0 ]; then
    RUSTFLAGS='' cargo run --quiet --profile native-tests --example dump_analysis >target/presets-native.json
    export PRESETS_NATIVE_JSON=$PWD/target/presets-native.json
  fi
  return "$rc"
}
# The readers' fuzzer (tests/fuzz_readers.rs) for 250,000 cases (about 60 s alone), under a
# 4 GiB address-space limit, started in the background: the binary the native tests ran (their
# log names it), run without cargo, which would wait for target/ while the builds beside it
# hold it. It ran in the foreground for 60 s before, the other core half idle; a count of
# cases, not of seconds, keeps it as strong whatever runs beside it.
fuzz_start() {
  local exe
  exe=$(sed -n 's/^ *Running tests\/fuzz_readers\.rs (\(.*\))$/\1/p' target/native-tests.log | tail -1)
  if [ ! -x "$exe" ]; then
    echo "the fuzzer's test binary was not found" >&2
    return 1
  fi
  (ulimit -v 4194304 && FUZZ_READERS_CASES=250000 exec "$exe" --nocapture) >target/fuzz.log 2>&1 &
  FUZZ=$!
}
wasm_tests() {
  # Without the rows readers (feature `rows`): the wasm tests do not reach them, and building
  # arrow-rs and parquet once more for wasm32's test profile costs minutes on 2 cores.
  cargo test --target wasm32-unknown-unknown --no-fail-fast --no-default-features --features vectors,library --test wasm_node --test wasm_browser --test wasm_keyspec
}
page_builds() {
  step "build wasm for the page; the page's minified build (dist/www, what the page tests load)"
  bash scripts/build-wasm.sh
  node scripts/build-page.mjs
  node scripts/build-single.mjs
}
npm_build() {
  bash scripts/build-npm.sh
  bash scripts/size-check.sh
}
# The native engine (scripts/build-native.sh: the Node-API addon as pkg/native/<platform>/) at the
# native tests' profile, with their empty RUSTFLAGS: the engine, arrow-rs and parquet as they built
# them (after them in --full: only napi-rs and the addon itself compile). With it in pkg/, the
# package's Node entry and the CLI run the native engine by default, and
# tests/js/cli/native-engine.test.mjs compares it with the wasm build (ROWKEY_LAB_REQUIRE_NATIVE=1:
# a missing native engine fails the lane instead of skipping that file).
native_build() {
  bash scripts/build-native.sh
}
# The tests/js files by what they need, one folder each: `unit/` neither a build nor a browser
# (the page's pure modules, the heatmap's pixels, the scheduler with fake workers (its one test
# of pkg/node's pool skips itself when pkg/ is not built), docs/cli.md); `cli/` the npm package's
# pkg/ (the CLI, the package in Node); `npm/` the packed package, in Node and in Chromium (its web
# entry and bundles); `page/` the page in Chromium. A new test file goes where what it needs
# says; the tiers below name the folders. The number of test files in folders $@.
js_files() { find "$@" -name '*.test.mjs' | wc -l; }
# Two test files at a time (Node 20 runs one on a 2-core machine: availableParallelism - 1): the
# page tests wait on Chromium and the CLI tests on their processes much of the time. Not three (the
# CPU was busy all along), and not beside the Python tests (docs/testing.md).
node_test() { node --test --test-concurrency=2 "$@"; }
# Why pkg/ cannot be tested as it is (not built, or older than a file it is built from), or nothing.
pkg_stale() {
  local wasm=pkg/node/rowkey_lab_bg.wasm newer
  if [ ! -f pkg/node/index.js ] || [ ! -f "$wasm" ]; then
    echo "pkg/ is not built"
    return 0
  fi
  newer=$(find src npm presets www/engine Cargo.toml Cargo.lock -type f -newer "$wasm" -print -quit)
  [ -z "$newer" ] || echo "pkg/ is older than $newer"
}

case "$MODE" in
everyday)
  bash scripts/setup.sh --no-bindgen
  source scripts/env.sh
  step "lints (scripts/check.sh --everyday: the wasm32 clippy passes and rustdoc are --full's)"
  bash scripts/check.sh --everyday
  native_tests
  step "JS tests without a browser (node --test)"
  why=$(pkg_stale)
  if [ -z "$why" ]; then
    echo "pkg/ is built and newer than its sources: with its CLI and package tests (tests/js/cli/)"
    node_test tests/js/unit/ tests/js/cli/
  else
    echo "SKIPPED: the $(js_files tests/js/cli) CLI and package tests that need pkg/ (tests/js/cli/):"
    echo "  $why; bash scripts/test.sh --lane npm builds it and runs them"
    node_test tests/js/unit/
  fi
  echo "left to --full (Chromium): $(js_files tests/js/page tests/js/npm) test files in tests/js/page/ and tests/js/npm/ (bash scripts/test.sh --lane page / --lane npm)"
  done_in "the everyday tier"
  ;;
lane)
  case "$LANE" in
  wasm)
    bash scripts/setup.sh --browser
    source scripts/env.sh
    step "wasm tests (Node + headless Chromium)"
    wasm_tests
    ;;
  page)
    bash scripts/setup.sh --browser
    source scripts/env.sh
    page_builds
    step "npm package build (pkg/node: the page's tests compare with it) + wasm size budget"
    npm_build
    step "the page's tests (node --test tests/js/page/: Chromium)"
    node_test tests/js/page/
    ;;
  npm)
    bash scripts/setup.sh --browser
    source scripts/env.sh
    step "npm package build"
    # the rows build (pkg/web) copied from the page's when that is built from the same cargo
    # output, else made here (the page's size budget is the page lane's)
    bash scripts/build-npm.sh
    step "the native engine (scripts/build-native.sh, the native tests' profile)"
    native_build
    step "the package's and CLI's tests (node --test tests/js/cli/ tests/js/npm/; the package's web entry and bundle in Chromium; the CLI on the native engine, compared with wasm)"
    ROWKEY_LAB_REQUIRE_NATIVE=1 node_test tests/js/cli/ tests/js/npm/
    ;;
  python)
    bash scripts/setup.sh
    source scripts/env.sh
    if [ -n "$(pkg_stale)" ]; then
      step "npm package build (the CLI the Python tests compare with: $(pkg_stale))"
      bash scripts/build-npm.sh
    fi
    step "Python package (binding lints, wheel, pytest against the CLI, Spark in local mode)"
    bash scripts/test-python.sh
    ;;
  esac
  done_in "lane $LANE"
  ;;
full)
  # The wasm-bindgen CLI (a cargo install: 4-5 min from a fresh clone) compiles beside the set-up,
  # the lints and the native tests, none of which needs it; the wasm tests wait for it.
  bash scripts/setup.sh --bindgen-only >target/bindgen.log 2>&1 &
  BINDGEN=$!
  bash scripts/setup.sh --browser --no-bindgen
  # Work the tests need later starts now, beside the lints and tests, at a lower priority (nice),
  # so that it takes the cores the steps on the path leave idle (downloads, one-core link ends,
  # the browser tests): the npm package's Node wasm (its cargo build, in a target directory of
  # its own, which the page's rows build in the tests also is: scripts/build-rows-wasm.sh waits
  # for it; wasm-bindgen after the CLI's install) and the Python package's set-up (Java when
  # missing, once set-up's own apt-get is done, the virtual environment, pyspark and pyarrow).
  nice -n 10 bash scripts/build-node-wasm.sh --cargo-only >target/node-wasm.log 2>&1 &
  NODE_WASM=$!
  nice -n 15 bash scripts/test-python.sh --env >target/python-env.log 2>&1 &
  PYTHON_ENV=$!
  source scripts/env.sh
  step "lints (scripts/check.sh; the Python binding's after the native tests, in the background)"
  bash scripts/check.sh --no-python
  native_tests
  # The Python binding is a member of the root workspace: its wheel (at the native tests'
  # profile) and its clippy (beside check.sh's) reuse what the lints and the native tests built,
  # so they start once those are done, beside the fuzzing and the wasm tests.
  join "$PYTHON_ENV" target/python-env.log "the Python package's set-up"
  nice -n 15 bash -c 'bash scripts/test-python.sh --build && bash scripts/test-python.sh --lint' >target/python-build.log 2>&1 &
  PYTHON_BUILD=$!
  # the native engine's addon, on the same builds of the engine and its dependencies (into
  # target/native-build/ until pkg/ is built, then moved there: build-npm.sh starts from an empty pkg/)
  nice -n 15 bash scripts/build-native.sh target/native-build >target/native-build.log 2>&1 &
  NATIVE_BUILD=$!
  fuzz_start
  step "wasm tests (Node + headless Chromium; the wasm-bindgen CLI's install joined; the readers' fuzzer beside them)"
  join "$BINDGEN" target/bindgen.log "installing the wasm-bindgen CLI"
  wasm_tests
  page_builds
  # --- npm package (wt-npm): build pkg/ for npm pack, then the wasm size budget ---------
  step "npm package build + wasm size budget (the Node wasm's cargo build joined)"
  join "$NODE_WASM" target/node-wasm.log "the Node wasm's cargo build"
  npm_build
  join "$NATIVE_BUILD" target/native-build.log "the native engine's build"
  rm -rf pkg/native && cp -R target/native-build pkg/native
  join "$FUZZ" target/fuzz.log "fuzzing the readers (tests/fuzz_readers.rs, 250,000 cases)"
  # --- end npm package block ------------------------------------------------------------
  step "JS tests (node --test: page in Chromium, package; the CLI on the native engine, compared with wasm)"
  # Every file in tests/js/ (its folders unit/, cli/, npm/, page/), two at a time: from a fresh
  # clone the Python tests beside them took 834 s against 627 s and about 120 s one after the other.
  ROWKEY_LAB_REQUIRE_NATIVE=1 node_test tests/js/
  step "Python package (pytest against the CLI, Spark in local mode; its wheel and lints joined)"
  join "$PYTHON_BUILD" target/python-build.log "the Python package's wheel and lints"
  bash scripts/test-python.sh --built
  step "end"
  echo "all tests passed in $(( $(date +%s) - START ))s ($(busy_since "$CPU0" "$ALL0"))"
  ;;
esac
