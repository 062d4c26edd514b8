"""rk.analyze: the CLI's `analyze --records --json` report on the same rows; rk.split_points:
every key sorted and cut, and the CLI's `splits --records`."""

import json
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import SALTED, SALTED_BOUNDS, salt_cut

import rowkey_lab as rk


def _without_format(report):
    r = dict(report)
    rows = dict(r.pop("rows"))
    rows.pop("format")
    return r, rows


@pytest.mark.parametrize("time", [None, "ts"])
def test_analyze_is_the_clis_report(files, cli, time):
    args = ["analyze", files / "salted.json", "--records", files / "rows.parquet", "--json"]
    if time:
        args += ["--time", time]
    want = json.loads(cli(*args))
    got = rk.analyze(SALTED, pq.read_table(files / "rows.parquet"), time=time)
    # the same report; `rows.format` names what was read (the CLI's file, here Arrow batches)
    assert _without_format(got) == _without_format(want)
    assert want["rows"]["format"] == "parquet"


def test_analyze_does_not_depend_on_batches(rows):
    want = rk.analyze(SALTED, rows, time="ts")
    assert rk.analyze(SALTED, rows.to_reader(max_chunksize=333), time="ts") == want
    assert want["writes"] == len(rows)
    assert sum(r["writes"] for r in want["regions"]) == len(rows)


def test_a_file_path_is_read_by_the_engine_as_the_cli_reads_it(files, cli, rows, tmp_path):
    # a Parquet file (by row group) and the same rows as CSV, read from their paths
    want = json.loads(
        cli("analyze", files / "salted.json", "--records", files / "rows.parquet", "--json", "--time", "ts")
    )
    assert rk.analyze(SALTED, files / "rows.parquet", time="ts") == want
    csv = tmp_path / "rows.csv"
    import pyarrow.csv as pcsv

    pcsv.write_csv(rows.select(["device", "seq", "note"]), csv)
    want = json.loads(cli("analyze", files / "salted.json", "--records", csv, "--json"))
    got = rk.analyze(SALTED, str(csv))
    assert got == want and got["rows"]["format"] == "csv"
    with pytest.raises(rk.RowkeyLabError, match="missing.parquet") as e:
        rk.analyze(SALTED, tmp_path / "missing.parquet")
    assert e.value.path == "data"


class _Counted:
    """A table's stream, counting how often it is taken."""

    def __init__(self, table):
        self.table, self.taken = table, 0

    def __arrow_c_stream__(self, requested_schema=None):
        self.taken += 1
        return self.table.__arrow_c_stream__(requested_schema)


def test_the_second_pass_reads_a_table_again_or_the_batches_a_stream_held(rows):
    from rowkey_lab import _engine

    want = rk.analyze(SALTED, rows, time="ts")
    doc = json.dumps(SALTED)
    for keep, reread, taken in [(None, True, 1), (0, True, 2), (0, False, 1), (None, False, 1)]:
        opts = {"time": "ts", **({"keepBytes": keep} if keep is not None else {})}
        src = _Counted(rows)
        got = json.loads(_engine.analyze(doc, src, None, json.dumps(opts), reread))
        # kept rows are counted from memory; else the table is read again, or the batches of a
        # stream read once are held: one report
        assert got == want and src.taken == taken, (keep, reread)
    # rk.analyze reads a table twice, and holds a reader's batches (it can be read once)
    assert rk.analyze(SALTED, rows.to_reader(max_chunksize=500), time="ts") == want


def test_analyze_runs_on_threads_at_once(rows):
    # the GIL is released while the engine works: four analyses on threads give one report
    want = rk.analyze(SALTED, rows)
    with ThreadPoolExecutor(4) as ex:
        assert all(r == want for r in ex.map(lambda _: rk.analyze(SALTED, rows), range(4)))


@pytest.mark.parametrize("regions", [2, 7, 64])
def test_split_points_are_every_key_sorted_and_cut(rows, regions):
    keys = rk.encode(SALTED, rows).to_pylist()
    got = rk.split_points(SALTED, rows, regions=regions)
    # SALTED's eight salt buckets kept whole (conftest.salt_cut: the rule, by hand)
    assert got == salt_cut(keys, regions, SALTED_BOUNDS)
    # each region then holds its share of rows (within the rows of one repeated key)
    bounds = [b""] + got
    counts = [
        sum(1 for k in keys if lo <= k and (i + 1 == len(bounds) or k < bounds[i + 1])) for i, lo in enumerate(bounds)
    ]
    assert sum(counts) == len(keys)


def _cut_bytes(keys, regions, value_size):
    """Regions of equal bytes by hand: each row weighs its key and the value; SALTED's buckets
    kept whole (conftest.salt_cut)."""
    return salt_cut(keys, regions, SALTED_BOUNDS, lambda k: len(k) + value_size)


@pytest.mark.parametrize("regions", [2, 7, 64])
def test_split_points_by_bytes_cut_the_running_weight(rows, regions):
    keys = rk.encode(SALTED, rows).to_pylist()
    # no workload: the engine's default value size, 100 bytes
    assert rk.split_points(SALTED, rows, regions=regions, by="bytes") == _cut_bytes(keys, regions, 100)
    small = dict(SALTED, workload={"records": 1000, "valueSize": 3})
    got = rk.split_points(small, rows, regions=regions, by="bytes")
    assert got == _cut_bytes(keys, regions, 3)
    # keys of unequal lengths: cut by bytes, not by rows, when the values weigh little (within
    # buckets: 7 regions hold whole buckets either way)
    if regions == 64:
        assert got != rk.split_points(small, rows, regions=regions)


def test_split_points_are_the_clis(files, cli):
    want = cli("splits", files / "salted.json", "--records", files / "rows.parquet", "--regions", "16").splitlines()
    got = rk.split_points(SALTED, pq.read_table(files / "rows.parquet"), regions=16)
    assert [rk.to_string_binary(k) for k in got] == want
    assert rk.splits_file(got).splitlines() == want
    create = cli(
        "splits", files / "salted.json", "--records", files / "rows.parquet", "--regions", "16", "--create", "devices"
    )
    assert rk.create_statement("devices", got) == create.strip()


def test_regions_of_is_hbases_start_end_rule(rows):
    import bisect

    keys = rk.encode(SALTED, rows)
    splits = rk.split_points(SALTED, rows, regions=9)
    got = rk.regions_of(keys, splits).to_pylist()
    # region i holds [splits[i-1], splits[i]): the split keys at or below the key
    assert got == [bisect.bisect_right(splits, k) for k in keys.to_pylist()]
    assert rk.regions_of(keys.cast(pa.large_binary()), splits).to_pylist() == got
    # the split keys as HBase's client takes them: sorted for it, a repeat or an empty key refused
    assert rk.regions_of(keys, splits[::-1]).to_pylist() == got
    with pytest.raises(rk.RowkeyLabError):
        rk.regions_of(keys, splits + splits[:1])
    with pytest.raises(rk.RowkeyLabError):
        rk.regions_of(keys, [b""] + splits)
    with pytest.raises(rk.RowkeyLabError, match="binary"):
        rk.regions_of(pa.array(["a"]), splits)


def test_a_design_that_is_just_a_key_declares_its_fields_from_the_data(rows, files, cli):
    key_only = {k: v for k, v in SALTED.items() if k != "fields"}
    d = rk.Design.from_rows(key_only, rows)
    # the key writes device and seq as they are (str(seq) is text of any type): the columns'
    # own types, string and int64
    assert [(f["field"], f["type"]) for f in d.inferred] == [("device", "string"), ("seq", "long")]
    assert d.to_dict()["fields"] == [
        {"name": "device", "type": "string"},
        {"name": "seq", "type": "long"},
    ]
    # the declared design's report on the same rows, and the CLI's for the key alone
    # (the columns bound aside: the declared design binds ts too)
    got, want = rk.analyze(d, rows), rk.analyze(SALTED, rows)
    assert got["rows"].pop("columns") == {"device": "device", "seq": "seq"}
    want["rows"].pop("columns")
    assert got == want
    (files / "key-only.json").write_text(json.dumps(key_only))
    parquet = files / "rows.parquet"
    want = json.loads(cli("analyze", files / "key-only.json", "--records", parquet, "--json"))
    got = rk.analyze(rk.Design.from_rows(key_only, pq.read_schema(files / "rows.parquet")), rows)
    assert _without_format(got)[0] == _without_format(want)[0]
    # a time segment makes its field a timestamp; a mapped column; a missing one is named
    timed = rk.Design.from_rows({"v": 1, "key": 'who + time(t, "yyyyMMdd")'}, rows, map={"who": "device", "t": "ts"})
    assert [(f["field"], f["column"], f["type"]) for f in timed.inferred] == [
        ("who", "device", "string"),
        ("t", "ts", "timestamp"),
    ]
    with pytest.raises(rk.RowkeyLabError, match="has no column `nope`"):
        rk.Design.from_rows({"v": 1, "key": "nope"}, rows)
    with pytest.raises(rk.RowkeyLabError, match="expected an Arrow schema"):
        rk.Design.from_rows({"v": 1, "key": "device"}, 42)


def test_from_json_takes_a_design_that_is_just_a_key_as_the_cli_does(rows, files, cli):
    # the CLI reads `{"v": 1, "key": ...}` and declares its fields from the rows it is given;
    # so does the package, in every function that takes rows
    key_only = {k: v for k, v in SALTED.items() if k != "fields"}
    d = rk.Design.from_json(key_only)
    assert d.undeclared == ["device", "seq"]
    assert rk.Design.from_json(SALTED).undeclared == []
    declared = rk.Design.from_rows(key_only, rows)
    assert rk.encode(d, rows).equals(rk.encode(declared, rows))
    assert rk.analyze(d, rows) == rk.analyze(declared, rows)
    assert rk.split_points(d, rows, regions=8) == rk.split_points(declared, rows, regions=8)
    assert rk.split_points(d, rows, 8, by="bytes") == rk.split_points(declared, rows, 8, by="bytes")
    part = rk.partial(d, rows)
    assert rk.merge([part]) == rk.analyze(d, rows)
    assert rk.Design.from_rows(d, rows) == declared
    (files / "key-only.json").write_text(json.dumps(key_only))
    parquet = files / "rows.parquet"
    want = json.loads(cli("analyze", files / "key-only.json", "--records", parquet, "--json"))
    got = rk.analyze(rk.Design.from_json((files / "key-only.json").read_text()), pq.read_table(parquet))
    assert _without_format(got)[0] == _without_format(want)[0]
    # what the engine cannot read is still refused at once, where it is
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.Design.from_json({"v": 1, "key": 'device + "'})
    assert e.value.kind == "parse" and e.value.path.startswith("/key")


def test_splits_file_is_the_engines_edge_spaces_as_x20(files, cli):
    # HBase's shell strips each SPLITS_FILE line: a split key's leading or trailing space is
    # written `\x20`, by the one writer the CLI uses too
    keys = [b" b", b"a "]
    text = rk.splits_file(keys)
    assert text == "\\x20b\na\\x20\n"
    assert all(line == line.strip() for line in text.splitlines())
    explicit = dict(
        SALTED, regions={"presplit": {"kind": "explicit", "encoding": "hex", "keys": [k.hex() for k in keys]}}
    )
    (files / "spaced.json").write_text(json.dumps(explicit))
    assert cli("splits", files / "spaced.json") == text
