#!/usr/bin/env bash
# Writes the generated parts of src/types.d.ts (the input declarations) and
# docs/design-document.md (the member tables) from the engine's reader tables: the doc strings,
# defaults and ranges declared in src/**/read.rs. `cargo test --test engine schema_docs` fails until
# the committed text is what this writes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
ROWKEY_WRITE_SCHEMA=1 RUSTFLAGS= cargo test --profile native-tests --test engine schema_docs::
