"""Rows that can be read once (a reader, an iterator or generator of record batches or of rows,
a file object), copied to a temporary file the engine reads as often as it needs: memory holds
a batch (or a chunk of a file) at a time, not the table."""

from __future__ import annotations

import itertools
import os
from typing import Any, Iterable, Mapping

import pyarrow as pa


def is_stream(data: Any) -> bool:
    """Rows that can be read once: a binary file object, or an iterator or generator (of record
    batches or of rows); not a path, a list of batches or Arrow data."""
    if isinstance(data, (str, bytes, os.PathLike, list, tuple, Mapping)):
        return False
    return hasattr(data, "read") or hasattr(data, "__next__")


#: Rows (dicts) of an iterator made into one record batch at a time by :func:`spooled`.
SPOOL_ROWS = 65_536


def spooled(data: Any, folder: str) -> str:
    """A stream read once, copied to a file in ``folder`` the engine reads again for each pass:
    a file object's bytes as they are (named as it is, so its format is known by its extension,
    else by its first bytes), Arrow data or an iterator of batches or rows as an Arrow IPC
    stream, a batch at a time."""
    if not hasattr(data, "__arrow_c_stream__") and hasattr(data, "read"):
        name = getattr(data, "name", None)
        path = os.path.join(folder, os.path.basename(name) if isinstance(name, str) and name else "rows")
        with open(path, "wb") as out:
            while True:
                chunk = data.read(1 << 20)
                if not chunk:
                    break
                out.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
        return path
    reader = batches_once(data)
    path = os.path.join(folder, "rows.arrows")
    with pa.OSFile(path, "wb") as f, pa.ipc.new_stream(f, reader.schema) as w:
        for batch in reader:
            w.write_batch(batch)
    return path


def batches_once(data: Any) -> pa.RecordBatchReader:
    """``data`` as a reader of its batches, read as they are asked for: Arrow data's own
    stream, or an iterator's items (record batches as they are; rows, dicts, gathered
    :data:`SPOOL_ROWS` to a batch, each batch of the first's schema)."""
    if hasattr(data, "__arrow_c_stream__"):
        return pa.RecordBatchReader.from_stream(data)
    it = iter(data)
    first = next(it, None)
    if first is None:
        raise ValueError("rekey: data gave no rows")
    if isinstance(first, pa.RecordBatch):
        return pa.RecordBatchReader.from_batches(first.schema, itertools.chain([first], it))
    if not isinstance(first, Mapping):
        raise TypeError(
            f"rekey: data's items are {type(first).__name__}; expected pyarrow RecordBatches or rows as dicts"
        )
    head = pa.RecordBatch.from_pylist([first, *itertools.islice(it, SPOOL_ROWS - 1)])

    def rest() -> Iterable[pa.RecordBatch]:
        yield head
        while True:
            chunk = list(itertools.islice(it, SPOOL_ROWS))
            if not chunk:
                return
            yield pa.RecordBatch.from_pylist(chunk, schema=head.schema)

    return pa.RecordBatchReader.from_batches(head.schema, rest())
