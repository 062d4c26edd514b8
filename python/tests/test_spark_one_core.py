"""rowkey_lab.spark on one core (``local[1]``, a session of its own; test_spark.py runs on two):
the same keys, report (sketch and exact mode) and split points as the package on the
DataFrame's own rows, so the answer does not depend on how many tasks run at once."""

import pytest
from conftest import SALTED, local_spark, skip_without_spark

# `pytest -m "not spark"` leaves out the tests that start a Spark session (conftest.py)
pytestmark = pytest.mark.spark
skip_without_spark()

import rowkey_lab as rk  # noqa: E402
from rowkey_lab.spark import analyze_df, encode_df, split_points_df  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    s = local_spark(1, "rowkey-lab-tests-one-core", shuffle_partitions=3)
    yield s
    s.stop()


def test_one_core_gives_the_one_pass_report_keys_and_split_points(spark, files):
    # three partitions run one after another on the one core; persisted, so every job reads
    # the rows in one order
    df = spark.read.parquet(str(files / "rows.parquet")).repartition(3).persist()
    df.count()
    rows = df.toArrow()
    one = rk.analyze(SALTED, rows, time="ts")
    assert analyze_df(df, SALTED, time="ts") == one
    # within the engine's cap the recount changes nothing: the same report
    assert analyze_df(df, SALTED, time="ts", mode="exact") == one
    keyed = encode_df(df, SALTED).toArrow()
    assert keyed["rowkey"].combine_chunks().equals(rk.encode(SALTED, keyed.drop_columns(["rowkey"])))
    for by in ("rows", "bytes"):
        assert split_points_df(df, SALTED, regions=6, by=by) == rk.split_points(SALTED, rows, regions=6, by=by)
    df.unpersist()
