"""Bad input: the engine's errors as RowkeyLabError with its kind and where."""

import pyarrow as pa
import pytest
from conftest import SALTED

import rowkey_lab as rk


def test_a_design_error_points_at_its_path():
    bad = dict(SALTED, key="salt(device, 8, as=dec(2)) + nosuch")
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.Design.from_json(bad)
    assert e.value.kind in ("parse", "invalid")
    assert e.value.path is not None and e.value.path.startswith("/key")
    assert e.value.line == 1 and e.value.column is not None
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.Design.from_json("{not json")
    assert e.value.kind == "parse" and e.value.line == 1


def test_a_missing_column_names_the_field(rows):
    with pytest.raises(rk.RowkeyLabError, match="no column `device`") as e:
        rk.encode(SALTED, rows.drop_columns(["device"]))
    assert e.value.kind == "invalid" and e.value.path == "map/device"


def test_a_column_of_the_wrong_type_is_named(rows):
    nested = rows.set_column(1, "seq", pa.array([[1]] * len(rows)))
    with pytest.raises(rk.RowkeyLabError, match="column `seq` is nested") as e:
        rk.analyze(SALTED, nested)
    assert e.value.path == "seq"
    text = rows.set_column(1, "seq", pa.array(["x"] * len(rows)))
    with pytest.raises(rk.RowkeyLabError, match="row 1, column `seq`") as e:
        rk.encode(SALTED, text)
    assert e.value.kind == "invalid"


def test_a_null_in_a_key_field_is_an_error_unless_skipped(rows):
    with_null = rows.set_column(0, "device", pa.array(rows["device"].to_pylist()[:-1] + [None]))
    with pytest.raises(rk.RowkeyLabError, match=f"row {len(rows)}, column `device`: null"):
        rk.analyze(SALTED, with_null)
    assert rk.analyze(SALTED, with_null, nulls="skip")["rows"]["skipped"] == {"device": 1}


def test_not_arrow_data_and_bad_options(rows):
    with pytest.raises(rk.RowkeyLabError, match="expected Arrow data") as e:
        rk.encode(SALTED, {"device": ["a"]})
    assert e.value.path == "source" and e.value.kind == "illegalArgument"
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.analyze(SALTED, rows, options={"windowz": 3})
    assert e.value.path == "options"
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.split_points(SALTED, rows, regions=0)
    assert e.value.kind == "invalid"
    with pytest.raises(ValueError):
        rk.split_points(SALTED, rows, regions=4, by="cells")
    with pytest.raises(rk.RowkeyLabError, match="no rows"):
        rk.analyze(SALTED, rows.slice(0, 0))


def test_errors_are_worded_for_python_not_the_cli(rows):
    # the engine's messages name the CLI's options (--map f=COLUMN) and npm's (`nulls: skip`);
    # the package's name its own keyword arguments
    key_only = {"v": 1, "key": 'device + "#" + str(seq)'}
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.encode(key_only, rows.drop_columns(["device"]))
    assert 'map={"device": "COLUMN"}' in str(e.value) and "data has no column `device`" in str(e.value)
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.Design.from_rows(key_only, rows.set_column(0, "device", pa.array([[1]] * len(rows))))
    assert "(map=)" in str(e.value)
    with_null = rows.set_column(0, "device", pa.array([None] + rows["device"].to_pylist()[1:]))
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.encode(SALTED, with_null)
    assert 'nulls="skip"' in str(e.value) and str(e.value).startswith("data: row 1, column `device`")
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.analyze(SALTED, rows, time="nope")
    assert "no time column `nope` in the data" in str(e.value) and e.value.path == "time"
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.encode(SALTED, rows, nulls="sometimes")
    assert e.value.path == "nulls" and str(e.value).startswith("nulls: unknown variant `sometimes`")
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.analyze(SALTED, rows, epoch="weeks")
    assert e.value.path == "epoch" and "line 1" not in str(e.value)
    for f in (
        lambda: rk.encode(key_only, rows.drop_columns(["device"])),
        lambda: rk.encode(SALTED, with_null),
        lambda: rk.analyze(SALTED, rows, time="nope"),
    ):
        with pytest.raises(rk.RowkeyLabError) as e:
            f()
        assert "--" not in str(e.value) and "--" not in e.value.reason
