#!/usr/bin/env bash
# Idempotent set-up for a fresh machine of this kind (Debian, rustup, Node 20 + npm).
# Installs only what is missing: the wasm32 target, the wasm-bindgen CLI whose version equals
# Cargo.lock's wasm-bindgen (into ./.tools), npm packages, Debian's clang (zstd for wasm32), and with --browser Debian's
# chromium + chromium-driver. Source it or run it; it prints what it does.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
want_browser=0
for a in "$@"; do [ "$a" = "--browser" ] && want_browser=1; done
say() { echo "[setup] $*" >&2; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The Parquet reader's zstd codec is C (zstd-sys): built for wasm32 by clang, which gcc cannot.
if ! command -v clang >/dev/null || ! command -v llvm-ar >/dev/null; then
  say "installing Debian clang + llvm (zstd's C for the wasm builds)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang llvm
fi

[ -f Cargo.lock ] || cargo generate-lockfile
WB=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock)
have=$("$ROOT/.tools/bin/wasm-bindgen" --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$WB" ] || [ ! -x "$ROOT/.tools/bin/wasm-bindgen-test-runner" ]; then
  say "installing wasm-bindgen-cli $WB into .tools (a few minutes, once)"
  # --locked fails for 0.2.130 on this registry (webpki-roots 1.0.11 missing): fall back.
  cargo install wasm-bindgen-cli --version "=$WB" --locked --root "$ROOT/.tools" --force \
    || cargo install wasm-bindgen-cli --version "=$WB" --root "$ROOT/.tools" --force
fi

stamp=node_modules/.setup-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  say "installing npm packages"
  npm ci --no-audit --no-fund
  touch "$stamp"
fi

if [ "$want_browser" = 1 ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  say "installing Debian chromium + chromium-driver"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi
