"""rowkey-lab on Spark DataFrames (pyspark is imported when a function is called). DataFrame
operations only (``mapInArrow``, ``orderBy``), no RDD API, so it also runs over Spark Connect.

    from rowkey_lab.spark import analyze_df, encode_df, split_points_df, with_region
    keys = encode_df(df, design)                         # df + a binary `rowkey` column
    ikeys = with_index_key(df, design, "BY_TIME")        # + each row's key in a Phoenix index
    report = analyze_df(df, design, time="ts")           # rk.analyze's report
    report = analyze_df(df, design, time="ts", mode="exact")   # largest/distinct rows recounted
    splits = split_points_df(df, design, regions=64)     # exact: Spark sorts every key
    splits = split_points_df(df, design, regions=64, by="bytes")   # regions of equal bytes
    placed = with_region(keys, splits)                   # + each row's region, HBase's rule
    rekeyed, splits = rekey_df(df, new_design, regions=64, by="bytes")   # one partition a region
    verdict = verify_df(old_df, new_df, old_design, new_design)   # `rowkey-lab verify --json`

The executors need the wheel (pip-installed, or shipped with ``spark.archives`` in a packed
environment); the design travels as its JSON text.

What is exact: ``analyze_df`` counts each partition apart (a partial) and merges the partials
on the driver, which gives the report ``rk.analyze`` gives on the DataFrame's rows in partition
order (``df.toArrow()``). With a ``time`` column every figure but the key sample (a uniform
sample drawn by row position) is the same for any partitioning; without one, rows are written
at the workload's clock in that order. Past the engine's cap of exactly counted rows (about a
million distinct rows), the largest rows and distinct rows are estimates with their bounds, as
in one pass; ``mode="exact"`` recounts them in Spark (a ``groupBy`` of every key), exact at
any size.
``split_points_df`` takes the keys at the cuts (by rank, or by running bytes) from Spark's sort of every encoded key
(Spark orders binary unsigned-lexicographically, as HBase's ``Bytes.compareTo``) and cuts them
with the engine's rules, as ``rk.split_points`` does.
"""

from ._spark import analyze_df, encode_df, split_points_df, with_index_key, with_region
from ._spark_rekey import rekey_df, verify_df

__all__ = ["analyze_df", "encode_df", "rekey_df", "split_points_df", "verify_df", "with_index_key", "with_region"]
