"""Months of life: the engine's simulation of a design's table, as the CLI's `life --json`."""

import json

import pytest

import rowkey_lab as rk

TIME_LED = {
    "v": 1,
    "fields": [{"name": "ts", "type": "timestamp"}, {"name": "id", "type": "long"}],
    "key": "long(ts) + long(id)",
    "workload": {"records": 20000, "writeRate": 200, "valueSize": 1000},
}


def test_a_time_led_key_with_a_ttl_leaves_empty_regions():
    r = rk.life(TIME_LED, 3, ttl_seconds=30 * 86400)
    months = r["months"]
    assert [m["month"] for m in months] == [1, 2, 3]
    # 200 cells/s of 20 + 16 + 1 + 1 + 1000 bytes: 16.7 GiB a day on one server, a region
    # frozen every few hours; none empty in month 1, more each month after the 30-day TTL
    assert months[0]["regions"] > 100 and months[0]["emptyRegions"] == 0
    assert months[2]["emptyRegions"] > months[1]["emptyRegions"]
    assert r["policy"] == "SteppingSplitPolicy"


def test_life_says_what_the_months_mean_and_what_fixes_them():
    # The engine's diagnosis, as the CLI prints it: the TTL empties the regions the time-led key
    # stopped writing (none in month 1: nothing is past 30 days), the normalizer off keeps them;
    # merging 0 MB regions, simulated, leaves fewer.
    r = rk.life(TIME_LED, 3, ttl_seconds=30 * 86400)
    d = r["diagnosis"]
    first = d["findings"][0]
    assert first["kind"] == "emptyRegions" and first["month"] >= 2
    assert first["figure"] in d["headline"]
    fix = first["fix"]
    assert "merge.min_region_size.mb = 0" in fix["change"]
    assert fix["after"] < fix["before"]


def test_options_and_errors():
    r = rk.life(TIME_LED, 1, servers=4, normalizer=True, options={"seed": 3})
    assert len(r["months"][0]["servers"]) == 4
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.life(TIME_LED, 0)
    assert e.value.path == "/months"


def test_the_split_limit_stops_a_fast_table_and_is_reported():
    fast = dict(TIME_LED, workload=dict(TIME_LED["workload"], writeRate=20000))
    r = rk.life(fast, 2)
    # 1.7 TiB a day on one server: it reaches hbase.regionserver.regionSplitLimit in month 1
    assert r["crossings"]["splitLimit"] == 1
    assert r["months"][1]["regions"] == 1000


def test_two_settings_side_by_side_as_the_page_compares_them():
    a, b = {"months": 2, "ttlSeconds": 30 * 86400}, {"months": 2}
    c = rk.life_compare(TIME_LED, a, b)
    # each side is the simulation of its own settings, as rk.life gives it
    assert [m["emptyRegions"] for m in c["a"]["report"]["months"]] == [
        m["emptyRegions"] for m in rk.life(TIME_LED, options=a)["months"]
    ]
    assert [m["regions"] for m in c["b"]["report"]["months"]] == [m["regions"] for m in rk.life(TIME_LED, 2)["months"]]
    assert c["verdict"] and c["figures"]
    with pytest.raises(rk.RowkeyLabError) as e:
        rk.life_compare(TIME_LED, a, {"months": 0})
    assert "otherOptions" in e.value.path


def test_check_life_names_the_first_month_over_a_budget():
    options = {"months": 3, "ttlSeconds": 30 * 86400}
    empty = [m["emptyRegions"] for m in rk.life(TIME_LED, options=options)["months"]]
    assert empty[0] == 0 and empty[2] > 0
    limit = empty[2] // 2
    first = next(i + 1 for i, n in enumerate(empty) if n > limit)
    r = rk.check_life(TIME_LED, options, max_empty_regions=limit)
    assert r["ok"] is False
    assert r["emptyRegions"]["firstMonthOver"] == first and r["emptyRegions"]["worst"] == max(empty)
    assert rk.check_life(TIME_LED, options, max_empty_regions=max(empty))["ok"] is True


# The user's rows instead of the generated workload (issue 58, item 2): one answer through
# every door. A path and a pyarrow Table of the same rows give the CLI's `life --records`.
def test_life_from_rows_is_the_clis_through_a_path_and_a_table(rows, files, cli):
    design = str(files / "salted.json")
    parquet = files / "rows.parquet"
    args = ("--months", "2", "--servers", "3")
    for time in (None, "ts"):
        clis = json.loads(
            cli("life", design, "--records", parquet, *args, *(("--time", time) if time else ()), "--json")
        )
        by_path = rk.life(design_doc(files), 2, servers=3, data=parquet, time=time)
        by_table = rk.life(design_doc(files), 2, servers=3, data=rows, time=time)
        assert by_path == clis
        assert by_table["months"] == clis["months"]
        note = next(n for n in by_path["notes"] if n.startswith("the user's rows"))
        assert ("in the order of their time column" in note) == (time is not None), note
        assert "all 3000 rows" in note


def design_doc(files):
    return json.loads((files / "salted.json").read_text())


def test_life_from_rows_errors_are_located(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("device,seq,ts\nd1,1,2026-01-01T00:00:00Z\nd2,x,2026-01-01T00:00:01Z\n")
    from conftest import SALTED

    with pytest.raises(rk.RowkeyLabError) as e:
        rk.life(SALTED, 1, data=bad)
    assert "line 3" in str(e.value) and "seq" in str(e.value)
    with pytest.raises(ValueError, match="give data too"):
        rk.life(SALTED, 1, time="ts")


def test_check_life_over_rows_is_the_clis_check_records(rows, files, cli):
    design = str(files / "salted.json")
    parquet = files / "rows.parquet"
    clis = json.loads(
        cli(
            "check",
            design,
            "--records",
            parquet,
            "--months",
            "2",
            "--servers",
            "3",
            "--max-regions-per-server",
            "1000",
            "--lint",
            "off",
            "--max-hotspot",
            "1000",
            "--json",
        )
    )
    got = rk.check_life(design_doc(files), {"months": 2, "servers": 3}, max_regions_per_server=1000, data=parquet)
    assert got == clis["life"]
    # the months of these rows: the same as life over them, judged apart here
    months = rk.life(design_doc(files), 2, servers=3, data=rows)["months"]
    worst = max(max(s["regions"] for s in m["servers"]) for m in months)
    assert got["regionsPerServer"]["worst"] == worst
    assert got["ok"] and worst > 0
