"""The move of a table to a new key on Spark (``rowkey_lab.spark.rekey_df``, ``verify_df``; this
module is imported by ``rowkey_lab.spark``, which is the API): the old rows re-keyed, one
partition per region of the new table, and the move verified by the engine's verifier in
pieces."""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence

from . import _engine
from ._args import _arrow_schema, _design, _large, _rows, _verify_options
from ._spark import _needed, _stream, encode_df, split_points_df, with_region

# rowkey_lab.spark imports this module at its end; its functions are imported where they are
# used, so either module may be imported first.


def rekey_df(
    df,
    design: Any,
    regions: Optional[int] = None,
    by: str = "rows",
    *,
    split_keys: Optional[list] = None,
    column: str = "rowkey",
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    overwrite: bool = False,
) -> tuple:
    """The old table's rows re-keyed for the new table: ``(rekeyed, split_keys)``.

    ``df`` holds the old rows' fields and cells (their timestamps as columns, kept as they
    are: nothing here stamps a time). Each row gets its new key (``column``, the new design's
    ``design``) and its region (``region``) in the new table pre-split at ``split_keys``:
    given, else cut at ``regions`` regions of equal rows or bytes (``by``) of these rows
    re-encoded (:func:`split_points_df`). ``rekeyed`` has one
    partition per region, partition ``i`` holding exactly region ``i``'s rows sorted by key:
    what ``HFileOutputFormat2``'s one reducer per region, or hbase-connectors' ``bulkLoad``
    partitioner, expects (an identity partitioner on the region, not Spark's hash). Old rows
    that carry a column ``column`` (the old table's key) are refused unless ``overwrite=True``
    (:func:`encode_df`)."""

    if split_keys is None:
        if regions is None:
            raise ValueError("rekey_df: give regions=N (split points cut from these rows) or split_keys=[...]")
        split_keys = split_points_df(df, design, regions, by, map=map, nulls=nulls, epoch=epoch)
    split_keys = [bytes(k) for k in split_keys]
    from pyspark.sql import functions as F

    keyed = with_region(
        encode_df(df, design, column=column, map=map, nulls=nulls, epoch=epoch, overwrite=overwrite),
        split_keys,
        key=column,
    )
    n = len(split_keys) + 1
    # Spark's hash partitioning puts a row in partition pmod(murmur3(value, 42), n): each region
    # is given a value that hashes to its own index, so partition i is region i exactly
    # (DataFrame operations only, as the rest of this module).
    values = _values_hashing_to(n)
    part = F.element_at(F.array(*[F.lit(v) for v in values]), F.col("region") + 1)
    # the partitioning column's name is one the rows do not have (a column of theirs named
    # `_rekey_part` was once overwritten and dropped)
    tmp = "_rekey_part"
    while tmp in keyed.columns:
        tmp = f"_{tmp}"
    rekeyed = keyed.withColumn(tmp, part).repartition(n, tmp).drop(tmp).sortWithinPartitions(column)
    return rekeyed, split_keys


def _murmur3_int(v: int, seed: int = 42) -> int:
    """Spark's ``Murmur3_x86_32.hashInt`` (what ``HashPartitioning`` hashes an int column
    with), as a signed 32-bit int."""
    m = 0xFFFFFFFF

    def rotl(x: int, r: int) -> int:
        return ((x << r) | (x >> (32 - r))) & m

    k1 = (v & m) * 0xCC9E2D51 & m
    k1 = rotl(k1, 15) * 0x1B873593 & m
    h1 = seed ^ k1
    h1 = (rotl(h1, 13) * 5 + 0xE6546B64) & m
    h1 ^= 4
    h1 ^= h1 >> 16
    h1 = h1 * 0x85EBCA6B & m
    h1 ^= h1 >> 13
    h1 = h1 * 0xC2B2AE35 & m
    h1 ^= h1 >> 16
    return h1 - (1 << 32) if h1 >= 1 << 31 else h1


def _values_hashing_to(n: int) -> list:
    """For each partition ``i`` of ``n``, the least int ``v >= 0`` that Spark's hash
    partitioning puts there: ``pmod(murmur3(v), n) == i``."""
    out: list = [None] * n
    left, v = n, 0
    while left:
        i = _murmur3_int(v) % n
        if out[i] is None:
            out[i] = v
            left -= 1
        v += 1
    return out


def verify_df(
    old_df,
    new_df,
    old_design: Any,
    new_design: Any,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    max_held: Optional[int] = None,
    ignore: Optional[Sequence[str]] = None,
    columns: Optional[Sequence[str]] = None,
) -> dict:
    """A rekey verified on Spark: the old table's rows (``old_df``) against the new table's
    (``new_df``), both read through ``new_design`` with every column both DataFrames hold (the
    key's and every other, whether or not the design declares it), the dict ``rowkey-lab verify
    --json`` prints: ``oldRows``, ``newRows``, ``missing`` (old rows with no row under their new
    key), ``extra``, ``changed`` (the key on both sides, another value in a column compared),
    ``equal``, ``complete``, the ``first`` differences, each named by its new key, and the
    columns (``compared``, ``ignored``, ``onlyOld``, ``onlyNew``; ``ignore`` and ``columns`` as
    ``rk.verify``'s). The driver plans the columns once from both schemas (the engine's rule: a
    column whose types differ is compared as values, or refused with its name).

    The engine's verifier (the CLI's) in pieces: each partition counts its rows into 4,096
    buckets of order-free sums (a partial of at most a few hundred kB), merged exactly on the
    driver; only when buckets differ does a second job hold those buckets' rows (a row on both
    sides cancels), merged as well, in rounds whose rows fit 256 MiB at the driver, each round
    settled before the next: the counts are exact at any size (``complete`` is false only when
    one bucket's rows alone pass 256 MiB). ``max_held``: a smaller round, in bytes of rows, for a
    smaller driver. ``old_design`` is checked (the rekey's old key), as the CLI does;
    a design that is just a key has its fields declared from ``old_df``'s columns."""

    _engine.check_design(_design(old_design))
    rows = _rows(None, map, nulls, epoch)
    large = _large(old_df)
    d, planned = _engine.verify_design(
        _design(new_design),
        _arrow_schema(old_df, large),
        _arrow_schema(new_df, large),
        rows,
        _verify_options(ignore, columns),
    )
    sides = {
        "old": old_df.select(*_needed(old_df, d, map, None)),
        "new": new_df.select(*_needed(new_df, d, map, None)),
    }

    def read(side: str, buckets: Optional[list]) -> list:
        """One read the engine's plan asks for: ``side``'s partitions, each as a partial (counted,
        or with ``buckets`` the rows of those buckets held)."""

        def piece(batches):
            import pyarrow as pa

            from rowkey_lab import _engine as engine

            stream = _stream(batches)
            if stream is not None:
                part = engine.verify_partial(d, side, stream, rows, buckets)
                t = pa.large_binary() if large else pa.binary()
                yield pa.RecordBatch.from_pydict({"part": [part]}, schema=pa.schema([("part", t)]))

        got = sides[side].mapInArrow(piece, "part binary").toArrow().column("part").to_pylist()
        return [bytes(p) for p in got]

    # the engine walks the rounds (counts, then the differing buckets a round at a time, each
    # within what the driver holds), asking for each read; its partials merged as they come
    return json.loads(_engine.verify_driven(d, read, planned, max_held))
