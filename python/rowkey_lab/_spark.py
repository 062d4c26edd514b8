"""The Spark functions' work (``rowkey_lab.spark`` is their public face): encoding, analysis,
split points and regions over a DataFrame, and the helpers ``_spark_rekey`` shares."""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional

from . import _engine
from ._args import _arrow_schema, _design, _large, _options, _rows
from ._errors import invalid
from ._keys import key_array as _key_array


def _declared(df, design: Any, map: Optional[Mapping[str, str]]) -> str:
    """The design's JSON text, a design that is just a key with its fields declared from
    ``df``'s columns on the driver (``rk.Design.from_rows``'s rule, over the Arrow schema Spark
    hands the rows over with), so that every executor reads one design."""
    from ._args import Design

    d = _design(design)
    if _engine.check_design(d):
        d = Design.from_rows(d, _arrow_schema(df, _large(df)), map=map).json
    return d


def _needed(df, design_json: str, map: Optional[Mapping[str, str]], time: Optional[str]) -> list:
    """The DataFrame's columns the design reads (its fields, mapped) and the time column: the
    only ones sent to Python."""
    fields = [f["name"] for f in json.loads(design_json).get("fields", [])]
    wanted = [(map or {}).get(f, f) for f in fields] + ([time] if time else [])
    cols = [c for c in df.columns if c in wanted]
    return cols or list(df.columns)


def _error(message: str, path: Optional[str] = None) -> Exception:
    """An engine error raised on the driver (an empty DataFrame, as the engine words it for
    empty rows; a design refused before any job)."""
    return invalid(message, path)


def _table(batches, schema):
    """A partition's batches as one table (``schema`` when it has none: Spark's own types, e.g.
    ``large_string``, otherwise)."""
    import pyarrow as pa

    bs = list(batches)
    return pa.Table.from_batches(bs) if bs else pa.Table.from_batches([], schema=schema)


def _stream(batches):
    """A partition's batches as a reader that hands them over one at a time as the engine asks
    (memory holds one batch, and the engine counts while Spark sends the next); ``None`` for a
    partition with no rows."""
    import itertools

    import pyarrow as pa

    it = (b for b in batches if b.num_rows)
    first = next(it, None)
    if first is None:
        return None
    return pa.RecordBatchReader.from_batches(first.schema, itertools.chain([first], it))


def _keys(keys: bytes, offsets: bytes, large: bool):
    """The engine's keys and offsets as an Arrow binary array (``large_binary`` if asked)."""
    return _key_array(keys, offsets, large)


def _spark_scans(src, time: Optional[str]):
    """The first pass by Spark itself, without sending rows to Python: each partition's rows
    and, for a Spark timestamp column, its first and last time in ms (``floor(µs / 1000)``, as
    the engine reads Spark's microseconds). ``None`` when the engine must look at the rows: a
    time column of another type (TIMESTAMP_NTZ, epoch numbers, dates, text)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import TimestampType

    aggs = [F.count(F.lit(1)).alias("rows")]
    if time is not None:
        # TIMESTAMP only: its Arrow form is the instant's µs, as unix_micros gives them (a
        # TIMESTAMP_NTZ is sent as wall-clock µs, which a cast would move by the session's zone)
        if not isinstance(src.schema[time].dataType, TimestampType):
            return None
        us = F.unix_micros(F.col(time))
        ms = ((us - F.pmod(us, F.lit(1000))) / 1000).cast("long")
        aggs += [F.min(ms).alias("first"), F.max(ms).alias("last")]
    out = []
    for r in src.groupBy(F.spark_partition_id().alias("pid")).agg(*aggs).collect():
        first = r["first"] if time is not None else None
        last = r["last"] if time is not None else None
        out.append((r["pid"], json.dumps({"rows": r["rows"], "firstMs": first, "lastMs": last, "outOfOrder": 0})))
    return out


def _encoded(src, d: str, rows: Optional[str], large: bool):
    """``src``'s rows as their keys alone: a DataFrame of one binary ``rowkey`` column."""
    from pyspark.sql.types import BinaryType, StructField, StructType

    schema = _arrow_schema(src, large)

    def keys_only(batches):
        import pyarrow as pa

        from rowkey_lab import _engine as engine

        t = _table(batches, schema)
        if t.num_rows:
            keys, offsets = engine.encode(d, t, rows)
            arr = _keys(keys, offsets, large)
            yield pa.RecordBatch.from_arrays([arr], names=["rowkey"])

    return src.mapInArrow(keys_only, StructType([StructField("rowkey", BinaryType(), False)]))


def _placed(scans: list) -> tuple:
    """The partitions' first passes ``(pid, scan)``, in partition order, as the table's scan,
    each partition's first row in the table, and the table's rows."""
    table = _engine.merge_scans([s for _, s in scans])
    first, at = {}, 0
    for pid, s in scans:
        first[pid] = at
        at += json.loads(s)["rows"]
    return table, first, at


def _partials_and_recounts(src, d: str, large: bool, count) -> tuple:
    """Exact mode in one read of the rows: each partition's partial (without exact row
    counts) and every row's key from the same pass (``count(stream)`` gives both; a Phoenix
    design's keys are each table's, tagged by their first byte, and the engine's recount
    splits them by it); Spark
    groups the keys and counts their writes, and each partition of the groups is recounted by
    the engine (distinct rows per region, its largest rows by the report's rule). The partials
    ride through the ``groupBy`` as rows of their own (a null key, the partial in ``part``; a
    key's rows have a null ``part``). Returns the partials and the recounts (the engine's JSON
    text, one per non-empty partition of the groups)."""
    from pyspark.sql import functions as F

    def keys_and_part(batches):
        import pyarrow as pa

        stream = _stream(batches)
        if stream is not None:
            part, keys, offsets = count(stream)
            arr = _keys(keys, offsets, large)
            t = pa.large_binary() if large else pa.binary()
            yield pa.RecordBatch.from_arrays([arr, pa.nulls(len(arr), t)], names=["rowkey", "part"])
            yield pa.RecordBatch.from_arrays([pa.nulls(1, t), pa.array([part], t)], names=["rowkey", "part"])

    encoded = src.mapInArrow(keys_and_part, "rowkey binary, part binary")
    counted = encoded.groupBy("rowkey", "part").agg(F.count(F.lit(1)).alias("writes"))

    def recount(batches):
        import pyarrow as pa
        import pyarrow.compute as pc

        from rowkey_lab import _engine as engine

        bs = [b for b in batches if b.num_rows]
        if bs:
            t = pa.Table.from_batches(bs)
            is_part = pc.is_valid(t.column("part"))
            keys = t.filter(pc.invert(is_part)).select(["rowkey", "writes"])
            parts = t.filter(is_part)
            text = pa.large_string() if large else pa.string()
            blob = pa.large_binary() if large else pa.binary()
            out = pa.schema([("recount", text), ("part", blob)])
            if keys.num_rows:
                r = engine.recount(d, keys)
                yield pa.RecordBatch.from_pydict({"recount": [r], "part": [None]}, schema=out)
            # a partial grouped with an equal one (never, their rows differ) counts for each
            for p, n in zip(parts.column("part").to_pylist(), parts.column("writes").to_pylist()):
                yield pa.RecordBatch.from_pydict({"recount": [None] * n, "part": [p] * n}, schema=out)

    got = counted.mapInArrow(recount, "recount string, part binary").toArrow()
    parts = [bytes(p) for p in got.column("part").to_pylist() if p is not None]
    recounts = [r for r in got.column("recount").to_pylist() if r is not None]
    return parts, recounts


def _cut_at_the_rows(design_json: str) -> int:
    """The regions of a ``sampleQuantiles`` pre-split with no sample of its own (cut at the
    quantiles of the rows' keys), else 0."""
    presplit = (json.loads(design_json).get("regions") or {}).get("presplit") or {}
    if presplit.get("kind") == "sampleQuantiles" and not presplit.get("sample"):
        return int(presplit.get("regions", 0))
    return 0


def _partition_id() -> int:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    if ctx is None:
        raise RuntimeError("_partition_id is called inside a Spark task")
    return ctx.partitionId()


def encode_df(
    df,
    design: Any,
    *,
    column: str = "rowkey",
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    overwrite: bool = False,
):
    """``df`` with a binary column ``column``: each row's key as HBase (or Phoenix) stores it.

    A DataFrame that already has a column of that name (as Spark matches names: without case
    unless ``spark.sql.caseSensitive``) is refused with an error naming it, before any job:
    name another (``column=``), or replace it (``overwrite=True``: the key is still built from
    the rows as they are, the old column among them if the design reads it).

    ``nulls`` is the engine's rows option: ``"error"`` (the default) stops the job with an
    error naming the row (in its partition's batch) and the column, as ``rk.encode`` does;
    ``"skip"`` drops the rows whose key reads a null, as ``df.na.drop`` would, and as
    ``rk.encode`` and ``analyze_df`` leave them out: the rows kept are the rows analyzed, and
    the ``rowkey`` column is never null (HBase has no null row key). The engine decides which
    rows cannot be keyed (a null where the key needs a value; a Phoenix key may end in nulls and
    still build)."""
    return _add_keys(df, design, None, column, map, nulls, epoch, overwrite)


def with_index_key(
    df,
    design: Any,
    index: str,
    *,
    column: str = "indexkey",
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    overwrite: bool = False,
):
    """``df`` with a binary column ``column``: each row's key in the table of the design's
    Phoenix index named ``index``, as Phoenix's ``IndexMaintainer`` writes it (the bytes
    ``rk.index_keys`` gives on the same rows). The columns the index keys are required of the
    DataFrame as the key's are; ``column``, ``nulls`` and ``overwrite`` as for ``encode_df``. An
    index the design does not have is refused on the driver, before any job."""
    names = [x["name"] for x in json.loads(_engine.index_tables(_design(design)))]
    if index not in names:
        have = ", ".join(f"`{n}`" for n in names) or "none"
        raise _error(f"no index `{index}`: the design's Phoenix indexes are {have}", "index")
    return _add_keys(df, design, index, column, map, nulls, epoch, overwrite)


def _add_keys(df, design: Any, index: Optional[str], column: str, map, nulls, epoch, overwrite: bool):
    """``df`` with each row's data key (``index`` None) or its key in the named index's table
    as the binary column ``column`` (``encode_df``, ``with_index_key``)."""
    from pyspark.sql.types import BinaryType, StructField, StructType

    caller = "encode_df" if index is None else "with_index_key"
    if nulls not in (None, "error", "skip"):
        raise ValueError(f'{caller}: nulls="{nulls}"; expected "error" or "skip"')
    clash = _same_column(df, column)
    if clash is not None and not overwrite:
        raise _error(
            f"the DataFrame already has a column `{clash}`, where {caller} would add the keys as "
            f"`{column}`: name another (column=...) or replace it (overwrite=True)",
            column,
        )
    d = _declared(df, design, map)
    rows = _rows(None, map, nulls, epoch)
    kept = [f for f in df.schema.fields if f.name != clash]
    schema = StructType(kept + [StructField(column, BinaryType(), False)])
    large = _large(df)

    def add_keys(batches):
        import pyarrow as pa

        from rowkey_lab import _engine as engine

        for b in batches:
            t = pa.Table.from_batches([b])
            if index is None:
                keys, offsets, skipped = engine.encode_skipped(d, t, rows)
            else:
                keys, offsets, skipped = engine.index_keys(d, index, t, rows)
            arr = _keys(keys, offsets, large)
            if skipped:
                gone = {int.from_bytes(skipped[i : i + 8], "little") for i in range(0, len(skipped), 8)}
                b = b.filter(pa.array([i not in gone for i in range(b.num_rows)]))
            if clash is not None:
                b = b.drop_columns([clash])
            yield pa.RecordBatch.from_arrays(b.columns + [arr], names=b.schema.names + [column])

    return df.mapInArrow(add_keys, schema)


def _same_column(df, name: str) -> Optional[str]:
    """The column of ``df`` Spark would take for ``name`` (its resolver ignores case unless
    ``spark.sql.caseSensitive``), or None."""
    sensitive = str(df.sparkSession.conf.get("spark.sql.caseSensitive", "false")).lower() == "true"
    for c in df.columns:
        if c == name or (not sensitive and c.lower() == name.lower()):
            return c
    return None


def analyze_df(
    df,
    design: Any,
    time: Optional[str] = None,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    windows: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
    persist: bool = False,
    mode: str = "sketch",
) -> dict:
    """The design's report over the DataFrame's rows: a first pass counts each partition's
    rows and time span (by Spark's own aggregation when it can), a second counts each
    partition apart from its first row's position (one partial per partition: kB, or up to
    tens of MB while its rows are counted exactly), merged on the driver.

    Past the engine's cap of exactly counted rows (``MAX_EXACT_ROWS`` rows in the table), the
    partials first leave their exact row counts out, and the merged HyperLogLog estimate says
    whether one pass keeps them (distinct rows within the cap): only then are the partials
    counted again with them. A partition's exact counts are most of its time and bytes, and a
    table of more distinct rows than the cap drops them at the merge anyway.

    The report is ``rk.analyze``'s on the rows in the order the second pass reads them. A
    DataFrame that deals its rows anew each time it runs (a round-robin ``repartition``) gives
    the report of another order of the same rows: the same counts, another key sample (and,
    without a time column, other windows); ``persist=True`` caches the key's columns so both
    passes and a later ``toArrow()`` see one order. Partials that do not add up to the first
    pass's rows are refused.

    ``mode="exact"`` counts each partition's partial and encodes its keys in the same read of
    the rows; Spark groups every key and counts its writes, and the engine puts those counts in
    the report in place of the partials' (``largestRows``
    and ``distinctRows`` of the table, each region and server exact, past the engine's cap
    too, as one pass gives them when it counts every row); a recount that does not match the
    partials' writes per region is refused. A design with a ``cells`` section is refused (the
    recount counts rows, not versions of cells). A ``sampleQuantiles`` pre-split with no sample
    (regions cut at the quantiles of the rows' own keys) needs every key: exact mode has Spark
    sort them first (``split_points_df``, exact at any size, where one pass cuts at a sample of
    a million keys past that many rows) and reports over those regions; sketch mode refuses it.

    A Phoenix design's indexes are counted from the same partitions: each partition's partial
    carries each global index's table, and ``report["indexes"]`` is the one ``rk.analyze``
    gives on the same rows (a local index's figures are the data table's). ``mode="exact"``
    recounts every table's rows: each row's key in the data table and in each global index's
    table goes through the same ``groupBy`` (its first byte says which table), so an index
    table's largest and distinct rows are exact too, as the data table's are."""
    if mode not in ("sketch", "exact"):
        raise ValueError(f'analyze_df: mode="{mode}"; expected "sketch" or "exact"')
    d = _declared(df, design, map)
    if mode == "exact":
        _engine.check_recount(d)
        regions = _cut_at_the_rows(d)
        if regions:
            # the pre-split cut at the rows' own keys: Spark sorts every key and the engine cuts
            # them (split_points_df), and the design is analyzed over those regions
            doc = json.loads(d)
            by = doc["regions"]["presplit"].get("by", "rows")
            splits = split_points_df(df, d, regions, by, map=map, nulls=nulls, epoch=epoch)
            doc["regions"]["presplit"] = {"kind": "explicit", "encoding": "hex", "keys": [k.hex() for k in splits]}
            d = _design(doc)
    elif _cut_at_the_rows(d):
        raise _error(
            "a sampleQuantiles pre-split without a sample is cut at every row's key, which "
            'partitions counted apart do not see: mode="exact" cuts it from Spark\'s sort of every '
            "key, or give split_points_df's keys as the design's pre-split",
            "/regions/presplit",
        )
    rows = _rows(time, map, nulls, epoch)
    opts = _options(windows, options)
    src = df.select(*_needed(df, d, map, time))
    if persist:
        src = src.persist()
    large = _large(df)
    try:
        schema = _arrow_schema(src, large)

        def scan(batches):
            import pyarrow as pa

            from rowkey_lab import _engine as engine

            t = _table(batches, schema)
            if t.num_rows:
                text = pa.large_string() if large else pa.string()
                yield pa.RecordBatch.from_pydict(
                    {"pid": [_partition_id()], "scan": [engine.scan(d, t, rows)]},
                    schema=pa.schema([("pid", pa.int64()), ("scan", text)]),
                )

        # Spark counts the rows when every row is one the engine counts (no `nulls="skip"`: a
        # row the engine refuses stops the second pass); else the engine's own first pass.
        scans = _spark_scans(src, time) if nulls != "skip" else None
        if scans is None:
            scans = [(r.pid, r.scan) for r in src.mapInArrow(scan, "pid long, scan string").collect()]
        scans.sort()
        if not scans:
            raise _error("no rows to analyze")
        table, first, at = _placed(scans)

        def partials(exact_rows: bool) -> list:
            def partial(batches):
                import pyarrow as pa

                from rowkey_lab import _engine as engine

                stream = _stream(batches)
                if stream is not None:
                    pid = _partition_id()
                    part = engine.partial(d, stream, table, first[pid], opts, rows, not exact_rows)
                    t = pa.large_binary() if large else pa.binary()
                    yield pa.RecordBatch.from_pydict({"part": [part]}, schema=pa.schema([("part", t)]))

            # as Arrow, not pickled rows: partials counting every row exactly are MBs each
            return [bytes(p) for p in src.mapInArrow(partial, "part binary").toArrow().column("part").to_pylist()]

        recounts = None
        if mode == "exact":
            # no exact counts of rows in the partials: the recount replaces them
            def count(stream):
                from rowkey_lab import _engine as engine

                return engine.partial_keys(d, stream, table, first[_partition_id()], opts, rows)

            parts, recounts = _partials_and_recounts(src, d, large, count)
        elif at <= _engine.MAX_EXACT_ROWS:
            parts = partials(True)
        else:
            # Past the cap in rows, the distinct rows decide whether one pass keeps its exact
            # counts. Partials without them first (a partition's exact counts are most of its
            # time and bytes, MBs each, and are dropped at the merge once the table's distinct
            # rows pass the cap); the merged HyperLogLog estimate then settles it: more than 12
            # standard errors past the cap (4 x its bound, distinctRowsError, which is three),
            # one pass is past it too (the chance it is not is below 1e-30) and this is its
            # report; else the partials again, with exact counts.
            parts = partials(False)
            report = json.loads(_engine.report_of_partials(parts, d))
            low = report["distinctRows"] * (1 - 4 * report["distinctRowsError"])
            if not report["distinctRowsExact"] and low > _engine.MAX_EXACT_ROWS:
                return report
            parts = partials(True)
    finally:
        if persist:
            src.unpersist()
    if recounts is not None:
        return json.loads(_engine.report_of_partials_recounted(parts, recounts, d))
    return json.loads(_engine.report_of_partials(parts, d))


def split_points_df(
    df,
    design: Any,
    regions: int,
    by: str = "rows",
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> list:
    """The ``regions - 1`` split keys (bytes, ascending) that cut the DataFrame's rows into
    regions of equal rows (``by="rows"``) or equal bytes (``by="bytes"``: each row its key's
    length and the design's value size, as the report counts a write), exact: every row's key
    is encoded and sorted by Spark, the keys at the cuts are picked (by rank, or where the
    running weight over the sort passes each share: the engine's rule), and the engine cuts them
    with HBase's rules for split keys — the keys ``rk.split_points`` gives on the same rows. A
    key that opens with salt buckets keeps each bucket whole (the engine's plan, from each
    bucket's weight)."""
    if by not in ("rows", "bytes"):
        raise ValueError(f'split_points_df: by="{by}"; expected "rows" or "bytes"')
    d = _declared(df, design, map)
    rows = _rows(None, map, nulls, epoch)
    src = df.select(*_needed(df, d, map, None))
    large = _large(df)
    buckets = _engine.buckets(d)
    ordered = _encoded(src, d, rows, large).orderBy("rowkey").persist()
    try:
        # each partition's rows and bytes by salt bucket, weighed by the engine in Python
        def weigh(batches):
            import pyarrow as pa

            from rowkey_lab import _engine as engine

            per = [(0, 0)] * buckets
            for b in batches:
                if b.num_rows:
                    got = engine.bucket_weights(d, pa.Table.from_batches([b]))
                    per = [(n + m, w + v) for (n, w), (m, v) in zip(per, got)]
            pid = _partition_id()
            yield pa.RecordBatch.from_pydict(
                {
                    "pid": [pid] * buckets,
                    "bucket": list(range(buckets)),
                    "n": [n for n, _ in per],
                    "w": [w for _, w in per],
                }
            )

        if by == "rows" and buckets == 1:
            # Spark counts each partition of the sort itself: no key crosses into Python
            from pyspark.sql import functions as F

            per = ordered.groupBy(F.spark_partition_id().alias("pid")).agg(F.count(F.lit(1)).alias("n"))
            cells = [(r.pid, 0, r.n, 0) for r in per.collect()]
        else:
            schema = "pid long, bucket long, n long, w long"
            cells = [(r.pid, r.bucket, r.n, r.w) for r in ordered.mapInArrow(weigh, schema).collect()]
        weight = [0] * buckets
        parts: dict = {}
        for pid, k, n, w in cells:
            weight[k] += n if by == "rows" else w
            pn, pw = parts.get(pid, (0, 0))
            parts[pid] = (pn + n, pw + (n if by == "rows" else w))
        counts = sorted((pid, n, w) for pid, (n, w) in parts.items())
        total = sum(n for _, n, _ in counts)
        if total == 0:
            raise _error("no rows to cut")
        head = next(pid for pid, n, _ in counts if n)
        # where each partition of the sort starts: its first row's rank, the weight ahead of it
        first, ahead, at, aw = {}, {}, 0, 0
        for pid, n, w in counts:
            first[pid], ahead[pid] = at, aw
            at, aw = at + n, aw + w

        def pick(batches):
            import pyarrow as pa

            from rowkey_lab import _engine as engine

            pid = _partition_id()
            start, before = first.get(pid, 0), ahead.get(pid, 0)
            out_r, out_k = [], []
            for b in batches:
                # the target index + 1 in place of a rank; the smallest key is 0
                cuts, after = engine.target_cuts(d, weight, regions, before, pa.Table.from_batches([b]), by)
                cuts = [(t + 1, i) for t, i in cuts]
                if pid == head and start == 0 and b.num_rows:
                    cuts = [(0, 0)] + cuts
                before = after
                if cuts:
                    col = b.column(0)
                    for r, i in cuts:
                        out_r.append(r)
                        out_k.append(col[i].as_py())
                start += b.num_rows
            if out_r:
                t = pa.large_binary() if large else pa.binary()
                yield pa.RecordBatch.from_pydict(
                    {"rank": out_r, "key": out_k}, schema=pa.schema([("rank", pa.int64()), ("key", t)])
                )

        if by == "rows":
            ranks = [0] + list(_engine.cut_ranks(d, weight, regions))
            at_rank = _keys_at_ranks(ordered, sorted(set(ranks)), counts, first)
            picked = {t: at_rank[r] for t, r in enumerate(ranks) if r in at_rank}
        else:
            picked = {r.rank: bytes(r.key) for r in ordered.mapInArrow(pick, "rank long, key binary").collect()}
    finally:
        ordered.unpersist()
    # target t + 1 is picked[t + 1]; the smallest key is picked[0]
    picks = {t - 1: k for t, k in picked.items() if t > 0}
    return _engine.cut_picked(d, weight, regions, picked.get(0), picks)


def _keys_at_ranks(ordered, ranks, counts, first) -> dict:
    """The keys of the sorted (and persisted) DataFrame ``ordered`` at the global ``ranks``, by
    Spark alone: ``monotonically_increasing_id`` is each row's partition (its upper 31 bits)
    and place in it (its lower 33), in the order the partition holds its rows, so a rank is an
    id given each partition's first rank (``first``; ``counts``: ``(pid, rows, _)``). A filter
    on those ids sends only the keys at the cuts to the driver, not every key through Python."""
    from pyspark.sql import functions as F

    ids = {}
    for pid, n, _ in counts:
        start = first[pid]
        for r in ranks:
            if start <= r < start + n:
                ids[(pid << 33) + (r - start)] = r
    if not ids:
        return {}
    picked = ordered.withColumn("_id", F.monotonically_increasing_id()).where(F.col("_id").isin(list(ids)))
    return {ids[r["_id"]]: bytes(r["rowkey"]) for r in picked.select("_id", "rowkey").collect()}


def with_region(df, split_keys, *, key: str = "rowkey", column: str = "region"):
    """``df`` with the region index (int) of its row key column ``key`` in a table pre-split
    at ``split_keys``: region ``i`` holds ``[split_keys[i-1], split_keys[i])``, HBase's rule in
    its byte order (the engine's region lookup, not Spark's hash or range partitioning). For a
    bulk load into the new table, ``.repartition(n, column).sortWithinPartitions(key)`` keeps
    each region's rows in one partition, sorted as HBase writes them."""
    import pyarrow as pa
    from pyspark.sql.types import IntegerType, StructField, StructType

    if column in df.columns:
        # a second column of one name: Spark takes either for the other (ambiguous, or wrong)
        raise ValueError(
            f"with_region: the rows already have a column {column!r}: name the region column otherwise (column=...)"
        )
    splits = [bytes(k) for k in split_keys]
    # the split keys checked here, on the driver, as HBase's client checks them
    _engine.regions_of(splits, pa.table({key: pa.array([], pa.binary())}))
    schema = StructType(df.schema.fields + [StructField(column, IntegerType(), False)])

    def add_region(batches):
        import pyarrow as pa

        from rowkey_lab import _engine as engine

        for b in batches:
            out = engine.regions_of(splits, pa.Table.from_batches([b.select([key])]))
            arr = pa.Array.from_buffers(pa.uint32(), b.num_rows, [None, pa.py_buffer(out)]).cast(pa.int32())
            yield pa.RecordBatch.from_arrays(b.columns + [arr], names=b.schema.names + [column])

    return df.mapInArrow(add_region, schema)


# The move to a new key (rekey_df, verify_df), in a module of its own.
