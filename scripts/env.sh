# Sourced by the other scripts: project-local tools first on PATH.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:/usr/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
# The rustc flags of the engine's speed builds for wasm (www/pkg/fast/, pkg/node/): the native
# builds' from .cargo/config.toml (LLVM's inline threshold, the reasons there), read from it so
# that both sides of the page / native benchmark are built alike.
speed_rustflags() {
  grep -o 'llvm-args=-inline-threshold=[0-9]*' "$ROOT/.cargo/config.toml" | sed 's/^/-C /'
}
