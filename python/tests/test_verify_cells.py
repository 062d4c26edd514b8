"""rk.verify compares every cell (issue 68, item 1): the flights table moved from a time-first
key to route + time, both designs just keys (no payload field declared), each mutation made
here to the new export; the verdicts are written from the mutation. And the CLI's verdict on
the same exports written as files is the same dict."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import rowkey_lab as rk

OLD = {"v": 1, "key": 'time(dep_ts, "yyyyMMddHHmm") + carrier + dec(flight, 4)'}
NEW = {"v": 1, "key": 'origin + dest + time(dep_ts, "yyyyMMddHHmm") + carrier + dec(flight, 4)'}
T0 = 1_357_034_400_000  # 2013-01-01T10:00:00Z


def flights(n: int = 200) -> pa.Table:
    routes = [("JFK", "LAX"), ("EWR", "SFO"), ("LGA", "ORD"), ("JFK", "MIA")]
    return pa.table(
        {
            "carrier": [["AA", "UA", "DL"][i % 3] for i in range(n)],
            "flight": pa.array([100 + i for i in range(n)], pa.int64()),
            "tailnum": [f"N{1000 + i}" for i in range(n)],
            "origin": [routes[i % 4][0] for i in range(n)],
            "dest": [routes[i % 4][1] for i in range(n)],
            "dep_ts": pa.array([T0 + i * 600_000 for i in range(n)], pa.timestamp("ms", tz="UTC")),
            "distance": pa.array([700 + 10 * (i % 50) for i in range(n)], pa.int64()),
            "dep_delay": pa.array([None if i % 7 == 0 else (i * 13) % 90 - 10 for i in range(n)], pa.int64()),
        }
    )


def with_column(t: pa.Table, name: str, values) -> pa.Table:
    return t.set_column(t.schema.get_field_index(name), name, values)


def counts(r: dict) -> tuple:
    return (r["missing"], r["extra"], r["changed"], r["equal"])


def test_a_changed_non_key_cell_is_changed_with_designs_that_are_just_keys():
    old = flights()
    keep = [i for i in range(old.num_rows) if i != 30]
    new = old.take(keep)
    delay = new.column("dep_delay").to_pylist()
    delay[40] += 1
    new = with_column(new, "dep_delay", pa.array(delay, pa.int64()))
    got = rk.verify(OLD, NEW, old, new)
    assert counts(got) == (1, 0, 1, False)
    assert [c["column"] for c in got["compared"]] == old.column_names
    assert got["onlyOld"] == [] and got["onlyNew"] == [] and got["ignored"] == []


def test_a_null_changed_either_way_is_changed():
    old = flights()
    delay = old.column("dep_delay").to_pylist()
    assert delay[14] is None
    delay[14], delay[15] = 0, None
    got = rk.verify(OLD, NEW, old, with_column(old, "dep_delay", pa.array(delay, pa.int64())))
    assert counts(got) == (0, 0, 2, False)


def test_a_column_dropped_or_added_is_named_and_unequal_unless_ignored():
    old = flights()
    dropped = old.drop_columns(["distance"])
    got = rk.verify(OLD, NEW, old, dropped)
    assert got["onlyOld"] == ["distance"] and counts(got) == (0, 0, 0, False)
    got = rk.verify(OLD, NEW, old, dropped, ignore=["distance"])
    assert got["equal"] and got["ignored"] == [{"column": "distance", "why": "--ignore"}]
    added = old.append_column("arr_delay", pa.array([3] * old.num_rows, pa.int64()))
    got = rk.verify(OLD, NEW, old, added)
    assert got["onlyNew"] == ["arr_delay"] and counts(got) == (0, 0, 0, False)


def test_a_type_changed_is_compared_as_values():
    old = flights()
    # the delay as text, the departure in µs: the same values
    text = pa.array([None if v is None else str(v) for v in old.column("dep_delay").to_pylist()], pa.string())
    new = with_column(old, "dep_delay", text)
    new = with_column(new, "dep_ts", old.column("dep_ts").cast(pa.timestamp("us", tz="UTC")))
    got = rk.verify(OLD, NEW, old, new)
    assert counts(got) == (0, 0, 0, True), got
    shown = {c["column"]: c["as"] for c in got["compared"]}
    assert shown["dep_delay"] == "string"
    # one delay's text changed
    changed = text.to_pylist()
    changed[3] = "-1"
    got = rk.verify(OLD, NEW, old, with_column(new, "dep_delay", pa.array(changed, pa.string())))
    assert counts(got) == (0, 0, 1, False)
    # a boolean against a number: refused, the column named
    flags = with_column(old, "distance", pa.array([True] * old.num_rows))
    with pytest.raises(rk.RowkeyLabError, match="column `distance`"):
        rk.verify(OLD, NEW, old, flags)


def test_columns_restricts_the_comparison_and_a_typo_is_refused():
    old = flights()
    other = with_column(old, "distance", pa.array([1] * old.num_rows, pa.int64()))
    got = rk.verify(OLD, NEW, old, other, columns=["dep_delay"])
    assert got["equal"]
    assert {"column": "distance", "why": "not in --columns"} in got["ignored"]
    with pytest.raises(rk.RowkeyLabError, match="no column `dep_dealy`"):
        rk.verify(OLD, NEW, old, old, ignore=["dep_dealy"])


def test_the_clis_verdict_on_the_same_files_is_the_same(cli, tmp_path):
    old = flights()
    new = old.take([i for i in range(old.num_rows) if i != 9]).drop_columns(["tailnum"])
    delay = new.column("dep_delay").to_pylist()
    delay[20] = 999
    new = with_column(new, "dep_delay", pa.array(delay, pa.int64()))
    pq.write_table(old, tmp_path / "old.parquet")
    pq.write_table(new, tmp_path / "new.parquet")
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    (tmp_path / "new.json").write_text(json.dumps(NEW))
    args = ["--old-rows", tmp_path / "old.parquet", "--new-rows", tmp_path / "new.parquet", "--json"]
    clis = json.loads(cli("verify", tmp_path / "old.json", tmp_path / "new.json", *args, status=1))
    got = rk.verify(OLD, NEW, tmp_path / "old.parquet", tmp_path / "new.parquet")
    assert got == clis
    assert counts(got) == (1, 0, 1, False) and got["onlyOld"] == ["tailnum"]
    ignored = json.loads(
        cli("verify", tmp_path / "old.json", tmp_path / "new.json", *args, "--ignore", "tailnum", status=1)
    )
    assert ignored["ignored"] == [{"column": "tailnum", "why": "--ignore"}]


def test_a_fifo_is_refused_not_waited_on(tmp_path):
    # issue 73: the export is read more than once; opening a FIFO waited for a writer
    fifo = tmp_path / "rows.fifo"
    os.mkfifo(fifo)
    with pytest.raises(rk.RowkeyLabError, match="not a regular file"):
        rk.verify(OLD, NEW, flights(), fifo)


def test_a_stream_read_once_is_spooled_not_held_whole():
    # issue 73: a one-shot stream was made a table in memory; it is copied to a temporary
    # file read again per pass, with the same verdict as the table's
    old = flights()
    new = old.take([i for i in range(old.num_rows) if i != 3])
    batches = iter(new.to_batches(max_chunksize=16))
    once = pa.RecordBatchReader.from_batches(new.schema, batches)
    got = rk.verify(OLD, NEW, old, once)
    assert got == rk.verify(OLD, NEW, old, new)
    assert counts(got) == (1, 0, 0, False)
    assert next(batches, None) is None  # the stream was read to its end, once
