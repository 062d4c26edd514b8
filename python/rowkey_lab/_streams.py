"""Rows that can be read once (a reader, an iterator or generator of record batches or of rows,
a file object), copied to a temporary file the engine reads as often as it needs: memory holds
a batch (or a chunk of a file) at a time, not the table."""

from __future__ import annotations

import itertools
import os
from typing import Any, Iterable, Mapping, Optional

import pyarrow as pa

from ._errors import invalid


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
                if not isinstance(chunk, (bytes, bytearray, memoryview, str)):
                    raise invalid(
                        f"read() gave {type(chunk).__name__}, where a file object gives bytes or text", "data"
                    )
                out.write(chunk.encode("utf-8") if isinstance(chunk, str) else chunk)
        return path
    reader = batches_once(data)
    path = os.path.join(folder, "rows.arrows")
    with pa.OSFile(path, "wb") as f, pa.ipc.new_stream(f, reader.schema) as w:
        n = 0
        try:
            for batch in reader:
                w.write_batch(batch)
                n += 1
        except pa.ArrowException as e:
            # a reader whose batch is not what its schema says (pyarrow's own check)
            raise invalid(f"batch {n} could not be read as the stream's schema says: {e}", "data") from e
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
        return pa.RecordBatchReader.from_batches(first.schema, _same_batches(first, it))
    if not isinstance(first, Mapping):
        raise TypeError(
            f"rekey: data's items are {type(first).__name__}; expected pyarrow RecordBatches or rows as dicts"
        )
    head = _rows_batch([first, *itertools.islice(it, SPOOL_ROWS - 1)], 0, None)

    def rest() -> Iterable[pa.RecordBatch]:
        yield head
        start = head.num_rows
        while True:
            chunk = list(itertools.islice(it, SPOOL_ROWS))
            if not chunk:
                return
            yield _rows_batch(chunk, start, head.schema)
            start += len(chunk)

    return pa.RecordBatchReader.from_batches(head.schema, rest())


def _same_batches(first: pa.RecordBatch, it: Any) -> Iterable[pa.RecordBatch]:
    """``first``, then the iterator's items, each a record batch of ``first``'s schema, else a
    ``RowkeyLabError`` at ``data`` naming the item (before, pyarrow's own error, naming
    neither: "Tried to write record batch with different schema")."""
    yield first
    for i, b in enumerate(it, 1):
        if not isinstance(b, pa.RecordBatch):
            raise invalid(f"item {i} is {type(b).__name__}, where item 0 was a pyarrow RecordBatch", "data")
        if not b.schema.equals(first.schema):
            raise invalid(
                f"batch {i}'s columns ({_columns(b.schema)}) are not batch 0's ({_columns(first.schema)})", "data"
            )
        yield b


def _columns(schema: pa.Schema) -> str:
    return ", ".join(f"{f.name}: {f.type}" for f in schema)


def _rows_batch(chunk: list, start: int, schema: Optional[pa.Schema]) -> pa.RecordBatch:
    """Rows ``start`` on (dicts) as one record batch, of ``schema`` after the first: a row that
    is not a dict, or whose values do not fit the columns the first rows gave, is a
    ``RowkeyLabError`` at ``data`` naming the rows (before, pyarrow's "Expected bytes, got a
    'int' object", naming neither)."""
    for i, r in enumerate(chunk):
        if not isinstance(r, Mapping):
            raise invalid(f"row {start + i} is {type(r).__name__}, where the rows before were dicts", "data")
    try:
        return pa.RecordBatch.from_pylist(chunk, schema=schema)
    except (pa.ArrowException, TypeError, ValueError) as e:
        rows = f"rows {start} to {start + len(chunk) - 1}"
        if schema is None:
            raise invalid(f"{rows} do not give each column one type: {e}", "data") from e
        typed = f"the columns rows 0 to {SPOOL_ROWS - 1} typed ({_columns(schema)})"
        raise invalid(f"{rows} do not fit {typed}: {e}", "data") from e
