#!/usr/bin/env bash
# The page's first-load budget: the gzip -9 sizes of everything dist/www/index.html loads when it
# opens, summed, must stay within 400 KB (409,600 bytes). Counted: index.html; the scripts and
# stylesheets it names (<script src>, <link href>: stylesheets and modulepreloads); every module
# those import statically (`import … from`, `export … from`, `import "…"`); and every file a
# loaded script names with `new URL("…", import.meta.url)`, which is how boot.js starts the
# worker and how the wasm-bindgen glue fetches the wasm. Lazy `import()` and source maps (read
# only while DevTools is open) are not counted.
# Prints each file, the total, the budget and the headroom; exit 1 over the budget, 2 when the
# page is not built. Also writes target/bench/size.json (for scripts/bench-table.mjs), with the
# npm package's wasm files when pkg/ is built (printed, not budgeted).
# Usage: node scripts/build-page.mjs && bash scripts/size-check.sh [DIR]   (DIR: dist/www)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Headroom is the point: the budget is not raised to fit a build. The page must stay quick to
# open on a slow link; the wasm is most of it, so this is where engine growth shows.
BUDGET=409600
DIR="${1:-dist/www}"
[ -f "$DIR/index.html" ] || { echo "size-check: $DIR/index.html missing (run node scripts/build-page.mjs)" >&2; exit 2; }

gz() { gzip -9 <"$1" | wc -c; }
# A reference `ref` made by the file `from` (both relative to DIR), resolved to a path in DIR.
resolve() { realpath -m --relative-to="$DIR" "$DIR/$(dirname "$1")/$2"; }

# index.html's own references: attributes of <script> and <link>, without data:, http(s): and #.
todo=(index.html)
while IFS= read -r ref; do todo+=("$(resolve index.html "$ref")"); done < <(
  grep -oE '<(script|link)\b[^>]*>' "$DIR/index.html" |
    grep -oE '\b(src|href)="[^":#]+"' | sed -E 's/^[a-z]+="(.*)"$/\1/')
declare -A seen=()
files=()
while [ "${#todo[@]}" -gt 0 ]; do
  f="${todo[-1]}"; unset 'todo[-1]'
  [ -n "${seen[$f]:-}" ] && continue
  seen[$f]=1
  [ -f "$DIR/$f" ] || { echo "size-check: $f is loaded by the page but missing from $DIR" >&2; exit 2; }
  files+=("$f")
  [[ "$f" == *.js ]] || continue
  while IFS= read -r ref; do todo+=("$(resolve "$f" "$ref")"); done < <(
    { grep -oE "\b(from|import)[[:space:]]*[\"']\.{1,2}/[^\"']+[\"']" "$DIR/$f" || true
      grep -oE "new URL\([[:space:]]*[\"'\`][^\"'\`\$#?:]+" "$DIR/$f" || true
    } | sed -E "s/^(from|import|new URL\()[[:space:]]*[\"'\`]//; s/[\"']$//")
done
printf '%s\n' "${files[@]}" | grep -q '\.wasm$' ||
  { echo "size-check: no .wasm among the files index.html loads; the reference scan is broken" >&2; exit 2; }

mapfile -t files < <(printf '%s\n' "${files[@]}" | sort)
total=0
json_files=()
for f in "${files[@]}"; do
  raw=$(stat -c %s "$DIR/$f"); g=$(gz "$DIR/$f"); total=$((total + g))
  printf '  %-28s %9d B raw %9d B gzip -9\n' "$f" "$raw" "$g"
  json_files+=("{\"file\": \"$f\", \"raw\": $raw, \"gzip\": $g}")
done
headroom=$((BUDGET - total))
awk -v t="$total" -v b="$BUDGET" -v h="$headroom" 'BEGIN {
  printf "first load: %d B gzip -9 (%.1f KB); budget %d B (%.1f KB); headroom %d B (%.1f KB, %.0f %%)\n",
    t, t / 1024, b, b / 1024, h, h / 1024, 100 * h / b }'

# The npm package's wasm files, when built: printed for the record, not budgeted.
json_wasm=()
for w in pkg/web/rowkey_lab_bg.wasm pkg/node/rowkey_lab_bg.wasm pkg/vectors/rowkey_lab_bg.wasm; do
  [ -f "$w" ] || continue
  # the tests' builds (scripts/test.sh: profiles `*-test`, and the vectors wasm's `dev`; written
  # beside pkg/'s folders) are not what ships
  profile=$(cat "${w%%/rowkey_lab_bg.wasm}-profile" 2>/dev/null || true)
  if [[ "$profile" == *-test || "$profile" == dev ]]; then
    echo "  npm $w: the tests' build (profile $profile), not recorded"
    continue
  fi
  raw=$(stat -c %s "$w"); g=$(gz "$w")
  printf '  npm %-24s %9d B raw %9d B gzip -9 (not budgeted)\n' "$w" "$raw" "$g"
  json_wasm+=("{\"file\": \"$w\", \"raw\": $raw, \"gzip\": $g}")
done

join() { local IFS=,; echo "$*"; }
mkdir -p target/bench
cat >target/bench/size.json <<JSON
{"bench": "size", "command": "bash scripts/size-check.sh", "date": "$(date -u +%F)",
 "commit": "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)", "dir": "$DIR",
 "budget": $BUDGET, "firstLoad": {"gzip": $total, "files": [$(join "${json_files[@]}")]},
 "npmWasm": [$(join "${json_wasm[@]+"${json_wasm[@]}"}")]}
JSON

if [ "$total" -gt "$BUDGET" ]; then
  echo "size-check: FAIL, the first load is $total B gzip, over the budget of $BUDGET B by $((-headroom)) B" >&2
  exit 1
fi
echo "size-check: ok"
