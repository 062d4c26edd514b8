"""Phoenix indexes on a Spark DataFrame (issue 69): ``with_index_key`` adds each row's key in an
index's table, the bytes ``rk.index_keys`` gives on the same rows; ``analyze_df`` reports each
index as ``rk.analyze`` does over the DataFrame's rows, whatever the partitioning."""

import pathlib

import pytest
from conftest import local_spark, skip_without_spark

pytestmark = pytest.mark.spark
skip_without_spark()

import rowkey_lab as rk  # noqa: E402
from rowkey_lab.spark import analyze_df, with_index_key  # noqa: E402

FIX = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "phoenix-orders"


@pytest.fixture(scope="module")
def spark():
    s = local_spark(2, "rowkey-lab-index-rows", shuffle_partitions=2)
    yield s
    s.stop()


@pytest.fixture(scope="module")
def df(spark):
    return spark.read.parquet(str(FIX / "orders.parquet"))


def design() -> rk.Design:
    return rk.Design.from_sql((FIX / "orders.sql").read_text())


def test_with_index_key_is_rk_index_keys_for_every_row(df):
    for name in ("BY_TIME", "BY_CUSTOMER", "BY_TIME_LOCAL"):
        out = with_index_key(df.repartition(3), design(), name).toArrow()
        rows = out.drop_columns(["indexkey"])
        assert out["indexkey"].combine_chunks().equals(rk.index_keys(design(), rows, name)), name
    with pytest.raises(rk.RowkeyLabError, match="no index `NOPE`"):
        with_index_key(df, design(), "NOPE")


@pytest.mark.parametrize("n", [1, 3])
def test_analyze_df_reports_each_index_as_rk_analyze(df, n):
    part = df.repartition(n).persist()
    try:
        got = analyze_df(part, design(), time="CREATED_AT", windows=10)
        want = rk.analyze(design(), part.toArrow(), time="CREATED_AT", windows=10)
    finally:
        part.unpersist()
    assert [x["name"] for x in got["indexes"]] == ["BY_TIME", "BY_CUSTOMER", "BY_TIME_LOCAL"]
    time = got["indexes"][0]["report"]
    assert [g["writes"] for g in time["regions"]] == [50] * 10
    # with a time column every figure but the key sample is the same for any partitioning
    for g, w in zip(got["indexes"], want["indexes"]):
        for k in ("regionsOfItsOwn", "busiestShare", "maxBusiestShare", "hotspotFactor", "bytes"):
            assert g[k] == w[k], (g["name"], k)


def test_analyze_df_exact_counts_each_index_table_s_rows_exactly(df):
    part = df.repartition(3).persist()
    try:
        got = analyze_df(part, design(), time="CREATED_AT", windows=10, mode="exact")
        want = rk.analyze(design(), part.toArrow(), time="CREATED_AT", windows=10)
    finally:
        part.unpersist()
    tables = [(g, w) for g, w in zip(got["indexes"], want["indexes"]) if g["report"] is not None]
    assert [g["name"] for g, _ in tables] == ["BY_TIME", "BY_CUSTOMER"]
    for g, w in tables:
        t, u = g["report"], w["report"]
        # every table's rows recounted by Spark's groupBy: exact, as one pass counts 500 rows
        assert t["largestRowsExact"] and t["distinctRowsExact"], g["name"]
        # each order is a row of its own in each index table
        assert t["distinctRows"] == 500, g["name"]
        for k in ("largestRows", "distinctRows"):
            assert t[k] == u[k], (g["name"], k)
        assert [r["writes"] for r in t["regions"]] == [r["writes"] for r in u["regions"]], g["name"]
