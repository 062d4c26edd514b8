#!/usr/bin/env bash
# Opens the page: sets up, builds the wasm and the page's minified build (dist/www), serves it on
# localhost and prints the URL.
# PORT=8080 bash scripts/start.sh to choose the port; DEV=1 bash scripts/start.sh serves www/ as
# written (plain, unminified modules: edit and reload, no rebuild of the page).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
source scripts/env.sh
bash scripts/build-wasm.sh
DIR=www
if [ -z "${DEV:-}" ]; then
  node scripts/build-page.mjs
  DIR=dist/www
fi
PORT="${PORT:-8765}"
echo
echo "rowkey-lab is at http://127.0.0.1:$PORT/  (serving $DIR/; Ctrl-C stops the server)"
exec sirv "$DIR" --port "$PORT" --host 127.0.0.1 --quiet
