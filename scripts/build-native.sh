#!/usr/bin/env bash
# The native engine for Node (node/, a Node-API addon through napi-rs) as this platform's npm
# package, rowkey-lab-<platform> (pkg/native/<platform>/: package.json and rowkey_lab.node), which
# the package's Node entry loads when it is installed (npm/node/engine.js), the wasm build being
# the fallback. Other platforms: the same script on their machines (the suffix is Node's
# `${process.platform}-${process.arch}`, `-gnu` / `-musl` on Linux).
#
# The cargo build is the native benchmarks' (`bench`: opt-level 3, fat LTO, one codegen unit,
# .cargo/config.toml's inline threshold), so the package under Node runs the engine as the bench
# binary does: `analyzeDesign` at 0.97x / 0.99x of it (String.hashCode / MD5 buckets) against
# 0.95x / 0.89x when it shared the Python wheel's build (`wheel`: thin LTO, empty RUSTFLAGS;
# scripts/bench-node.mjs, 2026-11-29). From a clean target directory that is minutes more of
# one core's link; `cargo bench` reuses it. With ROWKEY_LAB_TEST_BUILDS=1 (scripts/test.sh) the
# native tests' (`native-tests`, empty RUSTFLAGS), whose build of the engine and of arrow-rs and
# parquet it reuses. The profile's name goes to DIR/.profile; the benchmarks refuse the tests'
# (scripts/shipped-build.mjs).
# Usage: build-native.sh [DIR]   (the platform package into DIR/<platform>/; DIR is pkg/native)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$ROOT"
profile=$(build_profile bench native-tests)
if test_builds; then
  RUSTFLAGS= cargo build --lib --profile "$profile" -p rowkey-lab-node
else
  cargo build --lib --profile "$profile" -p rowkey-lab-node
fi
platform=$(node -p "process.platform + '-' + process.arch + (process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-gnu' : '-musl') : '')")
dir=${1:-pkg/native}
out=$dir/$platform
version=$(node -p "require('./package.json').version")
case "$(uname -s)" in Darwin) lib=librowkey_lab_node.dylib ;; MINGW* | MSYS* | CYGWIN*) lib=rowkey_lab_node.dll ;; *) lib=librowkey_lab_node.so ;; esac
rm -rf "$out"
mkdir -p "$out"
# cargo writes the `bench` profile's output under release/
dir_of_profile=$profile
[ "$profile" = bench ] && dir_of_profile=release
cp "${CARGO_TARGET_DIR:-target}/$dir_of_profile/$lib" "$out/rowkey_lab.node"
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
