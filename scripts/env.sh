# Sourced by the other scripts: project-local tools first on PATH.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:/usr/bin:$PATH"
# The compiler cache scripts/setup.sh installs (once per machine), unless a wrapper is set already
# or ROWKEY_LAB_NO_SCCACHE=1.
if [ -x "$ROOT/.tools/bin/sccache" ] && [ -z "${RUSTC_WRAPPER:-}" ] && [ "${ROWKEY_LAB_NO_SCCACHE:-}" != 1 ]; then
  export RUSTC_WRAPPER="$ROOT/.tools/bin/sccache"
fi
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
# The rustc flags of the engine's speed builds for wasm (www/pkg/fast/, pkg/node/): the native
# builds' from .cargo/config.toml (LLVM's inline threshold, the reasons there), read from it so
# that both sides of the page / native benchmark are built alike. None in the tests' builds
# (ROWKEY_LAB_TEST_BUILDS=1): the Node build compiled in 215 s (396 s of CPU) at wasm-fast-test's
# opt-level 2 without it, against 293 s (551 s) at 3 with it, and analyzeDesign ran alike.
speed_rustflags() {
  test_builds && return 0
  grep -o 'llvm-args=-inline-threshold=[0-9]*' "$ROOT/.cargo/config.toml" | sed 's/^/-C /'
}
# `build_profile SHIPPED TEST`: the cargo profile of a build, SHIPPED unless ROWKEY_LAB_TEST_BUILDS=1
# (scripts/test.sh): then the tests' (Cargo.toml, python/Cargo.toml: the same code without the
# link-time optimisation that ships, and no wasm-opt). Which profiles made a folder is written
# beside it; the benchmarks refuse the tests' (scripts/shipped-build.mjs, scripts/shipped_wheel.py).
# The tests' profiles are named `*-test`: that suffix is what the checks look for.
test_builds() { [ "${ROWKEY_LAB_TEST_BUILDS:-}" = 1 ]; }
# The Node build's cargo output (scripts/build-node-wasm.sh; the tests' rows build is it too).
node_wasm() {
  echo "$ROOT/target/node-speed/wasm32-unknown-unknown/$(build_profile wasm-fast wasm-fast-test)/rowkey_lab.wasm"
}
build_profile() {
  if test_builds; then echo "$2"; else echo "$1"; fi
}
