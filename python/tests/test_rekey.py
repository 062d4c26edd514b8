"""rk.rekey (issue 59): the plan on the package's rows is the CLI's on the same rows as a file,
its split keys rk.split_points', its rows per region a count over rk.regions_of of the rows'
new keys. And rk.verify: the CLI's verdict on the same exports, from paths, tables or a stream."""

from __future__ import annotations

import datetime
import json
from collections import Counter

import pyarrow as pa
import pyarrow.parquet as pq
from conftest import SALTED

import rowkey_lab as rk

OLD = {**SALTED, "name": "devices, time first", "key": 'long(ts) + device + "#" + str(seq)'}
OLD.pop("regions")


def test_the_plan_on_rows_is_the_clis_and_counts_apart(rows, files, cli, tmp_path):
    plan = rk.rekey(OLD, SALTED, rows, regions=4, by="bytes")
    keys = rk.split_points(SALTED, rows, 4, "bytes")
    assert [bytes.fromhex(k["hex"]) for k in plan["splitKeys"]] == keys
    regions = rk.regions_of(rk.encode(SALTED, rows), keys).to_pylist()
    per = Counter(regions)
    assert [r["rows"] for r in plan["regions"]] == [per[i] for i in range(len(keys) + 1)]
    assert plan["job"]["rows"] == rows.num_rows
    assert plan["ready"] and {f["from"] for f in plan["fields"]} == {"column"}
    (tmp_path / "old.json").write_text(json.dumps(OLD))
    clis = json.loads(
        cli(
            "rekey",
            tmp_path / "old.json",
            files / "salted.json",
            "--records",
            files / "rows.parquet",
            "--regions",
            "4",
            "--by",
            "bytes",
            "--json",
        )
    )
    assert clis["splitKeys"] == plan["splitKeys"]
    assert clis["job"] == plan["job"]
    assert clis["checklist"] == plan["checklist"]


def test_bad_arguments_are_python_errors(rows):
    import pytest

    with pytest.raises(ValueError, match='by="weight"'):
        rk.rekey(OLD, SALTED, rows, regions=2, by="weight")
    # the engine's located errors, as RowkeyLabError (never a panic)
    with pytest.raises(rk.RowkeyLabError, match="old_report: not an analysis report"):
        rk._engine.rekey_plan(json.dumps(OLD), json.dumps(SALTED), "{}", "{}", None)
    with pytest.raises(rk.RowkeyLabError, match="unknown field `maxFileSizes`"):
        rk.rekey(OLD, SALTED, rows, regions=2, options={"maxFileSizes": 1})


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
