"""Fixtures of the Python package's tests: designs, rows written as Parquet and CSV, and the
CLI (`node bin/rowkey-lab.mjs`, on the npm package's build in pkg/) to compare against."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_704_067_200_000  # 2024-01-01T00:00:00Z

SALTED = {
    "v": 1,
    "name": "devices",
    "fields": [
        {"name": "device", "type": "string"},
        {"name": "seq", "type": "long"},
        {"name": "ts", "type": "timestamp"},
    ],
    "key": 'salt(device, 8, as=dec(2)) + device + "#" + str(seq)',
    "regions": {"presplit": {"kind": "explicit", "keys": ["02", "04", "06"]}},
}

# Where SALTED's eight buckets start: "01" … "07" (two decimal digits).
SALTED_BOUNDS = [f"{b:02d}".encode() for b in range(1, 8)]


def salt_cut(keys, regions, bounds, weight=lambda k: 1):
    """The split keys the engine promises for `keys` cut into `regions` regions of equal
    `weight`, each salt bucket (starting at `bounds`) kept whole, computed here by hand as
    tests/engine/oracles/cut.rs states the rule: a key's bucket is how many bounds are at or below it;
    with fewer regions than buckets, region j starts at the bound whose weight ahead is nearest
    floor(j·total/regions) (the later on a tie), after the one before and leaving one for each
    region to come; otherwise every bucket starts a region, each further region goes to the
    bucket heaviest per region (the first on a tie), and a bucket of r regions starts region j
    at its first key whose running weight passes j/r of the bucket's. No empty key, no repeat,
    none at or below the smallest key before a bound."""
    s = sorted(keys)
    n, nb = regions, len(bounds) + 1
    out = []
    if n <= 1 or not s:
        return out

    def bucket(k):
        return sum(1 for b in bounds if b <= k)

    w = [0] * nb
    for k in s:
        w[bucket(k)] += weight(k)
    total = sum(w)
    if nb > n:
        prev = 0
        for j in range(1, n):
            target = j * total // n
            best = None
            for b in range(prev + 1, (nb - 1) - (n - 1 - j) + 1):
                d = abs(sum(weight(k) for k in s if k < bounds[b - 1]) - target)
                if best is None or d <= best[0]:
                    best = (d, b)
            out.append(bounds[best[1] - 1])
            prev = best[1]
        return out
    r = [1] * nb
    for _ in range(nb, n):
        top = 0
        for k in range(1, nb):
            if w[k] * r[top] > w[top] * r[k]:
                top = k
        r[top] += 1
    for k in range(nb):
        if k:
            out.append(bounds[k - 1])
        mine = [x for x in s if bucket(x) == k]
        for j in range(1, r[k]):
            running = 0
            for x in mine:
                running += weight(x)
                if running * r[k] > j * w[k]:
                    if x and x > (out[-1] if out else s[0]):
                        out.append(x)
                    break
    return out


# A key whose bytes the tests compute by hand: MD5 prefix, the text, a separator, an 8-byte
# big-endian long and a reversed timestamp (Long.MAX_VALUE - ts).
HASHED = {
    "v": 1,
    "name": "hashed",
    "fields": [
        {"name": "device", "type": "string"},
        {"name": "seq", "type": "long"},
        {"name": "ts", "type": "timestamp"},
    ],
    "key": 'md5Hex(device, 4) + device + "#" + long(seq) + revts(ts)',
}


def make_rows(n: int, seed: int = 1) -> pa.Table:
    """`n` rows: skewed devices (keys repeat), sequence numbers, times in no order."""
    import random

    r = random.Random(seed)
    devices = [f"dev-{(d * d) % 301}" for d in (r.randrange(1000) for _ in range(n))]
    seqs = [r.randrange(50) for _ in range(n)]
    ts = [T0 + r.randrange(86_400_000) for _ in range(n)]
    return pa.table(
        {
            "device": pa.array(devices, pa.string()),
            "seq": pa.array(seqs, pa.int64()),
            "ts": pa.array(ts, pa.timestamp("ms")),
            "note": pa.array([f"note {i}" for i in range(n)], pa.string()),
        }
    )


@pytest.fixture(scope="session")
def rows() -> pa.Table:
    return make_rows(3000)


@pytest.fixture(scope="session")
def files(tmp_path_factory, rows):
    """The rows as Parquet (two row groups) and the designs as JSON files."""
    d = tmp_path_factory.mktemp("rows")
    pq.write_table(rows, d / "rows.parquet", row_group_size=1200)
    for name, doc in (("salted", SALTED), ("hashed", HASHED)):
        (d / f"{name}.json").write_text(json.dumps(doc))
    return d


def _cli_ready() -> bool:
    return shutil.which("node") is not None and (ROOT / "pkg" / "node").is_dir()


@pytest.fixture(scope="session")
def cli():
    """`cli(*args, status=0)`: the CLI's stdout, its exit status checked (the npm package's build in pkg/ must be there:
    `bash scripts/build-npm.sh`)."""
    if not _cli_ready():
        if os.environ.get("ROWKEY_LAB_REQUIRE_CLI"):
            pytest.fail("the CLI needs pkg/ (bash scripts/build-npm.sh) and node")
        pytest.skip("the CLI needs pkg/ (bash scripts/build-npm.sh) and node")

    def run(*args: str, status: int = 0) -> str:
        p = subprocess.run(
            ["node", str(ROOT / "bin" / "rowkey-lab.mjs"), *map(str, args)],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert p.returncode == status, p.stderr
        return p.stdout

    return run


def pytest_configure(config):
    """The `spark` marker: the tests that start a Spark session in local mode (a JVM, seconds
    each), so that `pytest -m "not spark"` runs the rest alone and `-m spark` those alone."""
    config.addinivalue_line("markers", "spark: starts a Spark session in local mode (PySpark, Java)")


def pytest_terminal_summary(terminalreporter):
    """One count for each lane: the Spark tests' and the rest's (pytest's own line sums both; a
    file that skips itself whole at import, as the Spark files do without Java, has no tests to
    mark and is counted apart)."""
    lanes: dict[str, dict[str, int]] = {"spark": {}, "without Spark": {}, "whole files": {}}
    for status in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(status, []):
            if isinstance(report, pytest.CollectReport):
                lane = lanes["whole files"]
            else:
                lane = lanes["spark" if "spark" in report.keywords else "without Spark"]
            lane[status] = lane.get(status, 0) + 1
    for name, counts in lanes.items():
        if counts or name != "whole files":
            said = ", ".join(f"{n} {status}" for status, n in counts.items()) or "none run"
            terminalreporter.write_line(f"python tests, {name}: {said}")


def skip_without_spark():
    """Skips the calling test module (at its import) when pyspark or a Java runtime is missing."""
    pytest.importorskip("pyspark", reason="pyspark is not installed (scripts/test-python.sh installs it)")
    if shutil.which("java") is None:
        pytest.skip("Spark needs a Java runtime (openjdk-17-jre-headless)", allow_module_level=True)


def local_spark(cores: int, name: str, shuffle_partitions: int):
    """A Spark session in local mode for one test module (stop it when the module ends); its
    executors' Python workers run this interpreter (its pyarrow and rowkey_lab)."""
    import sys

    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    s = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(name)
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
        .config("spark.sql.session.timeZone", "UTC")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    return s
