#!/usr/bin/env python3
"""rowkey_lab.spark against Spark's own jobs on the same Parquet file and session (local
mode): records/s end to end of
  (a) a no-op mapInArrow over the key's columns (the JVM -> Arrow -> Python floor),
  (b) analyze_df (a scan and a partial per partition, merged on the driver),
  (c) split_points_df (exact: every key encoded, sorted by Spark, cut),
  (d) Spark's approxQuantile on a number + approx_count_distinct on the key's columns,
  (e) orderBy of the encoded key alone (written to the noop sink).
Each RUNS times after one warm-up; medians. A benchmark, not a test: figures depend on the
machine's load (printed).

    .venv/bin/python scripts/bench-spark.py [FILE] [--runs N] [--cores N]
"""

import argparse
import json
import os
import statistics
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from rowkey_lab.spark import analyze_df, encode_df, split_points_df

DESIGN = {
    "v": 1,
    "name": "Flights by tail number, then hour (benchmark)",
    "fields": [{"name": "tailnum", "type": "string"}, {"name": "time_hour", "type": "timestamp"}],
    "key": 'tailnum + "_" + time(time_hour, "yyyyMMddHH")',
    "regions": {"presplit": {"kind": "explicit", "keys": ["N3", "N5", "N7"]}},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?", default="target/bench/rows/flights-10x.parquet")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cores", type=int, default=2)
    # the file cut into partitions of this many bytes, so every core has work
    ap.add_argument("--max-partition-bytes", default="4m")
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
    df = spark.read.parquet(a.file).select("tailnum", "time_hour").where("tailnum IS NOT NULL")
    n = df.count()

    def noop(batches):
        for b in batches:
            if False:
                yield b

    jobs = {
        "a_noop_mapInArrow": lambda: df.mapInArrow(noop, df.schema).write.format("noop").mode("overwrite").save(),
        "b_analyze_df": lambda: analyze_df(df, DESIGN, time="time_hour"),
        "c_split_points_df": lambda: split_points_df(df, DESIGN, regions=64),
        "d_spark_approx": lambda: (
            df.select(F.unix_timestamp("time_hour").alias("t")).approxQuantile("t", [i / 64 for i in range(1, 64)], 0.001),
            df.agg(F.approx_count_distinct(F.concat_ws("_", "tailnum", F.date_format("time_hour", "yyyyMMddHH")))).collect(),
        ),
        "e_orderBy_key": lambda: encode_df(df, DESIGN).select("rowkey").orderBy("rowkey").write.format("noop").mode("overwrite").save(),
    }
    out = {"file": a.file, "rows": n, "cores": a.cores, "partitions": df.rdd.getNumPartitions(), "loadAverage": os.getloadavg()[0]}
    for name, job in jobs.items():
        job()  # warm-up: Python workers started, the file's pages cached
        times = []
        for _ in range(a.runs):
            t = time.perf_counter()
            job()
            times.append(time.perf_counter() - t)
        s = statistics.median(times)
        out[name] = {"seconds": round(s, 3), "rowsPerSecPerCore": round(n / s / a.cores)}
        print(name, out[name], file=sys.stderr)
    spark.stop()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
