"""rowkey-lab on your own Arrow data: the same engine as the page, the CLI and npm.

    import rowkey_lab as rk
    design = rk.Design.from_json(open("design.json").read())
    keys = rk.encode(design, table)              # pyarrow BinaryArray, as HBase stores them
    report = rk.analyze(design, table, time="ts")   # the report `analyze --records --json` gives
    report = rk.analyze(design, "rows.parquet")      # a file (CSV, JSON Lines, Parquet, Arrow)
    splits = rk.split_points(design, table, regions=16)   # exact, from every row's key
    verdict = rk.verify(old, new, "old.parquet", "new.parquet")  # a rekey checked, row by row

Any object with ``__arrow_c_stream__`` is a source: a pyarrow Table or RecordBatchReader, a
polars DataFrame, a DuckDB result; a pyarrow RecordBatch or a pandas DataFrame is wrapped in a
Table; a Spark DataFrame is run where it lies by ``rowkey_lab.spark``. A design may be just a key
(``{"v": 1, "key": "..."}``): its fields are declared from the rows' columns. The engine works
with the GIL released. Its errors are `RowkeyLabError`, with the
engine's ``kind`` and where (``path``, ``offset``, ``line``, ``column``).
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence

import pyarrow as pa

from . import _engine, _keys
from ._args import (
    Design,
    _design,
    _is_spark,
    _json_arg,
    _options,
    _rereadable,
    _rows,
    _source,
    _verify_options,
)
from ._engine import RowkeyLabError
from ._keys import key_array as _key_array
from ._streams import is_stream as _is_stream
from ._streams import spooled as _spooled

# The public name users see and pickle by (its code lives in _args, below every module).
Design.__module__ = __name__

__all__ = [
    "Design",
    "RowkeyLabError",
    "advise",
    "analyze",
    "create_statement",
    "encode",
    "encode_batches",
    "index_analysis",
    "index_keys",
    "index_reads",
    "index_tables",
    "life",
    "life_compare",
    "check_life",
    "merge",
    "merge_partials",
    "merge_scans",
    "partial",
    "read_series",
    "regions_of",
    "rekey",
    "rekey_from_series",
    "scan",
    "split_points",
    "splits_file",
    "to_string_binary",
    "verify",
]


def encode(
    design: "Design | str | Mapping[str, Any]",
    data: Any,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> pa.Array:
    """Every row's key, byte for byte as HBase (or Phoenix) stores it, in the rows' order:
    a ``pa.binary()`` array (``pa.large_binary()`` past 2 GiB of keys). ``nulls="skip"``
    leaves out rows with a null in a key field. A Spark DataFrame is encoded on the executors
    (``rowkey_lab.spark.encode_df``) and its keys alone collected, in its partitions' order."""
    if _is_spark(data):
        from ._spark import encode_df

        keyed = encode_df(data, design, column="rowkey", map=map, nulls=nulls, epoch=epoch)
        return keyed.select("rowkey").toArrow().column(0).combine_chunks()
    keys, offsets = _engine.encode(_design(design), _source(data), _rows(None, map, nulls, epoch))
    return _key_array(keys, offsets)


def index_keys(
    design: "Design | str | Mapping[str, Any]",
    data: Any,
    index: str,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> pa.Array:
    """Every row's key in the table of the Phoenix index named ``index`` (``CREATE INDEX``
    after the design's ``CREATE TABLE``), byte for byte as Phoenix's ``IndexMaintainer`` writes
    it (the index's salt byte, the indexed values, then the data key's other columns), in the
    rows' order: a ``pa.binary()`` array. A local index's keys start with the data region's
    start key of the table as created. ``nulls="skip"`` leaves out the rows ``encode`` leaves
    out. A Spark DataFrame's are computed on the executors (``rowkey_lab.spark.with_index_key``)."""
    if _is_spark(data):
        from ._spark import with_index_key

        keyed = with_index_key(data, design, index, column="indexkey", map=map, nulls=nulls, epoch=epoch)
        return keyed.select("indexkey").toArrow().column(0).combine_chunks()
    keys, offsets, _ = _engine.index_keys(_design(design), index, _source(data), _rows(None, map, nulls, epoch))
    return _key_array(keys, offsets)


def encode_batches(
    design: "Design | str | Mapping[str, Any]",
    data: Any,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> Iterator[pa.Array]:
    """``encode``'s keys a batch at a time: one ``pa.binary()`` array per record batch of
    ``data`` (a reader, a query result, a table, batches), yielded as it is read, so memory
    holds one batch and its keys however long the stream is — a stream that does not end, or
    one larger than memory. ``encode`` returns every key at once (up to 4 GiB of them)."""
    return _keys.encode_batches(_design(design), data, _rows(None, map, nulls, epoch))


def analyze(
    design: "Design | str | Mapping[str, Any]",
    data: Any,
    time: Optional[str] = None,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    windows: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> dict:
    """The design's report over these rows, the dict ``rowkey-lab analyze --records FILE
    --json`` prints: regions, the region × time matrix, hotspots, largest rows, read plans,
    and ``rows`` (what reading found). ``time``: the column of each row's write time (else
    row n is written at the workload's clock).

    ``data`` may be a path (``str`` or ``os.PathLike``) to a CSV, JSON Lines, Parquet or Arrow
    IPC file, read by the engine as ``--records`` reads it. The analysis makes two passes; the
    first keeps each row's key (up to 256 MiB of them) so the second counts from memory. Past
    that, a file or a table (pyarrow, polars; a pandas DataFrame or batches, made a table) is
    read again; a stream that can be read once (a ``RecordBatchReader``, a DuckDB result) is
    held in memory, batch by batch, during the first pass (up to 2 GiB: past that, when the
    keys did not fit either, the engine asks for a table or a path). A Spark DataFrame is analyzed where
    it lies (``rowkey_lab.spark.analyze_df``: the same report)."""
    if _is_spark(data):
        from ._spark import analyze_df

        return analyze_df(data, design, time, map=map, nulls=nulls, epoch=epoch, windows=windows, options=options)
    opts, rows = _options(windows, options), _rows(time, map, nulls, epoch)
    if isinstance(data, (str, os.PathLike)):
        return json.loads(_engine.analyze_file(_design(design), os.fspath(data), opts, rows))
    source = _source(data)
    text = _engine.analyze(_design(design), source, opts, rows, _rereadable(data, source))
    return json.loads(text)


#: The most rows of a Spark DataFrame :func:`life` and :func:`check_life` bring to the driver:
#: past it they are sampled in Spark first (the simulation keeps an even sample of at most
#: 65,536 keys anyway; its note then counts the sample's rows).
SPARK_LIFE_ROWS = 1_000_000


def _life_source(data: Any) -> Any:
    """``data`` as the engine's life over rows reads it: a path, or Arrow data (a Spark
    DataFrame past :data:`SPARK_LIFE_ROWS` sampled in Spark first)."""
    if isinstance(data, (str, os.PathLike)):
        return os.fspath(data)
    if _is_spark(data):
        n = data.count()
        if n > SPARK_LIFE_ROWS:
            data = data.sample(fraction=min(1.0, 1.25 * SPARK_LIFE_ROWS / n), seed=0).limit(SPARK_LIFE_ROWS)
    return _source(data)


def life(
    design: "Design | str | Mapping[str, Any]",
    months: Optional[int] = None,
    *,
    servers: Optional[int] = None,
    ttl_seconds: Optional[int] = None,
    normalizer: Optional[bool] = None,
    options: Optional[Mapping[str, Any]] = None,
    data: Any = None,
    time: Optional[str] = None,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> dict:
    """Months of the design's table under HBase's own rules (splits, flushes, compactions,
    TTL, the balancer, the normalizer), the dict ``rowkey-lab life --json`` prints: ``months``
    (one dict per month: ``regions``, ``emptyRegions``, sizes, servers, splits, merges, moves,
    bytes), ``crossings``, ``notes`` and ``diagnosis`` (what the months mean: a ``headline``
    and ``findings``, worst first, each with its ``month``, ``figure``, ``meaning`` and ``fix``,
    the fix checked by simulating it). ``options``: the engine's settings (camelCase, as
    ``lifeDesign`` takes them); the keyword arguments go over them.

    ``data``: the user's rows instead of the design's generated workload (a path to a CSV,
    JSON Lines, Parquet or Arrow IPC file, Arrow data as :func:`analyze` takes it, or a Spark
    DataFrame, sampled in Spark past :data:`SPARK_LIFE_ROWS`; as ``life --records FILE`` reads
    them): how their keys fall over the key space, in the order
    of the ``time`` column (else the rows' order), at the design's ``writeRate``. A note in
    ``notes`` says how many rows were read and in which order."""
    o = dict(options or {})
    if months is not None:
        o["months"] = months
    if servers is not None:
        o["servers"] = servers
    if ttl_seconds is not None:
        o["ttlSeconds"] = ttl_seconds
    if normalizer is not None:
        # the table's NORMALIZATION_ENABLED by HBase's name, over either spelling in options
        o["normalizationEnabled"] = normalizer
        group = o.get("normalizer")
        if isinstance(group, Mapping) and "enabled" in group:
            o["normalizer"] = {k: v for k, v in group.items() if k != "enabled"}
    if data is None:
        if (time, map, nulls, epoch) != (None, None, None, None):
            raise ValueError("life: time, map, nulls and epoch say how data's rows meet the design: give data too")
        return json.loads(_engine.life(_design(design), json.dumps(o)))
    rows = _rows(time, map, nulls, epoch)
    return json.loads(_engine.life_rows(_design(design), _life_source(data), json.dumps(o), rows))


def life_compare(
    design: "Design | str | Mapping[str, Any]",
    options: Optional[Mapping[str, Any]] = None,
    other_options: Optional[Mapping[str, Any]] = None,
) -> dict:
    """The design's table under two settings side by side (pre-split or not, one policy or
    another, TTL or FIFO, the normalizer on or off), as the page's Months view compares them:
    ``a`` and ``b`` (each ``report``, ``settings`` and the key-range ``map``), ``figures`` and
    the engine's ``verdict``. ``options``/``other_options``: the engine's settings, as
    :func:`life` takes them."""
    return json.loads(
        _engine.life_compare(_design(design), json.dumps(dict(options or {})), json.dumps(dict(other_options or {})))
    )


def check_life(
    design: "Design | str | Mapping[str, Any]",
    options: Optional[Mapping[str, Any]] = None,
    *,
    max_empty_regions: Optional[int] = None,
    max_regions_per_server: Optional[int] = None,
    data: Any = None,
    time: Optional[str] = None,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> dict:
    """The design's simulated months against budgets, as ``rowkey-lab check
    --max-empty-regions N --max-regions-per-server N`` judges them: ``ok``, the worst
    ``emptyRegions`` and ``regionsPerServer`` with their months, and ``breaches`` (the first
    month over each budget), and the months' ``diagnosis`` as :func:`life` gives it (a failed
    gate's worst finding and its checked fix). ``data`` (and ``time``, ``map``, ``nulls``, ``epoch``): the months
    with the writes of the user's rows, as :func:`life` takes them (``check --records``)."""
    budgets: dict = {}
    if max_empty_regions is not None:
        budgets["maxEmptyRegions"] = max_empty_regions
    if max_regions_per_server is not None:
        budgets["maxRegionsPerServer"] = max_regions_per_server
    o = json.dumps(dict(options or {}))
    if data is None:
        if (time, map, nulls, epoch) != (None, None, None, None):
            raise ValueError(
                "check_life: time, map, nulls and epoch say how data's rows meet the design: give data too"
            )
        return json.loads(_engine.check_life(_design(design), o, json.dumps(budgets)))
    return json.loads(
        _engine.life_rows(_design(design), _life_source(data), o, _rows(time, map, nulls, epoch), json.dumps(budgets))
    )


def split_points(
    design: "Design | str | Mapping[str, Any]",
    data: Any,
    regions: int,
    by: str = "rows",
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> list:
    """The ``regions - 1`` split keys (bytes, ascending) that cut these rows into regions of
    equal rows (``by="rows"``) or equal bytes (``by="bytes"``: each row weighs its key's length
    and the design's ``workload.valueSize``, as the report counts a write's bytes), from every
    row's key sorted (exact), with HBase's rules for split keys (no empty key, no repeat: rows
    with few distinct keys may give fewer). A Spark DataFrame is cut from Spark's sort of its
    keys (``rowkey_lab.spark.split_points_df``: the same keys)."""
    if _is_spark(data):
        from ._spark import split_points_df

        return split_points_df(data, design, regions, by, map=map, nulls=nulls, epoch=epoch)
    if by not in ("rows", "bytes"):
        raise ValueError(f'split_points: by="{by}"; expected "rows" or "bytes"')
    rows = _rows(None, map, nulls, epoch)
    return _engine.split_points(_design(design), _source(data), regions, rows, by)


def rekey(
    old: "Design | str | Mapping[str, Any]",
    new: "Design | str | Mapping[str, Any]",
    data: Any,
    regions: Optional[int] = None,
    by: str = "rows",
    *,
    time: Optional[str] = None,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> dict:
    """The move of a table from ``old``'s key to ``new``'s, planned on the old table's rows:
    the dict ``rowkey-lab rekey --json`` prints, ``splitKeysExact`` included. Where each field
    of the new key comes from; the new table's split keys (``splitKeys``): ``regions`` regions
    of equal rows or bytes (``by``) of the rows re-encoded, else the new design's own
    pre-split; per region its rows, KeyValue bytes and HFiles; the job sized; the statements,
    the jobs' text and the cutover checklist. ``options``: the engine's RekeyOptions
    (``family``, ``maxFileSize``, ``parallelism``, ``readMibPerSec``, ``writeMibPerSec``,
    ``compression``, ``oldTable``, ``newTable``, ...; not ``columns``: the rows' own are taken).

    The engine plans it in one call (``rekey_rows``: the cut, one reading of the rows for both
    designs where they can share it, the plan). ``data``: a path (CSV, JSON Lines, Parquet or
    Arrow IPC, read by the engine piece by piece), Arrow data :func:`analyze` takes, a Spark
    DataFrame, or a stream read once: a ``RecordBatchReader`` or query result, an iterator or
    generator of record batches or of rows (dicts), or a binary file object. A stream is read
    once, copied batch by batch (a file object chunk by chunk) to a temporary file the engine
    reads as often as it needs, removed after: memory holds a batch, not the table."""
    if by not in ("rows", "bytes"):
        raise ValueError(f'rekey: by="{by}"; expected "rows" or "bytes"')
    if regions is None and by != "rows":
        raise ValueError("rekey: by= goes with regions=N")
    # a whole number here (its range is the engine's): JSON has no NaN, and a bool or a float
    # was the engine's "cut: expected value", naming no regions=
    if regions is not None and (isinstance(regions, bool) or not isinstance(regions, int)):
        raise TypeError(f"rekey: regions={regions!r}; expected a whole number of regions")
    cut = None if regions is None else json.dumps({"regions": regions, "by": by})
    rows = _rows(time, map, nulls, epoch)
    opts = _json_arg("rekey", "options", options)
    if _is_spark(data):
        return _rekey_spark(old, new, data, cut, opts, time=time, map=map, nulls=nulls, epoch=epoch)
    old_text, new_text = _design(old), _design(new)
    if isinstance(data, (str, os.PathLike)):
        return json.loads(_engine.rekey_rows(old_text, new_text, os.fspath(data), cut, rows, opts))
    if hasattr(data, "__arrow_c_stream__") or not _is_stream(data):
        source = _source(data)
        # Arrow data read again, or what is neither Arrow data nor a stream (None, a number),
        # which the engine refuses by name, as rk.encode does
        if _rereadable(data, source) or not hasattr(source, "__arrow_c_stream__"):
            return json.loads(_engine.rekey_rows(old_text, new_text, source, cut, rows, opts))
    with tempfile.TemporaryDirectory(prefix="rowkey-lab-rekey-") as spool:
        path = _spooled(data, spool)
        return json.loads(_engine.rekey_rows(old_text, new_text, path, cut, rows, opts))


def _rekey_spark(old: Any, new: Any, df: Any, cut: Optional[str], opts: Optional[str], **rows: Any) -> dict:
    """:func:`rekey` over a Spark DataFrame: each design's report from ``analyze_df`` (a design
    cut at the rows, the new one by the engine's rule, counted in its exact mode: Spark sorts
    every key, so the cut is exact), then the engine's plan over the two."""
    from ._spark import _cut_at_the_rows, analyze_df

    def side(doc: Any) -> str:
        if _undeclared(doc):
            design = Design.from_rows(doc, df, map=rows.get("map"))
        else:
            design = doc if isinstance(doc, Design) else Design.from_json(doc)
        mode = "exact" if _cut_at_the_rows(design.json) else "sketch"
        time, map, nulls, epoch = (rows.get(k) for k in ("time", "map", "nulls", "epoch"))
        report = analyze_df(df, design, time, map=map, nulls=nulls, epoch=epoch, mode=mode)
        side = {"design": design.to_dict(), "report": report, "stats": report.get("rows"), "splitKeysExact": True}
        return json.dumps(side)

    new_doc = json.loads(_engine.cut_at_rows(_design(new), cut))
    return json.loads(_engine.rekey_rows_plan(side(old), side(new_doc), opts))


def _undeclared(doc: Any) -> bool:
    """Whether ``doc`` is just a key (its fields to be declared from the rows)."""
    d = doc if isinstance(doc, Design) else Design.from_json(doc)
    return bool(d.undeclared)


def verify(
    old: "Design | str | Mapping[str, Any]",
    new: "Design | str | Mapping[str, Any]",
    old_rows: Any,
    new_rows: Any,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    ignore: Optional[Sequence[str]] = None,
    columns: Optional[Sequence[str]] = None,
) -> dict:
    """A rekey verified: the old table's export (``old_rows``) against the new table's
    (``new_rows``), both read through ``new`` (or just its key, fitted to the old export), each
    row as its new key and a digest of every column both exports hold (the key's and every other,
    a null included), whether or not the design declares it: the dict ``rowkey-lab verify
    --json`` prints, with ``missing`` (old rows with no row under their new key), ``extra``,
    ``changed`` (the key on both sides, another value in a column compared), ``equal``,
    ``complete``, the ``first`` differences, each named by its new key, and the columns:
    ``compared`` (each with the type both sides were read as), ``ignored`` (and why),
    ``onlyOld`` and ``onlyNew`` (a column one export lacks makes them unequal unless it is in
    ``ignore``). ``columns`` restricts the comparison to those columns (and the key's). A column
    whose types differ between the exports is compared as values (an integer against its text
    as text, ms against µs as instants), or refused with the column named.

    Each export is a path (CSV, JSON Lines, Parquet or Arrow IPC, read by the engine piece by
    piece: any size in bounded memory) or Arrow data (a stream that can be read once is copied
    batch by batch to a temporary Arrow IPC file, removed after: the rows are read twice when
    buckets differ). Two Spark DataFrames are verified where they lie
    (``rowkey_lab.spark.verify_df``). ``old`` is checked, as the CLI does."""
    if _is_spark(old_rows) and _is_spark(new_rows):
        from ._spark_rekey import verify_df

        return verify_df(
            old_rows, new_rows, old, new, map=map, nulls=nulls, epoch=epoch, ignore=ignore, columns=columns
        )
    _engine.check_design(_design(old))
    options = _verify_options(ignore, columns)
    with tempfile.TemporaryDirectory(prefix="rowkey-lab-verify-") as spool:

        def side(data: Any, name: str) -> Any:
            if isinstance(data, (str, os.PathLike)):
                return os.fspath(data)
            if _is_spark(data):
                raise TypeError("verify: old_rows and new_rows are both Spark DataFrames, or neither is")
            source = _source(data)
            if _rereadable(data, source):
                return source
            # a stream read once (a reader, a query's result): copied batch by batch to a file
            # the engine reads again for each pass, so memory holds one batch, not the table
            path = os.path.join(spool, f"{name}.arrows")
            reader = pa.RecordBatchReader.from_stream(source)
            with pa.OSFile(path, "wb") as f, pa.ipc.new_stream(f, reader.schema) as w:
                for batch in reader:
                    w.write_batch(batch)
            return path

        a, b = side(old_rows, "old_rows"), side(new_rows, "new_rows")
        text = _engine.verify(_design(new), a, b, _rows(None, map, nulls, epoch), options)
    return json.loads(text)


def read_series(
    files: "str | os.PathLike[str] | Iterable[str | os.PathLike[str]]", table: Optional[str] = None
) -> dict:
    """A live table's regions over snapshots, as ``rowkey-lab observe`` reads them: RegionServer
    ``/jmx`` dumps, the shell's ``list_regions`` or ``status 'detailed'``, region names. ``files``:
    paths in the order taken, a folder standing for its files by name; each file's time from its
    name, the dump, or its modification time. ``table`` picks one table. The files are refused by
    their sizes before any is read (the engine's limits); the dict ``readSeries`` gives in npm."""
    paths = [files] if isinstance(files, (str, os.PathLike)) else list(files)
    found: list = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            names = sorted(n for n in os.listdir(p) if not n.startswith("."))
            found += [f for f in (os.path.join(p, n) for n in names) if os.path.isfile(f)]
        elif os.path.isfile(p):
            found.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or folder")
    _engine.check_series_sizes([os.path.getsize(f) for f in found])
    read = []
    for f in found:
        with open(f, "rb") as fh:
            raw = fh.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"{f}: not UTF-8 text at byte {e.start}") from None
        read.append((f, text, int(os.stat(f).st_mtime * 1000)))
    return json.loads(_engine.read_series(read, table))


def rekey_from_series(
    old: "Design | str | Mapping[str, Any]",
    new: "Design | str | Mapping[str, Any]",
    series: Any,
    regions: int,
    *,
    sample: Optional[int] = None,
    table: Optional[str] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> dict:
    """The move from ``old``'s key to ``new``'s planned from the old table's snapshots alone,
    with no export of its rows: ``series`` is :func:`read_series`' dict, or the files it reads
    (``table`` then picks the table). The new table is cut by bytes into ``regions`` regions at
    the old design's workload re-encoded (``sample`` records of it, 100,000 by default), weighted
    by the old regions' observed sizes. Every figure is an estimate: ``splitKeysExact`` is
    false, ``estimate`` gives the assumptions and each new region's error in bytes. The dict
    ``rowkey-lab rekey OLD NEW --series FILE... --regions N --json`` prints."""
    if not isinstance(series, Mapping):
        series = read_series(series, table)
    opts = json.dumps(dict(options)) if options is not None else None
    text = _engine.rekey_from_series(_design(old), _design(new), json.dumps(series), regions, sample, opts)
    return json.loads(text)


def regions_of(keys: Any, split_keys: Sequence[bytes]) -> pa.Array:
    """The region index (``pa.uint32()``) of each row key in ``keys`` (a binary array, or any
    Arrow data whose first column holds them) in a table pre-split at ``split_keys``: region
    ``i`` holds ``[split_keys[i-1], split_keys[i])``, HBase's rule in its byte order. The split
    keys are taken as HBase's client takes them: sorted, an empty key or a repeat refused."""
    if isinstance(keys, (pa.Array, pa.ChunkedArray)):
        keys = pa.table({"rowkey": keys})
    out = _engine.regions_of(list(split_keys), _source(keys))
    return pa.Array.from_buffers(pa.uint32(), len(out) // 4, [None, pa.py_buffer(out)])


def index_analysis(
    design: "Design | str | Mapping[str, Any]",
    *,
    windows: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> list:
    """Each Phoenix index of the design (``CREATE INDEX`` after its ``CREATE TABLE``) analyzed
    as the table it is, over the design's generated workload, as ``rowkey-lab analyze`` reports
    it: ``[{name, kind, regionsOfItsOwn, report, writes, bytesPerRow, bytes, dataLookupsPerRow,
    busiestShare, maxBusiestShare, hotspotFactor, bytesEstimated, estimates}]``; ``[]`` without
    indexes. ``bytesEstimated`` marks bytes that are estimates (``estimates`` says how)."""
    return json.loads(_engine.analyze_indexes(_design(design), _options(windows, options)))


def advise(
    design: "Design | str | Mapping[str, Any]",
    *,
    servers: Optional[int] = None,
    records: Optional[int] = None,
    windows: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> dict:
    """The design advisor's answer, as ``rowkey-lab advise --json`` prints it: ``{recommended,
    candidates, inputFlags, servers, targetRegions, records, basis, fixedFields, capacity,
    indexFindings}``. Each candidate's ``metrics.indexes`` holds its Phoenix indexes' figures;
    ``indexFindings`` names each global index whose own table concentrates its writes, with the
    changes that fix it (salt it, lead with another column, make it local), each checked by
    analyzing the changed index. ``options`` takes the advisor's other options
    (``threads``, ``capacity``)."""
    o = dict(options or {})
    for k, v in (("servers", servers), ("records", records), ("windows", windows)):
        if v is not None:
            o[k] = v
    return json.loads(_engine.advise(_design(design), json.dumps(o) if o else None))


def index_tables(design: "Design | str | Mapping[str, Any]") -> list:
    """Each Phoenix index of the design as the table Phoenix makes of it: ``[{name, kind, sql,
    splitKeysHex}]`` (its ``CREATE INDEX``; a global index's initial split keys)."""
    return json.loads(_engine.index_tables(_design(design)))


def index_reads(design: "Design | str | Mapping[str, Any]") -> list:
    """Each read of the design through the table Phoenix would pick among the data table and
    its indexes, beside the data table alone: ``[{read, chosen, withoutIndex, candidates}]``."""
    return json.loads(_engine.plan_index_reads(_design(design)))


def to_string_binary(key: bytes) -> str:
    """HBase's ``Bytes.toStringBinary``: a key as the shell and a SPLITS_FILE write it."""
    return _engine.to_string_binary(key)


def splits_file(keys: Iterable[bytes]) -> str:
    """The SPLITS_FILE text of split keys, as ``rowkey-lab splits`` writes it (the engine's one
    writer): one ``toStringBinary`` line each, a leading or trailing space as ``\\x20`` (the
    HBase shell strips each line it reads)."""
    return _engine.splits_file([bytes(k) for k in keys])


def create_statement(table: str, keys: Iterable[bytes], family: str = "cf") -> str:
    """The HBase shell's ``create 'table', 'family', SPLITS => [...]`` for split keys."""
    return _engine.shell_create(table, family, list(keys))


from ._partials import merge, merge_partials, merge_scans, partial, scan  # noqa: E402
