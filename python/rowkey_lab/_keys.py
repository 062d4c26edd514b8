"""Row keys as Arrow arrays: the engine's keys and offsets wrapped without a copy, all at once
(``encode``) or a record batch at a time (``encode_batches``)."""

from __future__ import annotations

from typing import Any, Iterator, Optional

import pyarrow as pa

from . import _engine


def key_array(keys: bytes, offsets: bytes, large: bool = False) -> pa.Array:
    """The engine's keys and their u32 offsets as an Arrow array without a copy of the keys:
    ``pa.binary()``, or ``pa.large_binary()`` when asked or past 2 GiB of keys."""
    n = len(offsets) // 4 - 1
    if n >= 0 and (large or len(keys) > 2**31 - 1):
        offs = pa.Array.from_buffers(pa.uint32(), n + 1, [None, pa.py_buffer(offsets)])
        return pa.Array.from_buffers(
            pa.large_binary(), n, [None, offs.cast(pa.int64()).buffers()[1], pa.py_buffer(keys)]
        )
    return pa.Array.from_buffers(pa.binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(keys)])


def _batches(data: Any) -> Iterator[Any]:
    """``data``'s record batches as they are read: a reader or anything with an Arrow C stream
    (a table, a DuckDB or polars result) through ``pa.RecordBatchReader``, or batches (a list,
    or an iterator or generator of them, read one at a time: a stream that does not end)."""
    if isinstance(data, pa.RecordBatch):
        yield data
        return
    if type(data).__module__.startswith("pandas"):
        data = pa.Table.from_pandas(data, preserve_index=False)
    if hasattr(data, "__arrow_c_stream__"):
        yield from pa.RecordBatchReader.from_stream(data)
        return
    if isinstance(data, (list, tuple)) or (hasattr(data, "__next__") and hasattr(data, "__iter__")):
        yield from data
        return
    yield data  # the engine says what it expected


def encode_batches(design_json: str, data: Any, rows_json: Optional[str]) -> Iterator[pa.Array]:
    """Each batch of ``data`` encoded (the engine's ``encode`` over that batch alone) and its
    keys yielded before the next batch is read. An item that is no record batch goes to the
    engine as it is, which encodes Arrow data (a table) and refuses anything else with its
    ``RowkeyLabError`` at ``source`` (before, pyarrow's "Cannot convert int to
    pyarrow.lib.RecordBatch")."""
    for batch in _batches(data):
        source = pa.Table.from_batches([batch]) if isinstance(batch, pa.RecordBatch) else batch
        keys, offsets = _engine.encode(design_json, source, rows_json)
        yield key_array(keys, offsets)
