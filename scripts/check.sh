#!/usr/bin/env bash
# The one list of lints, run by both tiers of scripts/test.sh (the everyday tier's without the
# wasm32 passes and rustdoc: --everyday) and alone: biome over the JS (format + lint, warnings
# fail), docs/cli.md against the CLI's --help, rustfmt --check, clippy
# -D warnings on the host (every target) and for wasm32 with each feature set that ships
# (the wasm tests', the page's first wasm, the page's speed build, the rows build / pkg/web,
# the Node build pkg/node), rustdoc's intra-doc links, and the Python binding crate's format
# and clippy (a member of the root workspace) and the package's ruff format, ruff check and mypy
# (scripts/test-python.sh --lint). The host's clippy and rustdoc run with RUSTFLAGS set and empty,
# as the native tests and the binding's clippy and wheel do: one set of flags, so that their
# checks and builds of the dependencies are shared (.cargo/config.toml's inline threshold is for
# the native benchmarks).
# Usage: bash scripts/check.sh [--no-python] [--everyday]
#   --no-python: without the binding crate's lints (scripts/test.sh --full runs them beside its
#   lints, in the background, and joins them before the Python tests).
#   --everyday: without the five wasm32 clippy passes and rustdoc (scripts/test.sh's everyday
#   tier; --full runs them): each is a check of the whole engine again, minutes of the tier's
#   time, and they find what the host's clippy does not only where the code is wasm32's own
#   (`src/wasm/`, the `lean` paths) or a doc link.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=1 full=1
for a in "$@"; do
  case "$a" in
    --no-python) python=0 ;;
    --everyday) full=0 ;;
    *) echo "check: unknown argument $a (usage: bash scripts/check.sh [--no-python] [--everyday])" >&2; exit 2 ;;
  esac
done
source scripts/env.sh
CHECK_START=$(date +%s)
lint() { echo "--- check: $* ($(( $(date +%s) - CHECK_START ))s)"; }
[ -x node_modules/.bin/biome ] || { echo "check: node_modules/.bin/biome missing: run npm ci" >&2; exit 2; }

lint "rustfmt"
cargo fmt --all -- --check
lint "biome (JS format + lint)"
# ci: checks only, never writes; a mis-formatted file or any lint finding (warnings too) fails.
node_modules/.bin/biome ci --error-on-warnings .
lint "docs/cli.md against the CLI's --help"
node scripts/cli-doc.mjs --check
lint "clippy (host, every target)"
RUSTFLAGS= cargo clippy --all-targets -- -D warnings
# the Node-API addon (node/, a member of the workspace that the root's clippy does not name): the
# same flags, so it checks on the root's clippy build of the engine
lint "clippy (the Node-API addon, node/)"
RUSTFLAGS= cargo clippy -p rowkey-lab-node -- -D warnings
if [ "$full" = 1 ]; then
  lint "clippy (wasm32, each feature set that ships)"
  # the wasm tests (tests/wasm_*.rs, the only test targets that run on wasm32) and the default
  # features
  cargo clippy --target wasm32-unknown-unknown --lib --test wasm_node --test wasm_browser --test wasm_keyspec -- -D warnings
  # the page's first wasm (scripts/build-wasm.sh)
  cargo clippy --target wasm32-unknown-unknown --lib --no-default-features -- -D warnings
  # the page's rows build and the npm package's pkg/web (scripts/build-rows-wasm.sh)
  cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features library,rows -- -D warnings
  # the npm package's Node build, pkg/node (scripts/build-node-wasm.sh)
  cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features library,fast,rows -- -D warnings
  # the page's speed build (www/pkg/fast/: the workers', with the advisor's exports)
  cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features fast -- -D warnings
  lint "rustdoc (every intra-doc link resolves)"
  RUSTFLAGS= RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --document-private-items
else
  lint "left to --full: clippy for wasm32 (5 feature sets) and rustdoc"
fi
if [ "$python" = 1 ]; then
  lint "the Python binding crate: rustfmt, clippy; the package: ruff format, ruff check, mypy"
  bash scripts/test-python.sh --lint
fi
echo "--- check: all lints passed in $(( $(date +%s) - CHECK_START ))s"
