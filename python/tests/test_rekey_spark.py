"""rekey_df in Spark local mode, then verify (issue 59): the old rows, keyed time-first, moved
to the salted design's table. Each partition of the output is exactly one region of the new
table, sorted by the new key; every row keeps its fields and its timestamp; the keys are the
package's; the rows per region are what `rowkey-lab rekey` sizes the job with; and `rowkey-lab
verify` finds the old rows and the rekeyed ones equal, and names a dropped row and a reset
timestamp by their new keys."""

from __future__ import annotations

import json
import subprocess
from collections import Counter

import pyarrow.parquet as pq
import pytest
from conftest import ROOT, SALTED, local_spark, skip_without_spark

# `pytest -m "not spark"` leaves out the tests that start a Spark session (conftest.py)
pytestmark = pytest.mark.spark
skip_without_spark()

from pyspark.sql import functions as F  # noqa: E402

import rowkey_lab as rk  # noqa: E402
from rowkey_lab._spark_rekey import _murmur3_int  # noqa: E402
from rowkey_lab.spark import rekey_df, split_points_df, verify_df  # noqa: E402

OLD = {**SALTED, "name": "devices, time first", "key": 'long(ts) + device + "#" + str(seq)'}
OLD.pop("regions")
SPLITS = [b"02", b"04", b"06"]


@pytest.fixture(scope="module")
def spark():
    s = local_spark(2, "rowkey-lab-rekey", shuffle_partitions=2)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def df(spark, files):
    return spark.read.parquet(str(files / "rows.parquet"))


def _cli(*args):
    return subprocess.run(
        ["node", str(ROOT / "bin" / "rowkey-lab.mjs"), *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )


def test_spark_hashes_ints_as_the_partitioner_does(spark):
    # the values rekey_df picks land where Spark's own hash puts them
    got = spark.range(200).select(F.col("id").cast("int").alias("v"), F.hash(F.col("id").cast("int")).alias("h"))
    for r in got.collect():
        assert _murmur3_int(r.v) == r.h


def test_each_partition_is_one_region_sorted_with_its_fields_and_times(df, rows, tmp_path, files, cli):
    rekeyed, keys = rekey_df(df, SALTED, split_keys=SPLITS)
    assert keys == SPLITS
    got = rekeyed.withColumn("pid", F.spark_partition_id()).collect()
    assert rekeyed.rdd.getNumPartitions() == 4
    per = Counter()
    last = {}
    for r in got:
        assert r.pid == r.region, "partition i is region i"
        k = bytes(r.rowkey)
        assert last.get(r.pid, b"") <= k, "sorted by the new key within the region"
        last[r.pid] = k
        lo = SPLITS[r.region - 1] if r.region else b""
        hi = SPLITS[r.region] if r.region < len(SPLITS) else None
        assert lo <= k and (hi is None or k < hi), "the key is in its region's range"
        per[r.region] += 1
    # every old row, its fields and timestamp as they were, under the package's key
    want = Counter((d, s, t, n) for d, s, t, n in zip(*(rows.column(c).to_pylist() for c in rows.column_names)))
    assert Counter((r.device, r.seq, r.ts, r.note) for r in got) == want
    package = Counter(bytes(k) for k in rk.encode(rk.Design.from_json(SALTED), rows).to_pylist())
    assert Counter(bytes(r.rowkey) for r in got) == package
    # the job sizing's rows per region are these partitions' rows
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    plan = json.loads(
        cli("rekey", tmp_path / "old.json", files / "salted.json", "--records", files / "rows.parquet", "--json")
    )
    assert [r["rows"] for r in plan["regions"]] == [per[i] for i in range(4)]
    assert [bytes.fromhex(k["hex"]) for k in plan["splitKeys"]] == SPLITS


def test_cut_at_the_rows_by_bytes(df):
    rekeyed, keys = rekey_df(df, SALTED, regions=5, by="bytes")
    assert keys == split_points_df(df, SALTED, 5, "bytes")
    assert rekeyed.rdd.getNumPartitions() == 5
    with pytest.raises(ValueError, match="regions=N"):
        rekey_df(df, SALTED)


def test_rk_rekey_on_a_dataframe_is_the_tables_plan(df, rows):
    # issue 71: a DataFrame's two reports (analyze_df, the new design cut by the engine's
    # cut_at_rows) planned by the engine's rekey_rows_plan: the plan the table's rows give
    for kw in ({"regions": 12, "by": "bytes"}, {"regions": 4}, {}):
        assert rk.rekey(OLD, SALTED, df, **kw) == rk.rekey(OLD, SALTED, rows, **kw), kw


def test_verify_finds_the_rekeyed_table_equal_and_names_what_was_lost(df, rows, tmp_path, files):
    rekeyed, _ = rekey_df(df, SALTED, split_keys=SPLITS)
    out = rekeyed.drop("rowkey", "region").toArrow()
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    new_rows = tmp_path / "new.parquet"
    pq.write_table(out, new_rows)
    args = ["verify", tmp_path / "old.json", files / "salted.json", "--old-rows", files / "rows.parquet"]
    ok = _cli(*args, "--new-rows", new_rows, "--json")
    assert ok.returncode == 0, ok.stderr
    r = json.loads(ok.stdout)
    assert (r["equal"], r["oldRows"], r["newRows"]) == (True, rows.num_rows, rows.num_rows)
    # a row lost in the load, and a timestamp reset (a bulkLoad that stamps one time)
    lost = out.slice(1, out.num_rows - 1)
    pq.write_table(lost, tmp_path / "lost.parquet")
    r = json.loads(_cli(*args, "--new-rows", tmp_path / "lost.parquet", "--json").stdout)
    assert (r["missing"], r["extra"], r["changed"]) == (1, 0, 0)
    first = out.slice(0, 1).to_pylist()[0]
    key = rk.encode(rk.Design.from_json(SALTED), out.slice(0, 1)).to_pylist()[0]
    assert r["first"][0]["key"] == rk.to_string_binary(bytes(key))
    # the reset timestamp changes the row's key here (the key holds no time) only through its
    # fields: the same key, other cells
    import pyarrow as pa

    ts = out.column("ts").to_pylist()
    ts[5] = ts[5].replace(year=2030)
    reset = out.set_column(out.column_names.index("ts"), "ts", pa.array(ts, out.schema.field("ts").type))
    pq.write_table(reset, tmp_path / "reset.parquet")
    r = json.loads(_cli(*args, "--new-rows", tmp_path / "reset.parquet", "--json").stdout)
    assert (r["missing"], r["extra"], r["changed"]) == (0, 0, 1), r
    assert first is not None


# The new design with the rows' `note` as a field beside the key's: a cell the verifier digests.
NOTED = {**SALTED, "fields": SALTED["fields"] + [{"name": "note", "type": "string"}]}


def _one(df, note, column, value):
    """``df`` with ``column`` set to ``value`` in the row whose note is ``note``."""
    return df.withColumn(column, F.when(F.col("note") == note, F.lit(value)).otherwise(F.col(column)))


def test_verify_df_is_the_clis_verdict_and_names_each_mutation(df, rows, tmp_path, files):
    rekeyed, _ = rekey_df(df, NOTED, split_keys=SPLITS)
    new = rekeyed.drop("rowkey", "region").repartition(3)
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    (tmp_path / "new.json").write_text(json.dumps(NOTED))
    n = rows.num_rows

    def both(new_df, name):
        """verify_df's verdict, and the CLI's on the same rows exported."""
        got = verify_df(df.repartition(2), new_df, OLD, NOTED)
        pq.write_table(new_df.toArrow(), tmp_path / name)
        args = ["verify", tmp_path / "old.json", tmp_path / "new.json", "--old-rows", files / "rows.parquet"]
        cli = json.loads(_cli(*args, "--new-rows", tmp_path / name, "--json").stdout)
        # each side's types as its source says them: Spark hands timestamps over in µs where
        # the Parquet file holds ms; the columns and the types compared as are the same
        for r in (got, cli):
            r["compared"] = [{k: c[k] for k in ("column", "as")} for c in r["compared"]]
        assert got == cli
        return got

    r = both(new, "same.parquet")
    assert (r["equal"], r["oldRows"], r["newRows"], r["first"]) == (True, n, n, [])
    target = rows.slice(7, 1)
    note = target.column("note")[0].as_py()
    key = rk.to_string_binary(bytes(rk.encode(NOTED, target)[0].as_py()))
    # a row lost in the load, a cell changed, a timestamp reset (the key holds no time)
    for mutated, name, counts, kind in [
        (new.filter(F.col("note") != note), "dropped.parquet", (1, 0, 0), "missing"),
        (_one(new, note, "note", "other note"), "changed.parquet", (0, 0, 1), "changed"),
        (_one(new, note, "ts", F.lit("2030-01-01 00:00:00").cast("timestamp")), "reset.parquet", (0, 0, 1), "changed"),
    ]:
        r = both(mutated, name)
        assert (r["missing"], r["extra"], r["changed"]) == counts, name
        assert not r["equal"] and [(d["kind"], d["key"]) for d in r["first"]] == [(kind, key)], name


def test_verify_df_in_rounds_that_fit_a_small_driver_is_exact(df, rows):
    # every 7th row lost and every 11th note changed: every bucket differs; held in rounds of
    # at most 4 kB of rows, the verdict is the one-round verdict, and counts the test's own
    rekeyed, _ = rekey_df(df, NOTED, split_keys=SPLITS)
    new = rekeyed.drop("rowkey", "region")
    notes = rows.column("note").to_pylist()
    assert len(set(notes)) == len(notes)
    lost = {n for i, n in enumerate(notes) if i % 7 == 0}
    changed = {n for i, n in enumerate(notes) if i % 11 == 0} - lost
    new = new.filter(~F.col("note").isin(list(lost)))
    new = new.withColumn("note", F.when(F.col("note").isin(list(changed)), F.lit("x")).otherwise(F.col("note")))
    one = verify_df(df, new, OLD, NOTED)
    small = verify_df(df, new, OLD, NOTED, max_held=4096)
    assert small == one
    assert (one["missing"], one["extra"], one["changed"]) == (len(lost), 0, len(changed))
    assert one["complete"] and not one["equal"]


def test_verify_df_compares_every_column_not_only_the_designs(df, rows):
    # issue 68 item 1: SALTED does not declare `note`; a note changed in the move is still a
    # changed row, a note column dropped is named, and `ignore` says it is expected
    rekeyed, _ = rekey_df(df, SALTED, split_keys=SPLITS)
    new = rekeyed.drop("rowkey", "region")
    note = rows.slice(7, 1).column("note")[0].as_py()
    r = verify_df(df, _one(new, note, "note", "other note"), OLD, SALTED)
    assert (r["missing"], r["extra"], r["changed"], r["equal"]) == (0, 0, 1, False), r
    assert [c["column"] for c in r["compared"]] == ["device", "seq", "ts", "note"]
    r = verify_df(df, new.drop("note"), OLD, SALTED)
    assert (r["onlyOld"], r["equal"]) == (["note"], False), r
    r = verify_df(df, new.drop("note"), OLD, SALTED, ignore=["note"])
    assert r["equal"] and r["ignored"] == [{"column": "note", "why": "--ignore"}], r
    # a type changed: the sequence number as text on the new side, compared as text
    r = verify_df(df, new.withColumn("seq", F.col("seq").cast("string")), OLD, SALTED)
    assert r["equal"], r


def test_a_column_of_the_rows_is_never_taken_for_an_internal_one(df):
    # a column named as rekey_df's partitioning column is kept, values and all
    own = df.withColumn("_rekey_part", F.lit("mine"))
    rekeyed, _ = rekey_df(own, SALTED, split_keys=SPLITS)
    assert "_rekey_part" in rekeyed.columns
    assert {r[0] for r in rekeyed.select("_rekey_part").distinct().collect()} == {"mine"}
    assert rekeyed.count() == df.count()
    # a column named as the region column is refused, named, not made ambiguous
    with pytest.raises(ValueError, match="already have a column 'region'"):
        rekey_df(df.withColumn("region", F.lit(1)), SALTED, split_keys=SPLITS)
