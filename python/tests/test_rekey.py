"""rk.rekey (issue 59): the plan on the package's rows is the CLI's on the same rows as a file,
its split keys rk.split_points', its rows per region a count over rk.regions_of of the rows'
new keys."""

from __future__ import annotations

import json
from collections import Counter

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
