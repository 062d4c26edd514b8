#!/usr/bin/env bash
# Prints the raw and gzip -9 size of the npm package's wasm and fails when the gzip size is
# above the budget written in README.md (keep the two in step).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Budget (gzip -9 bytes). Issue 5's goal is 100 KB; today's build is far above it, so this is
# a ceiling against regressions, to be lowered as the wasm shrinks.
BUDGET_GZIP=222000
WASM="${1:-pkg/web/rowkey_lab_bg.wasm}"
[ -f "$WASM" ] || { echo "size-check: $WASM missing (run scripts/build-npm.sh)" >&2; exit 2; }
raw=$(stat -c %s "$WASM"); gz=$(gzip -9c "$WASM" | wc -c)
awk -v w="$WASM" -v r="$raw" -v g="$gz" -v b="$BUDGET_GZIP" 'BEGIN {
  printf "wasm %s: %d bytes raw (%.1f KiB), %d bytes gzip -9 (%.1f KiB); budget %d bytes gzip\n", w, r, r / 1024, g, g / 1024, b }'
if [ "$gz" -gt "$BUDGET_GZIP" ]; then
  echo "size-check: FAIL, gzip size $gz > budget $BUDGET_GZIP" >&2
  exit 1
fi
echo "size-check: ok"
