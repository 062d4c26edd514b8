"""rk.rekey (issue 59): the plan on the package's rows is the CLI's on the same rows as a file,
its split keys rk.split_points', its rows per region a count over rk.regions_of of the rows'
new keys. And rk.verify: the CLI's verdict on the same exports, from paths, tables or a stream."""

from __future__ import annotations

import datetime
import io
import json
import re
from collections import Counter

import pyarrow as pa
import pyarrow.parquet as pq
from conftest import SALTED

import rowkey_lab as rk
from rowkey_lab import _streams

OLD = {**SALTED, "name": "devices, time first", "key": 'long(ts) + device + "#" + str(seq)'}
OLD.pop("regions")


def clis_plan(cli, files, tmp_path, *flags) -> dict:
    """`rowkey-lab rekey OLD salted.json --records rows.parquet FLAGS --json`: the CLI's plan on
    the rows the tests' table holds, as a file."""
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    args = ["rekey", tmp_path / "old.json", files / "salted.json", "--records", files / "rows.parquet"]
    return json.loads(cli(*args, *flags, "--json"))


def test_the_plan_on_rows_is_the_clis_and_counts_apart(rows, files, cli, tmp_path):
    plan = rk.rekey(OLD, SALTED, rows, regions=4, by="bytes")
    # the whole answer is the CLI's on the same rows as a file (issue 71: one engine entry)
    assert plan == clis_plan(cli, files, tmp_path, "--regions", "4", "--by", "bytes")
    assert plan["splitKeysExact"] is True
    keys = rk.split_points(SALTED, rows, 4, "bytes")
    assert [bytes.fromhex(k["hex"]) for k in plan["splitKeys"]] == keys
    regions = rk.regions_of(rk.encode(SALTED, rows), keys).to_pylist()
    per = Counter(regions)
    assert [r["rows"] for r in plan["regions"]] == [per[i] for i in range(len(keys) + 1)]
    assert plan["job"]["rows"] == rows.num_rows
    assert plan["ready"] and {f["from"] for f in plan["fields"]} == {"column"}
    # a path is read by the engine itself: the same plan
    assert rk.rekey(OLD, SALTED, files / "rows.parquet", regions=4, by="bytes") == plan


def test_without_regions_the_new_designs_own_pre_split_is_the_clis(rows, files, cli, tmp_path):
    plan = rk.rekey(OLD, SALTED, rows)
    assert plan == clis_plan(cli, files, tmp_path)
    # SALTED's explicit pre-split, "02", "04", "06", as it is
    assert [k["binary"] for k in plan["splitKeys"]] == ["02", "04", "06"]
    assert plan["splitKeysExact"] is True


def test_a_stream_is_read_once_with_the_tables_plan(rows, tmp_path):
    # issue 73: a one-shot stream (a reader, a generator of batches or of rows, a file object)
    # failed: each design read the data again. Now it is copied once to a temporary file
    want = rk.rekey(OLD, SALTED, rows, regions=4, by="bytes")
    batches = iter(rows.to_batches(max_chunksize=500))
    reader = pa.RecordBatchReader.from_batches(rows.schema, batches)
    assert rk.rekey(OLD, SALTED, reader, regions=4, by="bytes") == want
    assert next(batches, None) is None  # read to its end, once

    def generated():
        yield from rows.to_batches(max_chunksize=700)

    gen = generated()
    assert rk.rekey(OLD, SALTED, gen, regions=4, by="bytes") == want
    assert next(gen, None) is None
    dicts = iter(rows.to_pylist())
    assert rk.rekey(OLD, SALTED, dicts, regions=4, by="bytes") == want
    assert next(dicts, None) is None
    pq.write_table(rows, tmp_path / "rows.parquet")
    with open(tmp_path / "rows.parquet", "rb") as f:
        assert rk.rekey(OLD, SALTED, f, regions=4, by="bytes") == want
    with open(tmp_path / "rows.parquet", "rb") as f:
        unnamed = io.BytesIO(f.read())  # no name: its format from its first bytes
    assert rk.rekey(OLD, SALTED, unnamed, regions=4, by="bytes") == want


def test_a_stream_of_rows_is_held_a_batch_at_a_time(rows, monkeypatch):
    # bounded memory: an iterator's rows are taken SPOOL_ROWS at a time, as the copy asks
    monkeypatch.setattr(_streams, "SPOOL_ROWS", 128)
    consumed = 0

    def source():
        nonlocal consumed
        for r in rows.to_pylist():
            consumed += 1
            yield r

    reader = _streams.batches_once(source())
    first = reader.read_next_batch()
    assert first.num_rows == 128 and consumed <= 2 * 128
    sizes = [first.num_rows, *(b.num_rows for b in reader)]
    assert max(sizes) == 128 and sum(sizes) == rows.num_rows == consumed
    plan = rk.rekey(OLD, SALTED, source(), regions=2)
    assert plan["job"]["rows"] == rows.num_rows


def test_bad_arguments_are_python_errors(rows):
    import pytest

    with pytest.raises(ValueError, match='by="weight"'):
        rk.rekey(OLD, SALTED, rows, regions=2, by="weight")
    with pytest.raises(ValueError, match="by= goes with regions"):
        rk.rekey(OLD, SALTED, rows, by="bytes")
    # the engine's located errors, as RowkeyLabError (never a panic)
    with pytest.raises(rk.RowkeyLabError, match="old_report: not an analysis report"):
        rk._engine.rekey_plan(json.dumps(OLD), json.dumps(SALTED), "{}", "{}", None)
    with pytest.raises(rk.RowkeyLabError, match="unknown field `maxFileSizes`"):
        rk.rekey(OLD, SALTED, rows, regions=2, options={"maxFileSizes": 1})
    with pytest.raises(rk.RowkeyLabError, match="rows' own columns") as e:
        rk.rekey(OLD, SALTED, rows, regions=2, options={"columns": ["device"]})
    assert e.value.path == "options.columns"
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.rekey(OLD, SALTED, rows, regions=0)
    assert e.value.path == "regions"
    with pytest.raises(TypeError, match="expected pyarrow RecordBatches or rows as dicts"):
        rk.rekey(OLD, SALTED, iter([1, 2, 3]), regions=2)


def test_the_plan_from_a_snapshot_series_is_the_clis(cli, tmp_path):
    # the observe fixtures' list_regions (tests/js/cli/cli-rekey.test.mjs derives its figures): at
    # the last snapshot [, m) holds 12 MB and [m, ) 20 MB, after 3,600 and 900 requests in 60 s
    from conftest import ROOT

    series = ROOT / "tests" / "fixtures" / "observe" / "list_regions"
    old = json.loads((ROOT / "tests" / "fixtures" / "observe" / "design.json").read_text())
    salted = {**old, "key": 'salt(host, 4, as=dec(2)) + "|" + host + "|" + long(ts)'}
    mib = 2**20
    s = rk.read_series(series)
    last = s["intervals"][-1]["regions"]
    assert sorted(r["sizeBytes"] for r in last) == [12 * mib, 20 * mib]
    plan = rk.rekey_from_series(old, salted, s, 4)
    assert plan["splitKeysExact"] is False
    assert plan["estimate"]["bytes"] == 32 * mib
    assert len(plan["splitKeys"]) == 3 and all(k["binary"][:2] in ("00", "01", "02", "03") for k in plan["splitKeys"])
    assert sum(r["bytes"] for r in plan["regions"]) == plan["job"]["bytesWritten"]
    # the files themselves read the same, and the CLI gives the same plan
    assert rk.rekey_from_series(old, salted, series, 4) == plan
    (tmp_path / "salted.json").write_text(json.dumps(salted))
    design = ROOT / "tests" / "fixtures" / "observe" / "design.json"
    clis = cli("rekey", design, tmp_path / "salted.json", "--series", series, "--regions", "4", "--json")
    assert json.loads(clis) == plan


def test_a_series_refused_before_it_is_read(tmp_path):
    import pytest

    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        rk.read_series(tmp_path / "nothing")
    (tmp_path / "dump.json").write_bytes(b"\xff\xfe not text")
    with pytest.raises(ValueError, match="not UTF-8 text at byte 0"):
        rk.read_series(tmp_path / "dump.json")
    # the engine's errors, located, never a panic
    from conftest import ROOT

    series = rk.read_series(ROOT / "tests" / "fixtures" / "observe" / "list_regions")
    old = json.loads((ROOT / "tests" / "fixtures" / "observe" / "design.json").read_text())
    with pytest.raises(rk.RowkeyLabError, match="regions: 1 to"):
        rk.rekey_from_series(old, old, series, 0)
    with pytest.raises(rk.RowkeyLabError, match="not a series read_series gives"):
        rk.rekey_from_series(old, old, {"intervals": []}, 2)


def test_verify_is_the_clis_verdict_on_files_and_tables(rows, files, cli, tmp_path):
    # the new table's export: the rows reversed, one dropped, one's time (a cell) changed
    n = rows.num_rows
    keep = [i for i in reversed(range(n)) if i != 5]
    new = rows.take(keep)
    ts = new.column("ts").to_pylist()
    at = keep.index(7)
    ts[at] = ts[at] + datetime.timedelta(seconds=1)
    new = new.set_column(new.schema.get_field_index("ts"), "ts", pa.array(ts, new.schema.field("ts").type))
    pq.write_table(new, tmp_path / "new.parquet")
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    clis = json.loads(
        cli(
            "verify",
            tmp_path / "old.json",
            files / "salted.json",
            "--old-rows",
            files / "rows.parquet",
            "--new-rows",
            tmp_path / "new.parquet",
            "--json",
            status=1,
        )
    )
    for old_rows, new_rows in [
        (files / "rows.parquet", tmp_path / "new.parquet"),  # two paths
        (rows, new),  # two tables
        (str(files / "rows.parquet"), pa.RecordBatchReader.from_batches(new.schema, new.to_batches())),
    ]:
        got = rk.verify(OLD, SALTED, old_rows, new_rows)
        assert got == clis
    assert (clis["missing"], clis["extra"], clis["changed"]) == (1, 0, 1)
    named = sorted((d["kind"], d["key"]) for d in clis["first"])
    keys = rk.encode(SALTED, rows).to_pylist()
    assert named == sorted([("missing", rk.to_string_binary(keys[5])), ("changed", rk.to_string_binary(keys[7]))])
    same = rk.verify(OLD, SALTED, rows, rows.take(list(reversed(range(n)))))
    assert same["equal"] and same["oldRows"] == n


def test_verify_a_phoenix_table_with_empty_cells(rows):
    # a Phoenix primary key ends the key: the rows' digests are kept beside it
    phoenix = {**SALTED, "key": "salt(4, hash=phoenix) + pk(device, VARCHAR) + pk(seq, BIGINT)"}
    phoenix.pop("regions", None)
    ts = rows.column("ts").to_pylist()
    ts[::9] = [None] * len(ts[::9])
    old = rows.set_column(rows.schema.get_field_index("ts"), "ts", pa.array(ts, rows.schema.field("ts").type))
    assert rk.verify(OLD, phoenix, old, old.take(list(reversed(range(old.num_rows)))))["equal"]
    filled = list(ts)
    filled[0] = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
    new = old.set_column(old.schema.get_field_index("ts"), "ts", pa.array(filled, old.schema.field("ts").type))
    got = rk.verify(OLD, phoenix, old, new)
    assert (got["missing"], got["extra"], got["changed"]) == (0, 0, 1)
    key = rk.encode(phoenix, old.slice(0, 1)).to_pylist()[0]
    assert [(d["kind"], d["key"]) for d in got["first"]] == [("changed", rk.to_string_binary(key))]


def test_a_stream_that_changes_under_way_is_refused_at_data(rows):
    """Issue 73: a stream whose items change kind or schema part-way (a dict after batches, a
    batch of other columns, rows whose values change type, a reader whose batch is not its
    schema, a file object whose read() gives no bytes) failed with pyarrow's own errors ("Tried
    to write record batch with different schema", "Expected bytes, got a 'int' object"), naming
    neither the argument nor where. Each is now a RowkeyLabError of kind invalid at ``data``."""
    import pytest

    first = rows.to_batches(max_chunksize=500)[0]
    other = pa.record_batch({"other": [1.5]})

    def then(*items):
        yield first
        yield from items

    def dicts():
        yield {"device": "a", "seq": 1}
        yield {"device": 5, "seq": "x"}

    class Reads:
        name = "rows.csv"

        def read(self, n=-1):
            return 42

    bad_reader = pa.RecordBatchReader.from_batches(first.schema, iter([other]))
    for data, said in (
        (then({"device": "a"}), "item 1 is dict"),
        (then(other), "batch 1's columns (other: double) are not batch 0's"),
        (dicts(), "rows 0 to 1 do not give each column one type"),
        (bad_reader, "batch 0 could not be read as the stream's schema says"),
        (Reads(), "read() gave int"),
    ):
        with pytest.raises(rk.RowkeyLabError, match=re.escape(said)) as e:
            rk.rekey(OLD, SALTED, data, regions=2)
        assert (e.value.kind, e.value.path) == ("invalid", "data")


def test_rekey_arguments_of_the_wrong_type_name_themselves(rows):
    """Issue 73: ``regions=2.5``, ``True`` or NaN was the engine's "cut: expected value at line 1
    column 13", ``regions=10**30`` its "cut: invalid type: floating point", ``options=[...]``
    dict()'s error and ``options={"compression": nan}`` the engine's "expected value", ``map=[]``
    dict()'s: none named the argument. ``data=None`` was "'NoneType' object is not iterable"."""
    import pytest

    for regions in (2.5, True, float("nan"), "4"):
        with pytest.raises(TypeError, match="regions="):
            rk.rekey(OLD, SALTED, rows, regions=regions)
    for regions in (10**30, -3):
        with pytest.raises(rk.RowkeyLabError) as e:
            rk.rekey(OLD, SALTED, rows, regions=regions)
        assert e.value.path == "regions", str(e.value)
    for options in ([1, 2], {"compression": float("nan")}, {"family": object()}):
        with pytest.raises(TypeError, match="rekey: options"):
            rk.rekey(OLD, SALTED, rows, regions=2, options=options)
    with pytest.raises(TypeError, match="map must be a mapping"):
        rk.rekey(OLD, SALTED, rows, regions=2, map=["device"])
    with pytest.raises(rk.RowkeyLabError, match="expected Arrow data") as e:
        rk.rekey(OLD, SALTED, None, regions=2)
    assert e.value.kind == "illegalArgument"


def test_a_report_written_by_hand_is_checked_at_its_split_keys(rows):
    """Issue 73: a report's split keys went into the plan unchecked (bad hex was an error at
    ``hex``; an empty key or one of 40,000 bytes went into the ``create`` statement)."""
    import pytest

    old_report = rk.analyze(OLD, rows)
    new_report = rk.analyze(SALTED, rows)

    def plan(r):
        return rk._engine.rekey_plan(json.dumps(OLD), json.dumps(SALTED), json.dumps(old_report), json.dumps(r), None)

    assert json.loads(plan(new_report))["splitKeys"]
    for keys, at, kind in (
        (["zz"], "[0]", "illegalArgument"),
        (["01", ""], "[1]", "illegalArgument"),
        (["02", "01"], "[1]", "illegalArgument"),
        (["ab" * 40_000], "[0]", "limit"),
    ):
        with pytest.raises(rk.RowkeyLabError) as e:
            plan({**new_report, "presplitKeysHex": keys})
        assert (e.value.path, e.value.kind) == (f"new_report.presplitKeysHex{at}", kind), str(e.value)
