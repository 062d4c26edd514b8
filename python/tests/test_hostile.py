"""Hostile Arrow data never crashes the interpreter (issue 56, items 6 and 8): string offsets out
of order, negative or past their data, dictionary indexes past their dictionary, a stream whose
second batch has another schema, and a chunk's stream that goes on past its table's rows each
come back as a RowkeyLabError (an Exception, never pyo3's PanicException, a BaseException).

The cases that killed the interpreter (SIGSEGV) run in a child process, so that a crash is
this test's failure, not the end of the test run."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pyarrow as pa
import pytest

import rowkey_lab as rk

DESIGN = {
    "v": 1,
    "fields": [{"name": "device", "type": "string"}, {"name": "seq", "type": "long"}],
    "key": 'device + "#" + str(seq)',
}


def run_child(body: str) -> subprocess.CompletedProcess:
    """`body` in a fresh interpreter after the imports and DESIGN; its output and exit status."""
    code = textwrap.dedent(
        f"""
        import numpy as np, pyarrow as pa, rowkey_lab as rk
        DESIGN = {DESIGN!r}
        def refused(table):
            try:
                rk.encode(DESIGN, table)
            except rk.RowkeyLabError as e:
                print("refused", e.kind, e)
            else:
                print("accepted")
        """
    ) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def strings_from_offsets(offsets: list[int], data: bytes) -> str:
    return f"""
    offsets = pa.py_buffer(np.array({offsets!r}, dtype=np.int32).tobytes())
    device = pa.StringArray.from_buffers({len(offsets) - 1}, offsets, pa.py_buffer({data!r}))
    seq = pa.array(range({len(offsets) - 1}), pa.int64())
    refused(pa.table({{"device": device, "seq": seq}}))
    """


@pytest.mark.parametrize(
    "offsets",
    # (a negative last offset, or one past the data, pyarrow's from_buffers refuses itself)
    [[0, 5, 2], [0, -50, 6], [0, 6, 3, 6]],
    ids=["out-of-order", "negative", "backwards"],
)
def test_malformed_string_offsets_are_refused(offsets):
    r = run_child(strings_from_offsets(offsets, b"abcdef"))
    assert r.returncode == 0, f"the interpreter died ({r.returncode}): {r.stderr[-2000:]}"
    assert r.stdout.startswith("refused invalid"), r.stdout + r.stderr
    assert "column `device`" in r.stdout and "not valid Arrow data" in r.stdout


def test_malformed_offsets_read_from_an_ipc_file_are_refused(tmp_path):
    # pyarrow.ipc.open_file reads buffers as written: its default validation does not look at
    # offsets
    path = tmp_path / "bad.arrow"
    r = run_child(
        f"""
    offsets = pa.py_buffer(np.array([0, 5, 2], dtype=np.int32).tobytes())
    device = pa.StringArray.from_buffers(2, offsets, pa.py_buffer(b"abcdef"))
    t = pa.table({{"device": device, "seq": pa.array([1, 2], pa.int64())}})
    with pa.OSFile({str(path)!r}, "wb") as f, pa.ipc.new_file(f, t.schema) as w:
        w.write_table(t)
    refused(pa.ipc.open_file({str(path)!r}).read_all())
    """
    )
    assert r.returncode == 0, f"the interpreter died ({r.returncode}): {r.stderr[-2000:]}"
    assert r.stdout.startswith("refused invalid"), r.stdout + r.stderr


def test_dictionary_indexes_past_the_dictionary_are_refused():
    r = run_child(
        """
    device = pa.DictionaryArray.from_arrays(
        pa.array([0, 7, 1], pa.int32()), pa.array(["a", "b"]), safe=False
    )
    refused(pa.table({"device": device, "seq": pa.array([1, 2, 3], pa.int64())}))
    """
    )
    assert r.returncode == 0, f"the interpreter died ({r.returncode}): {r.stderr[-2000:]}"
    # before: encoded silently as the first value
    assert r.stdout.startswith("refused invalid"), r.stdout + r.stderr


def test_a_second_batch_of_another_schema_is_an_error_not_a_panic():
    # pyarrow's reader of a generator refuses the batch itself (this passed before the checked
    # stream too); the producer handed it on, which the stream's own check now refuses
    first = pa.record_batch({"device": ["a", "b"], "seq": pa.array([1, 2], pa.int64())})
    other = pa.record_batch({"device": pa.array([1, 2], pa.int64()), "seq": ["x", "y"]})
    schema = first.schema

    def batches():
        yield first
        yield other

    reader = pa.RecordBatchReader.from_batches(schema, batches())
    try:
        rk.encode(DESIGN, reader)
    except rk.RowkeyLabError as e:
        assert e.kind in ("invalid", "illegalArgument"), e
    except BaseException as e:
        pytest.fail(f"{type(e).__name__}: {e}")
    else:
        pytest.fail("a batch of another schema was read")


def endless(rows_per_batch: int = 1000):
    """A reader that does not end (it gives up after 1,000 batches, so a reader that does not
    stop fails this test instead of running forever)."""
    schema = pa.schema([("device", pa.string()), ("seq", pa.int64())])

    def gen():
        i = 0
        for _ in range(1000):
            yield pa.record_batch(
                {"device": ["d"] * rows_per_batch, "seq": pa.array(range(i, i + rows_per_batch), pa.int64())},
                schema=schema,
            )
            i += rows_per_batch
        raise RuntimeError("read 1,000 batches of a stream that does not end")

    return pa.RecordBatchReader.from_batches(schema, gen())


TABLE = {"rows": 1000, "firstMs": None, "lastMs": None, "outOfOrder": 0}


def test_a_chunk_stops_at_its_tables_rows():
    with pytest.raises(rk.RowkeyLabError, match="go on past the table's 1000 rows") as e:
        rk.partial(DESIGN, endless(), table=TABLE)
    assert e.value.kind == "invalid"
    # a chunk from row 600 of the same table may hold 400 rows
    with pytest.raises(rk.RowkeyLabError, match="from 600 go on past"):
        rk.partial(DESIGN, endless(300), table=TABLE, first_row=600)


def test_encode_batches_keys_a_stream_that_does_not_end_a_batch_at_a_time():
    """Issue 73: ``rk.encode`` of a stream that does not end holds every key until its 4 GiB
    cap (aborting under a smaller memory limit); ``rk.encode_batches`` yields each batch's keys
    as it reads it: the first three batches of an endless stream, each the keys ``rk.encode``
    gives that batch alone, without the stream being read on (``endless`` fails if it is)."""
    import itertools

    schema = pa.schema([("device", pa.string()), ("seq", pa.int64())])
    got = list(itertools.islice(rk.encode_batches(DESIGN, endless()), 3))
    assert [len(a) for a in got] == [1000, 1000, 1000]
    for i, keys in enumerate(got):
        batch = pa.record_batch(
            {"device": ["d"] * 1000, "seq": pa.array(range(i * 1000, i * 1000 + 1000), pa.int64())},
            schema=schema,
        )
        assert keys.equals(rk.encode(DESIGN, batch))
    # a bad design is refused before anything is read
    with pytest.raises(rk.RowkeyLabError):
        rk.encode_batches({"v": 1, "key": "nope("}, endless())


def test_encode_batches_takes_a_generator_of_batches_and_refuses_other_items_by_name():
    """Issue 73: a generator or iterator of record batches (a stream that does not end, the
    function's very case) failed with pyarrow's "Cannot convert generator to
    pyarrow.lib.RecordBatch", and any item or argument that is no batch (``None``, a number, a
    dict) with pyarrow's error, naming nothing. Now a generator is read a batch at a time, and
    what is no Arrow data is the engine's RowkeyLabError at ``source``, as ``rk.encode`` says."""
    import itertools

    def batches():
        i = 0
        while True:
            yield pa.record_batch({"device": ["d"] * 10, "seq": pa.array(range(i, i + 10), pa.int64())})
            i += 10

    got = list(itertools.islice(rk.encode_batches(DESIGN, batches()), 3))
    assert [len(a) for a in got] == [10, 10, 10]
    assert got[2].equals(
        rk.encode(DESIGN, pa.table({"device": ["d"] * 10, "seq": pa.array(range(20, 30), pa.int64())}))
    )
    first = pa.record_batch({"device": ["a"], "seq": pa.array([1], pa.int64())})
    for data in (None, 42, {"device": ["a"]}, b"device,seq\n", [first, "x"], iter([first, 7])):
        with pytest.raises(rk.RowkeyLabError) as e:
            list(rk.encode_batches(DESIGN, data))
        assert (e.value.kind, e.value.path) == ("illegalArgument", "source"), repr(data)
        assert "expected Arrow data" in str(e.value)
