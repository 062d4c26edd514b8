#!/usr/bin/env bash
# The lints of the test command, alone: biome over the JS (format + lint, warnings fail),
# docs/cli.md against the CLI's --help, rustfmt --check and clippy -D warnings (host, wasm32).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
[ -x node_modules/.bin/biome ] || { echo "check: node_modules/.bin/biome missing: run npm ci" >&2; exit 2; }
node_modules/.bin/biome ci --error-on-warnings .
node scripts/cli-doc.mjs --check
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --tests -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --no-default-features -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features library,fast -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --no-default-features --features fast -- -D warnings
