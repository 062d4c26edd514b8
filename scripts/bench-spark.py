#!/usr/bin/env python3
"""rowkey_lab.spark against Spark's own jobs on the same Parquet file and session (local
mode): records/s end to end of
  (a) a no-op mapInArrow over the key's columns (the JVM -> Arrow -> Python floor),
  (b) analyze_df (a scan and a partial per partition, merged on the driver),
  (c) split_points_df (exact: every key encoded, sorted by Spark, cut),
  (c2) analyze_df mode="exact" (the scan, then each partition's partial and keys from one read,
       the keys grouped by Spark and recounted),
  (d) Spark's approxQuantile on a number + approx_count_distinct on the key's columns,
  (e) orderBy of the encoded key alone (written to the noop sink);
and, in a session of its own, the Python worker's peak memory counting a partition of the rows
once and four times over, and the partial's bytes.
Each RUNS times after one warm-up; medians. A benchmark, not a test: figures depend on the
machine's load (printed). The result goes to target/bench/spark.json (OUT), which
`node scripts/bench-table.mjs` folds into docs/BENCHMARKS.md.

    .venv/bin/python scripts/bench-spark.py [FILE] [--runs N] [--cores N] [--out OUT] [--only a,b]
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

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from rowkey_lab.spark import analyze_df, encode_df, split_points_df
from shipped_wheel import require_shipped_wheel

DESIGN = {
    "v": 1,
    "name": "Flights by tail number, then hour (benchmark)",
    "fields": [{"name": "tailnum", "type": "string"}, {"name": "time_hour", "type": "timestamp"}],
    "key": 'tailnum + "_" + time(time_hour, "yyyyMMddHH")',
    "regions": {"presplit": {"kind": "explicit", "keys": ["N3", "N5", "N7"]}},
}


def main():
    require_shipped_wheel()
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default="target/bench/rows/flights-10x.parquet")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cores", type=int, default=2)
    # the file cut into partitions of this many bytes, so every core has work
    ap.add_argument("--max-partition-bytes", default="4m")
    ap.add_argument("--out", default="target/bench/spark.json")
    # some jobs only (their names' first part, e.g. "a,b,c2", or "memory"), to compare two builds
    # quickly (written to another --out)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master(f"local[{a.cores}]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(a.cores * 2))
        .config("spark.driver.memory", "2g")
        .config("spark.sql.files.maxPartitionBytes", a.max_partition_bytes)
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.read.parquet(spark_readable(a.file, Path(a.out).parent)).select("tailnum", "time_hour").where("tailnum IS NOT NULL")
    n = df.count()

    def noop(batches):
        for b in batches:
            if False:
                yield b

    jobs = {
        "a_noop_mapInArrow": lambda: df.mapInArrow(noop, df.schema).write.format("noop").mode("overwrite").save(),
        "b_analyze_df": lambda: analyze_df(df, DESIGN, time="time_hour"),
        "c_split_points_df": lambda: split_points_df(df, DESIGN, regions=64),
        "c2_analyze_df_exact": lambda: analyze_df(df, DESIGN, time="time_hour", mode="exact"),
        "d_spark_approx": lambda: (
            df.select(F.unix_timestamp("time_hour").alias("t")).approxQuantile("t", [i / 64 for i in range(1, 64)], 0.001),
            df.agg(F.approx_count_distinct(F.concat_ws("_", "tailnum", F.date_format("time_hour", "yyyyMMddHH")))).collect(),
        ),
        "e_orderBy_key": lambda: encode_df(df, DESIGN).select("rowkey").orderBy("rowkey").write.format("noop").mode("overwrite").save(),
    }
    root = Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
    out = {
        "command": " ".join([".venv/bin/python", "scripts/bench-spark.py", *sys.argv[1:]]),
        "date": datetime.date.today().isoformat(),
        "commit": commit,
        "machine": machine(),
        "spark": spark.version,
        "file": os.path.basename(a.file),
        "rows": n,
        "cores": a.cores,
        "runs": a.runs,
        "partitions": df.rdd.getNumPartitions(),
        "loadAverage": round(os.getloadavg()[0], 2),
        "jobs": {},
    }
    only = [o for o in a.only.split(",") if o]
    for name, job in jobs.items():
        if only and not any(name.split("_")[0] == o for o in only):
            continue
        job()  # warm-up: Python workers started, the file's pages cached
        times = []
        for _ in range(a.runs):
            t = time.perf_counter()
            job()
            times.append(time.perf_counter() - t)
        s = statistics.median(times)
        out["jobs"][name] = {"seconds": round(s, 3), "rowsPerSecPerCore": round(n / s / a.cores)}
        print(name, out["jobs"][name], file=sys.stderr)
    out["loadAverageAfter"] = round(os.getloadavg()[0], 2)
    spark.stop()
    if not only or "memory" in only:
        out["memory"] = memory(spark_readable(a.file, Path(a.out).parent), a.cores)
        print("memory", out["memory"], file=sys.stderr)
    text = json.dumps(out, indent=2)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(text + "\n")
    print(text)


def memory(file: str, cores: int) -> dict:
    """The Python worker's peak memory while it counts a partition, and the partial's bytes:
    in a session of its own where every task gets a fresh worker (no reuse), so a task's
    ``ru_maxrss`` is its own. The rows once and four times over, in one partition per core (a
    partition grows with the rows); each partition counted as ``analyze_df`` counts it past the
    engine's cap in rows (its batches streamed into the engine, no exact row counts), beside a
    task that only reads the same batches (the worker's floor)."""
    from rowkey_lab._spark import _design, _options, _placed, _rows, _spark_scans

    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .config("spark.python.worker.reuse", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    base = spark.read.parquet(file).select("tailnum", "time_hour").where("tailnum IS NOT NULL")
    d, rows, opts = _design(DESIGN), _rows("time_hour", None, None, None), _options(None, None)
    result = {}
    for copies in (1, 4):
        df = base
        for _ in range(copies - 1):
            df = df.unionAll(base)
        df = df.coalesce(cores)
        table, first, at = _placed(sorted(_spark_scans(df, "time_hour")))

        def count(batches, floor=False):
            import resource

            import pyarrow as pa

            from rowkey_lab import _engine as engine
            from rowkey_lab._spark import _partition_id, _stream

            stream = _stream(batches)
            if stream is None:
                return
            if floor:
                for _ in stream:
                    pass
                size = 0
            else:
                size = len(engine.partial(d, stream, table, first[_partition_id()], opts, rows, True))
            kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            yield pa.RecordBatch.from_pydict({"bytes": [size], "kib": [kib]})

        counted = df.mapInArrow(count, "bytes long, kib long").collect()
        floor = df.mapInArrow(lambda b: count(b, True), "bytes long, kib long").collect()
        result[f"x{copies}"] = {
            "rows": at,
            "rowsPerPartition": at // cores,
            "peakMiB": round(max(r["kib"] for r in counted) / 1024, 1),
            "floorMiB": round(max(r["kib"] for r in floor) / 1024, 1),
            "partialBytes": max(r["bytes"] for r in counted),
        }
    spark.stop()
    return result


def spark_readable(file: str, cache: Path) -> str:
    """`file`, or a copy of it with its nanosecond timestamps as microseconds (Spark reads no
    TIMESTAMP(NANOS); pandas writes them) and the same row groups, made once in `cache`."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    f = pq.ParquetFile(file)
    if not any(pa.types.is_timestamp(t.type) and t.type.unit == "ns" for t in f.schema_arrow):
        return file
    copy = cache / "rows" / (Path(file).stem + "-us.parquet")
    if not copy.exists() or copy.stat().st_mtime < Path(file).stat().st_mtime:
        copy.parent.mkdir(parents=True, exist_ok=True)
        rows = f.metadata.row_group(0).num_rows if f.metadata.num_row_groups else None
        pq.write_table(f.read(), copy, row_group_size=rows, coerce_timestamps="us")
    return str(copy)


def machine() -> str:
    """The machine as the other benches name it: vCPUs and the CPU's model."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{os.cpu_count()} vCPU {model}".strip()


if __name__ == "__main__":
    main()
