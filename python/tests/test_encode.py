"""rk.encode: byte for byte the CLI's `encode --records`, and a key computed here by hand."""

import hashlib
import struct

import pyarrow as pa
import pyarrow.compute
import pyarrow.parquet as pq
import pytest
from conftest import HASHED, SALTED

import rowkey_lab as rk


def test_encode_is_the_clis_on_the_same_parquet(files, cli):
    for name, doc in (("salted", SALTED), ("hashed", HASHED)):
        want = [
            line.split("\t")[0]
            for line in cli("encode", files / f"{name}.json", "--records", files / "rows.parquet").splitlines()
        ]
        keys = rk.encode(rk.Design.from_json(doc), pq.read_table(files / "rows.parquet"))
        assert keys.type == pa.binary()
        assert [k.hex() for k in keys.to_pylist()] == want


def test_encode_is_the_key_computed_by_hand(rows):
    keys = rk.encode(HASHED, rows).to_pylist()
    max_long = 2**63 - 1
    for key, d, s, t in zip(
        keys, rows["device"].to_pylist(), rows["seq"].to_pylist(), rows["ts"].cast(pa.int64()).to_pylist()
    ):
        want = (
            hashlib.md5(d.encode()).hexdigest()[:4].encode()
            + d.encode()
            + b"#"
            + struct.pack(">q", s)
            + struct.pack(">q", max_long - t)
        )
        assert key == want


def test_any_arrow_source_gives_the_same_keys(rows):
    want = rk.encode(SALTED, rows)
    assert rk.encode(SALTED, rows.to_batches(max_chunksize=700)).equals(want)
    assert rk.encode(SALTED, rows.to_reader(max_chunksize=500)).equals(want)
    assert rk.encode(SALTED, rows.combine_chunks().to_batches()[0]).equals(want)
    # large_string, dictionary and string_view columns read as the same text
    for t in (pa.large_string(), pa.dictionary(pa.int32(), pa.string()), pa.string_view()):
        other = rows.set_column(0, "device", rows["device"].cast(t))
        assert rk.encode(SALTED, other).equals(want), t


def test_nulls_skip_leaves_the_row_out(rows):
    with_null = rows.set_column(0, "device", pa.array([None] + rows["device"].to_pylist()[1:]))
    keys = rk.encode(SALTED, with_null, nulls="skip")
    assert len(keys) == len(rows) - 1
    assert keys.equals(rk.encode(SALTED, rows.slice(1)))


def test_map_reads_a_field_from_another_column(rows):
    renamed = rows.rename_columns(["dev", "seq", "ts", "note"])
    assert rk.encode(SALTED, renamed, map={"device": "dev"}).equals(rk.encode(SALTED, rows))


PHOENIX = """CREATE TABLE METRICS (
    HOST VARCHAR(32) NOT NULL,
    TS DATE NOT NULL,
    VAL DOUBLE,
    CONSTRAINT pk PRIMARY KEY (HOST, TS DESC)
) SALT_BUCKETS = 16;
"""


def test_a_phoenix_create_table_is_a_design(tmp_path, rows, cli):
    t = pa.table({"HOST": rows["device"], "TS": rows["ts"], "VAL": pa.array([1.5] * len(rows))})
    pq.write_table(t, tmp_path / "m.parquet")
    (tmp_path / "m.sql").write_text(PHOENIX)
    design = rk.Design.from_sql(PHOENIX)
    want = [
        line.split("\t")[0]
        for line in cli("encode", tmp_path / "m.sql", "--records", tmp_path / "m.parquet").splitlines()
    ]
    assert [k.hex() for k in rk.encode(design, t).to_pylist()] == want


def test_another_producer_of_the_arrow_stream(rows):
    # DuckDB hands its result over through __arrow_c_stream__ itself (no pyarrow in between)
    duckdb = pytest.importorskip("duckdb", reason="duckdb is not installed")
    rel = duckdb.sql("SELECT device, seq, ts FROM rows WHERE seq < 25")
    assert rk.encode(SALTED, rel).equals(rk.encode(SALTED, rows.filter(pa.compute.less(rows["seq"], 25))))
