#!/usr/bin/env bash
# Opens the page: sets up, builds the wasm, serves www/ on localhost and prints the URL.
# PORT=8080 bash scripts/start.sh to choose the port.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
source scripts/env.sh
bash scripts/build-wasm.sh
PORT="${PORT:-8765}"
echo
echo "rowkey-lab is at http://127.0.0.1:$PORT/  (Ctrl-C stops the server)"
exec sirv www --port "$PORT" --host 127.0.0.1 --quiet
