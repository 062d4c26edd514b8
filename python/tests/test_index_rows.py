"""Phoenix indexes over your own rows (issue 69): ``rk.analyze`` on a file or an Arrow table
counts each global index's table from the rows it reads for the data table, as the CLI's
``analyze --records --json`` does; ``rk.index_keys`` gives every row's key in an index's table,
byte for byte as Phoenix's ``IndexMaintainer`` writes it (worked out here from Phoenix's rules).

The rows are tests/fixtures/phoenix-orders (make.py): 500 orders, 50 in each 10-second window;
BY_TIME is split at every 10 s (orders.sql derives each split point), so every window's 50 index
rows land on one region, 50 on each of its 10."""

import json
import pathlib

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import rowkey_lab as rk

FIX = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "phoenix-orders"
T0 = 1_700_000_000_000


def design() -> rk.Design:
    return rk.Design.from_sql((FIX / "orders.sql").read_text())


def figures(indexes: list) -> list:
    """The indexes without their reports' key samples, the figures to compare."""
    return [{**x, "report": {**x["report"], "sample": None}} if x["report"] else x for x in indexes]


def decimal(v: int) -> bytes:
    """A positive whole number as Phoenix's DECIMAL bytes (``PDecimal``): the exponent byte
    ``c1 + base-100 digits - 1``, each digit plus one, trailing zero digits dropped."""
    digits = []
    while v:
        digits.append(v % 100)
        v //= 100
    digits.reverse()
    exponent = 0xC1 + len(digits) - 1
    while digits and digits[-1] == 0:
        digits.pop()
    return bytes([exponent] + [d + 1 for d in digits])


def salt(rest: bytes, n: int) -> int:
    """Phoenix's salt bucket (``SaltingUtil``): Java's ``h = 31 h + b`` over the signed bytes
    from 1, then ``abs(h % n)`` (Java's remainder keeps the dividend's sign)."""
    h = 1
    for b in rest:
        h = (31 * h + (b - 256 if b > 127 else b)) & 0xFFFFFFFF
    h = h - (1 << 32) if h >= 1 << 31 else h
    return abs(h) % n


def test_analyze_over_a_file_and_a_table_counts_each_index(cli):
    d = design()
    by_file = {f: rk.analyze(d, FIX / f, time="CREATED_AT", windows=10) for f in ("orders.csv", "orders.parquet")}
    table = pq.read_table(FIX / "orders.parquet")
    by_table = rk.analyze(d, table, time="CREATED_AT", windows=10)
    for r in [*by_file.values(), by_table]:
        assert [(x["name"], x["regionsOfItsOwn"]) for x in r["indexes"]] == [
            ("BY_TIME", 10),
            ("BY_CUSTOMER", 8),
            ("BY_TIME_LOCAL", 0),
        ]
        time = r["indexes"][0]["report"]
        assert [g["writes"] for g in time["regions"]] == [50] * 10
        assert [w["busiestShare"] for w in time["metrics"]["perWindow"]] == [1.0] * 10
        assert r["indexes"][2]["report"] is None
    assert figures(by_table["indexes"]) == figures(by_file["orders.csv"]["indexes"])
    # the CLI's --json: the same indexes (the key samples aside: the CLI writes them as rows)
    out = json.loads(
        cli(
            "analyze",
            FIX / "orders.sql",
            "--records",
            FIX / "orders.csv",
            "--time",
            "CREATED_AT",
            "--windows",
            "10",
            "--json",
        )
    )
    assert figures(out["indexes"]) == figures(by_file["orders.csv"]["indexes"])
    # and the reads beside the report, through the indexes too: the engine's one answer
    # (src/analyze/beside.rs), the same dict whole
    beside = ("reads", "readsError", "indexReads", "indexReadsError")
    assert {k: by_file["orders.csv"].get(k) for k in beside} == {k: out.get(k) for k in beside}
    assert out["indexReads"]


def test_index_keys_are_phoenix_s():
    d = design()
    t = pq.read_table(FIX / "orders.parquet")
    ids = [s.encode() for s in t["ORDER_ID"].to_pylist()]
    customers = [s.encode() for s in t["CUSTOMER_ID"].to_pylist()]
    times = t["CREATED_AT"].cast(pa.int64()).to_pylist()
    # BY_TIME: unsalted, the DECIMAL of the time's milliseconds, 00, ORDER_ID
    keys = rk.index_keys(d, t, "BY_TIME").to_pylist()
    assert keys == [decimal(ms) + b"\x00" + o for ms, o in zip(times, ids)]
    # BY_CUSTOMER: the table's 8 salt buckets over CUSTOMER_ID 00 ORDER_ID
    keys = rk.index_keys(d, t, "BY_CUSTOMER").to_pylist()
    assert keys == [bytes([salt(c + b"\x00" + o, 8)]) + c + b"\x00" + o for c, o in zip(customers, ids)]


def test_a_missing_index_column_or_index_is_located():
    d = design()
    # TOTAL as the text it is (the design's DECIMAL field takes decimal text, not a float)
    text = pacsv.ConvertOptions(column_types={"TOTAL": pa.string()})
    t = pacsv.read_csv(FIX / "orders.csv", convert_options=text).drop_columns(["CREATED_AT"])
    with pytest.raises(rk.RowkeyLabError, match="index BY_TIME reads field `CREATED_AT`") as e:
        rk.analyze(d, t, windows=10)
    assert e.value.path == "map/CREATED_AT"
    with pytest.raises(rk.RowkeyLabError, match="no index `NOPE`") as e:
        rk.index_keys(d, t, "NOPE")
    assert e.value.path == "index"
    assert rk.index_keys(d, t, "BY_CUSTOMER").type == pa.binary()
