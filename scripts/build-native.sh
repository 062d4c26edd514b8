#!/usr/bin/env bash
# The native engine for Node (node/, a Node-API addon through napi-rs) as this platform's npm
# package, rowkey-lab-<platform> (pkg/native/<platform>/: package.json and rowkey_lab.node), which
# the package's Node entry loads when it is installed (npm/node/engine.js), the wasm build being
# the fallback. Other platforms: the same script on their machines (the suffix is Node's
# `${process.platform}-${process.arch}`, `-gnu` / `-musl` on Linux).
#
# The cargo build is the Python wheel's (the root workspace's `wheel` profile: opt-level 3, thin
# LTO, empty RUSTFLAGS), so the two share the engine's dependencies; with ROWKEY_LAB_TEST_BUILDS=1
# (scripts/test.sh) the native tests' (`native-tests`), whose build of the engine and of arrow-rs
# and parquet it reuses. The profile's name goes to DIR/.profile; the benchmarks refuse the
# tests' (scripts/shipped-build.mjs).
# Usage: build-native.sh [DIR]   (the platform package into DIR/<platform>/; DIR is pkg/native)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
profile=$(build_profile wheel native-tests)
RUSTFLAGS= cargo build --lib --profile "$profile" -p rowkey-lab-node
platform=$(node -p "process.platform + '-' + process.arch + (process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-gnu' : '-musl') : '')")
dir=${1:-pkg/native}
out=$dir/$platform
version=$(node -p "require('./package.json').version")
case "$(uname -s)" in Darwin) lib=librowkey_lab_node.dylib ;; MINGW* | MSYS* | CYGWIN*) lib=rowkey_lab_node.dll ;; *) lib=librowkey_lab_node.so ;; esac
rm -rf "$out"
mkdir -p "$out"
cp "${CARGO_TARGET_DIR:-target}/$profile/$lib" "$out/rowkey_lab.node"
os=${platform%%-*}
rest=${platform#*-}
cpu=${rest%%-*}
libc=
case "$platform" in *-gnu) libc=', "libc": ["glibc"]' ;; *-musl) libc=', "libc": ["musl"]' ;; esac
cat >"$out/package.json" <<JSON
{
  "name": "rowkey-lab-$platform",
  "version": "$version",
  "description": "The native engine of rowkey-lab for $platform (a Node-API addon), loaded by the rowkey-lab package when installed.",
  "license": "Apache-2.0",
  "os": ["$os"],
  "cpu": ["$cpu"]$libc,
  "main": "rowkey_lab.node",
  "files": ["rowkey_lab.node"]
}
JSON
echo "$profile" >"$dir/.profile"
echo "[build-native] $out/rowkey_lab.node: $(stat -c %s "$out/rowkey_lab.node") bytes ($profile)" >&2
