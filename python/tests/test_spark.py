"""rowkey_lab.spark in local mode: the same keys, report and split points as the package on
the DataFrame's own rows, whatever the partitioning (1, 3, 7 partitions, empty ones, nulls),
and split points checked against Spark SQL itself (ranks over its sort, counts per region)."""

import pytest
from conftest import SALTED, SALTED_BOUNDS, local_spark, skip_without_spark

# `pytest -m "not spark"` leaves out the tests that start a Spark session (conftest.py)
pytestmark = pytest.mark.spark
skip_without_spark()

import pyarrow as pa  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402
from pyspark.sql.window import Window  # noqa: E402

import rowkey_lab as rk  # noqa: E402
from rowkey_lab.spark import analyze_df, encode_df, split_points_df  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    s = local_spark(2, "rowkey-lab-tests", shuffle_partitions=2)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def df(spark, files):
    return spark.read.parquet(str(files / "rows.parquet"))


def _rows_of(df):
    """The DataFrame's rows in partition order: what one pass over it reads."""
    return df.toArrow()


def test_encode_df_adds_the_packages_keys(df):
    out = _rows_of(encode_df(df.repartition(3), SALTED))
    assert out.schema.field("rowkey").type == pa.binary()
    assert out["rowkey"].combine_chunks().equals(rk.encode(SALTED, out.drop_columns(["rowkey"])))


def test_encode_df_on_a_table_with_a_rowkey_column_names_it_or_replaces_it(df):
    # an export of the old table carries its key as `rowkey` (here in another case: Spark
    # matches names without case by default)
    old = df.withColumn("RowKey", F.lit(b"old key"))
    with pytest.raises(rk.RowkeyLabError, match="already has a column `RowKey`") as e:
        encode_df(old, SALTED)
    assert e.value.path == "rowkey"
    # another name keeps both; overwrite=True replaces the column by the keys
    both = _rows_of(encode_df(old, SALTED, column="newkey"))
    assert both.column_names[-2:] == ["RowKey", "newkey"]
    out = _rows_of(encode_df(old, SALTED, overwrite=True))
    assert out.column_names == df.columns + ["rowkey"]
    assert out["rowkey"].combine_chunks().equals(rk.encode(SALTED, out.drop_columns(["rowkey"])))


@pytest.mark.parametrize("n", [1, 3, 7])
def test_analyze_df_is_the_one_pass_report_of_its_rows(df, n):
    # persisted: a round-robin repartition deals rows anew each time it runs, and the report's
    # key sample depends on the rows' order
    d = df.repartition(n).persist()
    d.count()
    got = analyze_df(d, SALTED, time="ts")
    assert got == rk.analyze(SALTED, _rows_of(d), time="ts")
    d.unpersist()
    # not persisted: the report of the rows in the order the analysis read them, the counts
    # those of any order
    again = analyze_df(df.repartition(n), SALTED, time="ts", persist=True)
    for r in (got, again):
        r.pop("sample")
    assert again == got


def test_analyze_df_does_not_depend_on_the_partitioning(df):
    # with a time column, every figure but the key sample (drawn by row position)
    reports = [analyze_df(df.repartition(n), SALTED, time="ts") for n in (1, 7)]
    for r in reports:
        r.pop("sample")
    assert reports[0] == reports[1]


def test_empty_partitions_and_nulls(spark):
    rows = [("d%d" % (i % 5) if i % 4 else None, i, i * 1000) for i in range(20)]
    d = spark.createDataFrame(rows, "device string, seq long, ts long").repartition(7, "seq")
    got = analyze_df(d, SALTED, time="ts", nulls="skip", epoch="ms")
    assert got == rk.analyze(SALTED, _rows_of(d), time="ts", nulls="skip", epoch="ms")
    assert got["writes"] == 15 and got["rows"]["skipped"] == {"device": 5}
    # exact mode: its partials and keys from one read, the skipped rows in neither
    assert analyze_df(d, SALTED, time="ts", nulls="skip", epoch="ms", mode="exact") == got


def test_encode_df_nulls_skip_drops_the_rows_and_error_names_the_column(spark):
    rows = [("d%d" % (i % 5) if i % 4 else None, i, i * 1000) for i in range(20)]
    d = spark.createDataFrame(rows, "device string, seq long, ts long").repartition(3, "seq")
    out = _rows_of(encode_df(d, SALTED, nulls="skip", epoch="ms"))
    # Spark's own drop of the rows with a null device: the same rows, each with its key
    kept = sorted(r["seq"] for r in d.na.drop(subset=["device"]).collect())
    assert sorted(out["seq"].to_pylist()) == kept and out.num_rows == 15
    assert out["rowkey"].null_count == 0
    assert out["rowkey"].combine_chunks().equals(rk.encode(SALTED, out.drop_columns(["rowkey"]), epoch="ms"))
    with pytest.raises(Exception, match="device"):
        encode_df(d, SALTED, epoch="ms").collect()
    with pytest.raises(ValueError):
        encode_df(d, SALTED, nulls="drop")


@pytest.mark.parametrize("regions", [2, 7, 16])
def test_split_points_df_is_the_packages_on_the_same_rows(df, regions):
    assert split_points_df(df.repartition(3), SALTED, regions=regions) == rk.split_points(
        SALTED, _rows_of(df), regions=regions
    )


def _bucket(col):
    """SALTED's salt bucket of a row key column, by Spark SQL: its first two bytes, read as a
    decimal number."""
    return F.substring(col, 1, 2).cast("string").cast("int")


def _spark_cut(keys, regions, weight):
    """Spark SQL's own cut of the sorted keys (column `rowkey`) into `regions` regions of equal
    `weight` (a column), SALTED's eight buckets kept whole as conftest.salt_cut states the
    rule: each bucket's weight summed by Spark; with at least as many regions as buckets, each
    bucket's regions (one each, then one by one to the heaviest per region) start at the first
    key whose running weight over Spark's sort of the bucket passes j/r of the bucket's; with
    fewer, at the bound whose weight ahead is nearest each share."""
    rows = keys.withColumn("w", weight).withColumn("bucket", _bucket("rowkey"))
    w = {r["bucket"]: r["w"] for r in rows.groupBy("bucket").agg(F.sum("w").alias("w")).collect()}
    w = [w.get(k, 0) for k in range(8)]
    total, n = sum(w), regions
    smallest = bytes(rows.agg(F.min("rowkey")).first()[0])
    if n < 8:
        ahead = [sum(w[:b]) for b in range(8)]
        out, prev = [], 0
        for j in range(1, n):
            t = j * total // n
            window = range(prev + 1, 7 - (n - 1 - j) + 1)
            prev = min(window, key=lambda b: (abs(ahead[b] - t), -b))
            out.append(SALTED_BOUNDS[prev - 1])
        return out
    r = [1] * 8
    for _ in range(8, n):
        r[max(range(8), key=lambda k: (w[k] / r[k], -k))] += 1
    run = Window.partitionBy("bucket").orderBy("rowkey").rowsBetween(Window.unboundedPreceding, Window.currentRow)
    ranked = rows.withColumn("run", F.sum("w").over(run))
    out = []
    for k in range(8):
        if k:
            out.append(SALTED_BOUNDS[k - 1])
        for j in range(1, r[k]):
            first = ranked.where((F.col("bucket") == k) & (F.col("run") * r[k] > j * w[k])).agg(F.min("rowkey"))
            key = bytes(first.first()[0])
            if key > (out[-1] if out else smallest):
                out.append(key)
    return out


@pytest.mark.parametrize("regions", [3, 20])
def test_split_points_against_spark_sql(df, regions):
    splits = split_points_df(df, SALTED, regions=regions)
    keys = encode_df(df, SALTED).select("rowkey")
    assert splits == _spark_cut(keys, regions, F.lit(1))
    # Spark's counts per region over those split points: every region holds one bucket's rows
    # (or whole buckets), each within the rows of one repeated key of its bucket's share
    region = sum(F.when(F.col("rowkey") >= F.lit(k), 1).otherwise(0) for k in splits)
    counted = keys.withColumn("region", region).withColumn("bucket", _bucket("rowkey"))
    per = counted.groupBy("region").agg(F.count(F.lit(1)).alias("n"), F.countDistinct("bucket").alias("b"))
    per = {r["region"]: (r["n"], r["b"]) for r in per.collect()}
    assert sum(n for n, _ in per.values()) == keys.count() and len(per) == regions
    if regions >= 8:
        assert all(b == 1 for _, b in per.values())
        heaviest = keys.groupBy("rowkey").count().agg(F.max("count")).first()[0]
        buckets = counted.groupBy("bucket").agg(F.count(F.lit(1)).alias("n"), F.countDistinct("region").alias("r"))
        share = {r["bucket"]: r["n"] / r["r"] for r in buckets.collect()}
        bucket_of = {r["region"]: r["bucket"] for r in counted.select("region", "bucket").distinct().collect()}
        for reg, (n, _) in per.items():
            assert abs(n - share[bucket_of[reg]]) <= heaviest + 1


@pytest.mark.parametrize("regions", [3, 16])
def test_split_points_df_by_bytes_is_the_packages_and_spark_sqls(df, regions):
    small = dict(SALTED, workload={"records": 1000, "valueSize": 3})
    got = split_points_df(df.repartition(3), small, regions=regions, by="bytes")
    assert got == rk.split_points(small, _rows_of(df), regions=regions, by="bytes")
    # Spark SQL's own cut: running sums of (key length + 3) over the sort of each bucket's keys
    keys = encode_df(df, small).select("rowkey")
    assert got == _spark_cut(keys, regions, F.length("rowkey") + 3)


def test_large_var_types(spark, df):
    # strings and binaries handed over with 64-bit offsets (large_string, large_binary)
    spark.conf.set("spark.sql.execution.arrow.useLargeVarTypes", "true")
    try:
        d = df.coalesce(1)
        one = rk.analyze(SALTED, _rows_of(d), time="ts")
        assert analyze_df(d, SALTED, time="ts") == one
        assert analyze_df(d, SALTED, time="ts", mode="exact") == one
        out = _rows_of(encode_df(d, SALTED))
        assert out["rowkey"].combine_chunks().cast(pa.binary()).equals(rk.encode(SALTED, out.drop_columns(["rowkey"])))
        assert split_points_df(d, SALTED, regions=5) == rk.split_points(SALTED, _rows_of(d), regions=5)
        assert split_points_df(d, SALTED, regions=5, by="bytes") == rk.split_points(
            SALTED, _rows_of(d), regions=5, by="bytes"
        )
    finally:
        spark.conf.unset("spark.sql.execution.arrow.useLargeVarTypes")


@pytest.mark.parametrize("zone", ["UTC", "America/New_York"])
def test_a_timestamp_column_in_any_session_time_zone(spark, df, zone):
    # TIMESTAMP (the first pass is Spark's own aggregation) and TIMESTAMP_NTZ (the engine's)
    spark.conf.set("spark.sql.session.timeZone", zone)
    try:
        for d in (df.withColumn("ts", F.col("ts").cast("timestamp")).coalesce(1), df.coalesce(1)):
            want = rk.analyze(SALTED, _rows_of(d), time="ts")
            assert analyze_df(d, SALTED, time="ts") == want
            assert split_points_df(d, SALTED, regions=3) == rk.split_points(SALTED, _rows_of(d), regions=3)
    finally:
        spark.conf.set("spark.sql.session.timeZone", "UTC")


def test_with_region_is_spark_sqls_count_of_split_keys_below(df):
    from rowkey_lab.spark import with_region

    splits = split_points_df(df, SALTED, regions=6)
    placed = with_region(encode_df(df, SALTED), splits)
    region = sum(F.when(F.col("rowkey") >= F.lit(k), 1).otherwise(0) for k in splits)
    assert placed.where(F.col("region") != region).count() == 0
    # a bulk load's layout: each region's rows in one partition, sorted
    parts = placed.repartition(len(splits) + 1, "region").sortWithinPartitions("rowkey")
    assert placed.select("region").distinct().count() == len(splits) + 1
    spread = parts.withColumn("p", F.spark_partition_id()).groupBy("region").agg(F.countDistinct("p").alias("k"))
    assert spread.where("k > 1").count() == 0


def _oracle(d, design, value_size):
    """Spark SQL's own recount of `d`'s rows: the 32 rows with the most bytes (writes times key
    length plus the value size; ties by key), the distinct keys, and per region of the design's
    pre-split (a key's region: the split keys at or below it)."""
    g = (
        encode_df(d, design)
        .groupBy("rowkey")
        .agg(F.count(F.lit(1)).alias("writes"))
        .withColumn("bytes", F.col("writes") * (F.length("rowkey") + value_size))
    )
    top = [
        (bytes(r.rowkey).hex(), r.writes, r.bytes)
        for r in g.orderBy(F.desc("bytes"), F.asc("rowkey")).limit(32).collect()
    ]
    splits = [k.encode() for k in design["regions"]["presplit"]["keys"]]
    region = sum((F.when(F.col("rowkey") >= F.lit(k), 1).otherwise(0) for k in splits), F.lit(0))
    per_region = {r["region"]: r["count"] for r in g.withColumn("region", region).groupBy("region").count().collect()}
    return top, g.count(), [per_region.get(i, 0) for i in range(len(splits) + 1)]


def _recounted(report):
    return (
        [(r["keyHex"], r["writes"], r["bytes"]) for r in report["largestRows"]],
        report["distinctRows"],
        [g["distinctRows"] for g in report["regions"]],
    )


SMALL = dict(SALTED, workload={"records": 1000, "valueSize": 3})


@pytest.mark.parametrize("n", [1, 3, 7])
def test_analyze_df_exact_is_spark_sqls_recount_and_the_one_pass_report(df, n):
    d = df.repartition(n).persist()
    d.count()
    exact = analyze_df(d, SMALL, time="ts", mode="exact")
    assert exact["largestRowsExact"] and exact["distinctRowsExact"]
    assert exact["distinctRowsError"] == 0
    assert _recounted(exact) == _oracle(d, SMALL, 3)
    # within the engine's cap the partials count every row too: the recount changes nothing,
    # and both are the one-pass report
    assert exact == analyze_df(d, SMALL, time="ts") == rk.analyze(SMALL, _rows_of(d), time="ts")
    d.unpersist()
    with pytest.raises(ValueError):
        analyze_df(d, SMALL, mode="approx")
    # a design whose writes name cells: refused before any job (a recount of rows knows no
    # versions of cells)
    cells = dict(
        SMALL, cells={"qualifier": {"kind": "timeOffset", "field": "ts", "rangeMs": 3600000, "resolutionMs": 1000}}
    )
    with pytest.raises(rk.RowkeyLabError) as e:
        analyze_df(d, cells, time="ts", mode="exact")
    assert e.value.path == "/cells"


def test_analyze_df_exact_cuts_a_presplit_at_the_rows_by_sparks_sort(df):
    # regions at the quantiles of the rows' own keys: one pass keeps every key (up to a
    # million) and cuts them; exact mode has Spark sort every key and cuts them alike
    quant = dict(SMALL, regions={"presplit": {"kind": "sampleQuantiles", "regions": 6}})
    d = df.repartition(3).persist()
    d.count()
    got = analyze_df(d, quant, time="ts", mode="exact")
    assert got == rk.analyze(quant, _rows_of(d), time="ts")
    assert len(got["regions"]) == 6
    # sketch mode's partials never see every key: refused at the pre-split, before any job
    with pytest.raises(rk.RowkeyLabError) as e:
        analyze_df(d, quant, time="ts")
    assert e.value.path == "/regions/presplit"
    # by bytes: Spark's sort cut by bytes, as one pass cuts it (it was cut by rows, issue 71);
    # 12 regions over 8 buckets cut inside buckets, where the two differ on these rows
    by_bytes = dict(SMALL, regions={"presplit": {"kind": "sampleQuantiles", "regions": 12, "by": "bytes"}})
    got = analyze_df(d, by_bytes, time="ts", mode="exact")
    assert got == rk.analyze(by_bytes, _rows_of(d), time="ts")
    cut = [k.hex() for k in rk.split_points(SMALL, _rows_of(d), 12, "bytes")]
    assert got["presplitKeysHex"] == cut != [k.hex() for k in rk.split_points(SMALL, _rows_of(d), 12)]
    d.unpersist()


WIDE = {
    "v": 1,
    "name": "wide",
    "fields": [{"name": "device", "type": "string"}, {"name": "ts", "type": "timestamp"}],
    "key": 'salt(device, 8, as=dec(2)) + fixed(device, 1000) + "#"',
    "regions": {"presplit": {"kind": "explicit", "keys": ["02", "04", "06"]}},
    "workload": {"records": 1000, "valueSize": 10},
}


def test_analyze_df_exact_past_the_cap_is_spark_sqls_recount_where_the_sketch_is_not(spark):
    # 80,000 writes into about 40,000 rows of 1,003-byte keys (1 to 8 writes each, most 1 to
    # 4): past the engine's 32 MiB of exactly counted keys, so the partials carry sketches
    rows = (
        spark.range(80_000, numPartitions=3)
        .withColumn("device", F.concat(F.lit("dev-"), F.pmod(F.xxhash64("id"), F.lit(50_000)).cast("string")))
        .withColumn("ts", F.timestamp_millis(F.lit(1_704_067_200_000) + F.col("id")))
        .drop("id")
    )
    sketch = analyze_df(rows, WIDE, time="ts")
    assert not sketch["largestRowsExact"] and not sketch["distinctRowsExact"]
    exact = analyze_df(rows, WIDE, time="ts", mode="exact")
    assert exact["largestRowsExact"] and exact["distinctRowsExact"]
    want = _oracle(rows, WIDE, 10)
    assert _recounted(exact) == want
    assert _recounted(sketch) != want
    assert all(r["writesError"] == 0 and r["bytesError"] == 0 for r in exact["largestRows"])
    # every other figure is the sketches' report's
    for r in (sketch, exact):
        for k in (
            "largestRows",
            "largestRowsExact",
            "distinctRows",
            "distinctRowsError",
            "distinctRowsExact",
            "regions",
            "servers",
            "diagnosis",
            "writesShareRows",
        ):
            r.pop(k)
    assert exact == sketch


def _past_the_cap(spark, devices):
    """1,100,000 rows, past the engine's 1,048,576 exactly counted rows, over `devices` devices,
    each row a millisecond after the last."""
    return (
        spark.range(1_100_000, numPartitions=3)
        .withColumn("device", F.concat(F.lit("d"), F.pmod(F.col("id"), F.lit(devices)).cast("string")))
        .withColumn("ts", F.timestamp_millis(F.lit(1_704_067_200_000) + F.col("id")))
        .drop("id")
    )


def _device_design(key):
    return {
        "v": 1,
        "fields": [{"name": "device", "type": "string"}, {"name": "ts", "type": "timestamp"}],
        "key": key,
        "regions": {"presplit": {"kind": "explicit", "keys": ["d2", "d5", "d8"]}},
    }


def test_analyze_df_past_the_cap_in_rows_but_not_in_distinct_rows_counts_them_exactly(spark):
    # more rows than the cap, 5,000 distinct: one pass counts every row exactly, and so must
    # the sketch mode (its partials without exact counts first, then again with them)
    rows = _past_the_cap(spark, 5_000)
    design = _device_design("device")
    got = analyze_df(rows, design, time="ts")
    assert got["distinctRowsExact"] and got["largestRowsExact"] and got["distinctRows"] == 5_000
    assert got == rk.analyze(design, _rows_of(rows), time="ts")


def test_analyze_df_past_the_cap_in_distinct_rows_is_the_one_pass_report_but_its_largest_rows(spark):
    # every row its own: one pass drops its exact counts at the cap, the partials never carry
    # them; every figure but the largest rows (the chunks' sketches merged, estimates with their
    # bounds) is the one pass's
    rows = _past_the_cap(spark, 5_000)
    design = _device_design('device + "#" + time(ts, "yyyyMMddHHmmssSSS")')
    got = analyze_df(rows, design, time="ts")
    want = rk.analyze(design, _rows_of(rows), time="ts")
    assert not got["distinctRowsExact"] and not got["largestRowsExact"]
    assert all(r["writesError"] > 0 for r in got["largestRows"])
    got.pop("largestRows")
    want.pop("largestRows")
    assert got == want


def test_the_packages_functions_take_a_spark_dataframe(df):
    # rk.* where the README says a table goes: a Spark DataFrame is run by rowkey_lab.spark
    # (its rows stay on the executors; encode collects the keys alone)
    rows = _rows_of(df)
    assert rk.encode(SALTED, df).equals(rk.encode(SALTED, rows))
    assert rk.analyze(SALTED, df, time="ts") == rk.analyze(SALTED, rows, time="ts")
    assert rk.split_points(SALTED, df, regions=8) == rk.split_points(SALTED, rows, regions=8)
    assert rk.split_points(SALTED, df, 8, by="bytes") == rk.split_points(SALTED, rows, 8, by="bytes")
    # from_rows reads the DataFrame's schema alone, as Spark hands its rows to Arrow
    key_only = {k: v for k, v in SALTED.items() if k != "fields"}
    assert rk.Design.from_rows(key_only, df) == rk.Design.from_rows(key_only, rows)


def test_a_design_that_is_just_a_key_on_spark(df):
    # declared once, on the driver, from the DataFrame's columns: every executor reads one design
    key_only = rk.Design.from_json({k: v for k, v in SALTED.items() if k != "fields"})
    rows = _rows_of(df)
    assert analyze_df(df, key_only, time="ts") == rk.analyze(key_only, rows, time="ts")
    assert split_points_df(df, key_only, regions=8) == rk.split_points(key_only, rows, regions=8)
    out = _rows_of(encode_df(df, key_only))
    assert out["rowkey"].combine_chunks().equals(rk.encode(SALTED, rows))


def test_life_over_a_dataframe_is_life_over_its_rows_and_samples_a_large_one(df, monkeypatch):
    # the months of a DataFrame's rows are those of the same rows as Arrow
    want = rk.life(SALTED, 2, servers=3, data=_rows_of(df), time="ts")
    got = rk.life(SALTED, 2, servers=3, data=df, time="ts")
    assert got == want
    # past the bound the rows are sampled in Spark before they reach the driver
    monkeypatch.setattr(rk, "SPARK_LIFE_ROWS", 1000)
    note = next(n for n in rk.life(SALTED, 1, data=df, time="ts")["notes"] if n.startswith("the user's rows"))
    n = int(note.split("keys from all ")[1].split(" rows")[0])
    assert 0 < n <= 1000 < df.count(), note
