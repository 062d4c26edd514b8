#!/usr/bin/env bash
# The Python package (python/): its binding crate's format and lints, the abi3 wheel built by
# maturin and installed into the project-local .venv with pyarrow, pyspark and pytest, then its
# tests (python/tests: against the CLI on pkg/, keys computed by hand, and Spark in local mode
# against the package and Spark SQL).
# Run by scripts/test.sh after the npm package's build (the CLI the tests compare with).
# `--env`: only the set-up (Java, the virtual environment and its packages: downloads, which
# scripts/test.sh runs beside its lints); `--build`: the set-up and the wheel (scripts/test.sh
# runs it beside the lints and tests); `--lint`: only the binding crate's format and clippy (run
# there too, so that its check of arrow-rs and pyo3 is not on the run's path), then the package's
# ruff format, ruff check and mypy (PY_LINTS, installed into .venv);
# `--built`: only the tests, the wheel installed by `--build`. Arguments after the mode go to
# pytest: `--built -m "not spark"` runs the tests without a Spark session, `-m spark` those alone
# (the `spark` marker, python/tests/conftest.py, which prints each lane's count).
# `--wheel`: only the wheel users install (README.md, python/README.md): the `wheel` profile,
# into python/target/wheels/, whatever ROWKEY_LAB_TEST_BUILDS says; maturin from .venv (no Java,
# no PySpark, no tests). $MATURIN, when set, is the maturin it runs instead (the tests' stub).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
MODE=all
# The package's Python lints, pinned (`--lint`): ruff's formatter and rules, mypy against
# rowkey_lab/_engine.pyi (python/pyproject.toml configures both).
PY_LINTS=('ruff==0.17.6' 'mypy==2.4.1')

# The project's .venv made if missing and `pip install "$@"` into it, one process at a time:
# `--lint` and `--build` run side by side (scripts/test.sh) and both install into it.
venv_install() {
  mkdir -p target
  (
    flock 9
    [ -x .venv/bin/python ] || "${PYTHON:-python3}" -m venv .venv
    .venv/bin/python -m pip install --quiet "$@"
  ) 9>target/venv.lock
}
case "${1:-}" in --env | --build | --lint | --built | --wheel) MODE=${1#--}; shift ;; esac

if [ "$MODE" = wheel ]; then
  if [ -z "${MATURIN:-}" ]; then
    [ -x .venv/bin/python ] || "${PYTHON:-python3}" -m venv .venv
    .venv/bin/python -m pip install --quiet 'maturin>=1.9,<2'
    MATURIN=.venv/bin/maturin
  fi
  PYI=.venv/bin/python
  [ -x "$PYI" ] || PYI=$(command -v "${PYTHON:-python3}")
  rm -rf python/target/wheels
  # the root workspace's `wheel` profile (Cargo.toml: opt-level 3, thin LTO)
  RUSTFLAGS= "$MATURIN" build --profile wheel -m python/Cargo.toml -i "$PYI" --out python/target/wheels
  echo "the wheel: $(ls python/target/wheels/rowkey_lab-*.whl)"
  exit 0
fi

if [ "$MODE" != lint ] && [ "$MODE" != built ]; then

if ! command -v java >/dev/null 2>&1; then
  # Spark's JVM: Debian's package, as scripts/setup.sh installs Chromium for the page's tests.
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless
fi

venv_install 'maturin>=1.9,<2' 'pyarrow>=18' pytest
# PySpark's Arrow paths (toArrow, mapInArrow) want pandas, and warn it does not support 3.x yet;
# DuckDB is a second producer of Arrow streams for the tests.
venv_install 'pyspark>=4.0,<5' 'pandas>=2.2,<3' duckdb

[ "$MODE" = env ] && exit 0

# ROWKEY_LAB_TEST_BUILDS=1 (scripts/test.sh): the wheel built with the native tests' cargo profile
# `native-tests` and their empty RUSTFLAGS (the binding is a member of the root workspace), so
# that it reuses their builds of arrow-rs, parquet and the rest, into
# python/target/wheels-native-tests/; python/target/wheels/ (the README's) holds shipped wheels
# only. The profile's name goes into the environment, and the benchmarks refuse any wheel not
# built with `wheel` (scripts/shipped_wheel.py).
source scripts/env.sh
WHEEL_PROFILE=$(build_profile wheel native-tests)
WHEELS=python/target/wheels
[ "$WHEEL_PROFILE" = wheel ] || WHEELS=python/target/wheels-$WHEEL_PROFILE
rm -rf "$WHEELS"
RUSTFLAGS= .venv/bin/maturin build --profile "$WHEEL_PROFILE" -m python/Cargo.toml -i .venv/bin/python --out "$WHEELS"
.venv/bin/python -m pip install --quiet --force-reinstall --no-deps "$WHEELS"/rowkey_lab-*.whl
echo "$WHEEL_PROFILE" >.venv/rowkey-lab-wheel-profile
[ "$WHEEL_PROFILE" = wheel ] ||
  echo "a tests' wheel in $WHEELS/, not one to install: bash scripts/test-python.sh --wheel builds python/target/wheels/"
fi
[ "$MODE" = build ] && exit 0

# The binding crate is a member of the root workspace (its own lints, python/Cargo.toml): checked
# alone here, with the native tests' empty RUSTFLAGS as scripts/check.sh's host clippy, so that
# the two share their checks of arrow-rs and parquet.
if [ "$MODE" != built ]; then
  cargo fmt -p rowkey-lab-py -- --check
  # pyo3's build script asks an interpreter for its configuration: the project's, or (`--lint`
  # beside `--build`, before the virtual environment exists) the one `--build` starts from.
  PY3="$PWD/.venv/bin/python"
  [ -x "$PY3" ] || PY3=$(command -v "${PYTHON:-python3}")
  RUSTFLAGS= PYO3_PYTHON="$PY3" cargo clippy -p rowkey-lab-py --all-targets -- -D warnings
  venv_install "${PY_LINTS[@]}"
  (cd python && ../.venv/bin/ruff format --check . && ../.venv/bin/ruff check . && ../.venv/bin/mypy)
fi
[ "$MODE" = lint ] && exit 0
# From outside python/, so the tests import the installed wheel, not the source folder.
cd python/tests
ROWKEY_LAB_REQUIRE_CLI=${ROWKEY_LAB_REQUIRE_CLI-1} ../../.venv/bin/python -m pytest -q "$@" .
