#!/usr/bin/env bash
# Idempotent set-up for a fresh machine of this kind (Debian, rustup, Node 20 + npm).
# Installs only what is missing: the wasm32 target, the wasm-bindgen CLI whose version equals
# Cargo.lock's wasm-bindgen and the compiler cache sccache (each once per machine, linked into
# ./.tools/bin), npm packages, Debian's clang (zstd for wasm32), and with --browser Debian's
# chromium + chromium-driver. Source it or run it; it prints what it does.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
want_browser=0 bindgen=yes
for a in "$@"; do
  case "$a" in
    --browser) want_browser=1 ;;
    # scripts/test.sh installs the CLI beside its lints and native tests, which do not need it
    --no-bindgen) bindgen=no ;;
    --bindgen-only) bindgen=only ;;
  esac
done
say() { echo "[setup] $*" >&2; }

# The tools installed once per machine and version, like the wasm32 target and Debian's packages:
# each in a folder of $TOOLS, linked into the clone's .tools/bin (on PATH by scripts/env.sh).
TOOLS=${ROWKEY_LAB_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/rowkey-lab/tools}
# `cargo install` of $2… at opt-level 1 (why, at each tool) into folder $1, through a folder of its
# own moved into place whole: a run stopped halfway leaves no half-installed tool that the next run
# would take for the real one. --locked first; without it when the lock names a crate this
# registry lacks.
install_once() {
  local home=$1 part=$1.partial
  shift
  rm -rf "$part"
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo install "$@" --locked --root "$part" --force \
    || CARGO_PROFILE_RELEASE_OPT_LEVEL=1 cargo install "$@" --root "$part" --force
  rm -rf "$home"
  mv "$part" "$home"
}
# The binaries $2… of the tool folder $1, linked into the clone's .tools/bin.
link_tools() {
  local home=$1
  shift
  mkdir -p "$ROOT/.tools/bin"
  for b in "$@"; do ln -sfn "$home/bin/$b" "$ROOT/.tools/bin/$b"; done
}

# The wasm-bindgen CLI (wasm-bindgen, wasm-bindgen-test-runner) at Cargo.lock's version, compiled
# by cargo install: nothing of the rest below is needed for it (--bindgen-only runs it alone).
# In $TOOLS/wasm-bindgen-cli-<version>: a fresh clone on a machine that has it does not compile
# it again (about 150 s of the full run's two cores, 280 s of CPU), and a clone pinned to another
# version installs its own beside it.
install_bindgen() {
  [ -f Cargo.lock ] || cargo generate-lockfile
  WB=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock)
  local home=$TOOLS/wasm-bindgen-cli-$WB
  have=$("$home/bin/wasm-bindgen" --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$WB" ] || [ ! -x "$home/bin/wasm-bindgen-test-runner" ]; then
    say "installing wasm-bindgen-cli $WB into $home (a few minutes, once per machine)"
    # --locked fails for 0.2.130 on this registry (webpki-roots 1.0.11 missing): the fallback.
    # At opt-level 1: it compiled in 175 s (crates downloaded before) against 4 min 41 s at the
    # default 3 from a fresh clone (downloads included) on 2 cores, and runs about as fast
    # where it counts (wasm-bindgen on the 11 MB Node build: 2.0 s against 1.8 s).
    # Without its default feature (rustls for ureq): the test runner speaks plain HTTP to the local
    # chromedriver and never needs TLS (ring, rustls and webpki left out: 147 s and 282 s of CPU
    # against 175 s and 337 s, side by side on 2 cores).
    install_once "$home" wasm-bindgen-cli --version "=$WB" --no-default-features
  fi
  link_tools "$home" wasm-bindgen wasm-bindgen-test-runner
}
# The compiler cache (sccache, local disk only: --no-default-features; at opt-level 1 like the
# CLI above), in $TOOLS/sccache-<version>, linked where scripts/env.sh finds it and makes it
# cargo's RUSTC_WRAPPER. A fresh clone's builds of the dependencies (arrow-rs, parquet and the
# rest: for the host's clippy, tests and wheel, and for wasm32 at each of the wasm builds'
# profiles) are then taken from the cache where the same compiler, flags and sources built them
# before; the crate itself is built as ever (incremental builds are never cached).
# ROWKEY_LAB_NO_SCCACHE=1 skips it.
SCCACHE_VERSION=0.19.0
install_sccache() {
  [ "${ROWKEY_LAB_NO_SCCACHE:-}" = 1 ] && return 0
  local home=$TOOLS/sccache-$SCCACHE_VERSION
  if [ ! -x "$home/bin/sccache" ]; then
    say "installing sccache $SCCACHE_VERSION into $home (a few minutes, once per machine)"
    RUSTC_WRAPPER= install_once "$home" sccache --version "=$SCCACHE_VERSION" --no-default-features
  fi
  link_tools "$home" sccache
}
if [ "$bindgen" = only ]; then
  install_bindgen
  exit 0
fi
install_sccache

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

[ "$bindgen" = yes ] && install_bindgen

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
