"""A table analyzed in chunks counted apart (Spark partitions, files, a loop over batches) and
merged into the report one pass over the whole table gives, byte for byte.

    scans = [rk.scan(design, c, time="ts") for c in chunks]      # first pass: rows, time span
    table = rk.merge_scans(scans)
    first = 0
    parts = []
    for c, s in zip(chunks, scans):
        parts.append(rk.partial(design, c, time="ts", table=table, first_row=first))
        first += s["rows"]
    report = rk.merge(parts)            # in any order; rk.merge_partials for a tree of merges

A partial is bytes: ``RKLP``, a format version, a hash of the design, the engine's counts, then a
checksum of them all (a partial changed on its way is refused).
Partials of another design, version or table scan are refused, and so is a merge whose
partials count a row twice or miss one. The merged report is the one-pass report byte for
byte while every row is counted exactly (up to the engine's cap of about a million distinct
rows); past it, every figure but the largest rows still is, and the largest rows are estimates
with their bounds (``largestRowsExact: false``), as one pass's are then.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Optional, Sequence

from . import _engine


def _api():
    from ._args import _design, _options, _rows, _source

    return _design, _options, _rows, _source


def scan(
    design: Any,
    data: Any,
    time: Optional[str] = None,
    *,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
) -> dict:
    """The first pass over one chunk of a table: ``{rows, firstMs, lastMs, outOfOrder}``
    (``rows``: those the analysis counts, after ``nulls="skip"``)."""
    _design, _options, _rows, _source = _api()
    return json.loads(_engine.scan(_design(design), _source(data), _rows(time, map, nulls, epoch)))


def merge_scans(scans: Sequence[Mapping[str, Any]]) -> dict:
    """The chunks' first passes as the whole table's."""
    return json.loads(_engine.merge_scans([json.dumps(dict(s)) for s in scans]))


def partial(
    design: Any,
    data: Any,
    time: Optional[str] = None,
    *,
    table: Optional[Mapping[str, Any]] = None,
    first_row: int = 0,
    map: Optional[Mapping[str, str]] = None,
    nulls: Optional[str] = None,
    epoch: Optional[str] = None,
    windows: Optional[int] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> bytes:
    """The counts of one chunk of a table, as versioned bytes. ``table``: the merged scans of
    every chunk (default: this chunk's own, i.e. the data is the whole table); ``first_row``:
    the rows of the chunks before this one (their scans' ``rows`` summed). With ``table``
    given, a stream (a ``RecordBatchReader``) is read once, each batch counted before the next
    is asked for: memory holds one batch of the chunk."""
    _design, _options, _rows, _source = _api()
    d = _design(design)
    rows = _rows(time, map, nulls, epoch)
    src = _source(data)
    if table is None:
        table = json.loads(_engine.scan(d, src, rows))
    return _engine.partial(d, src, json.dumps(dict(table)), first_row, _options(windows, options), rows)


def merge_partials(parts: Sequence[bytes], design: Any = None) -> bytes:
    """Partials merged into one (a node of a merge tree: any order, any shape)."""
    _design = _api()[0]
    return _engine.merge_partials(list(parts), None if design is None else _design(design))


def merge(parts: Sequence[bytes], design: Any = None) -> dict:
    """The report over partials that together count every row of the table once: the dict
    ``rk.analyze`` gives on the whole table. ``design``, when given, must be the one the
    partials counted (else the design they carry is used)."""
    _design = _api()[0]
    return json.loads(_engine.report_of_partials(list(parts), None if design is None else _design(design)))
