//! Dumps as Hadoop's JMX servlet really writes them, and counters that are not counters
//! (issue 56, item 11): a bare `NaN` or `Infinity` is an unknown value, not a reason to refuse
//! the dump; a region counter that is negative, fractional, a string or past 2^64 is left out
//! with a note that names the file, the line and column, the counter and the region.

use super::common::{fixture_dir, series};

const FILE: &str = "20261126T050100Z-rs1.json";
const READS: &str =
    "\"Namespace_default_table_events_region_b9648a65b8e483aa98e34ec614d0456a_metric_readRequestCount\" : ";

fn scenario() -> Vec<(String, String)> {
    fixture_dir("scenario")
}

/// The scenario with `FILE`'s text changed by `f`.
fn with(f: impl Fn(&str) -> String) -> Vec<(String, String)> {
    let mut files = scenario();
    let i = files.iter().position(|(n, _)| n == FILE).unwrap();
    files[i].1 = f(&files[i].1);
    files
}

#[test]
fn bare_nan_and_infinity_in_a_dump_are_unknown_values() {
    let want = series(&scenario(), None).unwrap();
    let files = with(|t| {
        t.replacen(
            "\"regionCount\" : 2",
            "\"regionCount\" : 2,\n      \"averageRegionSize\" : NaN,\n      \"maxLoad\" : Infinity,\n      \"minLoad\" : -Infinity,\n      \"ratio\" : [NaN, 1e999]",
            1,
        )
    });
    assert!(files.iter().any(|(_, t)| t.contains("NaN")));
    let got = series(&files, None).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got, want);
}

#[test]
fn a_counter_that_is_not_one_is_left_out_with_a_located_note() {
    for (value, said) in [
        ("-5", "-5 (negative)"),
        ("1000.5", "1000.5 (not a whole number)"),
        ("\"1000\"", "a string"),
        ("18446744073709551616", "(past 2^64 − 1)"),
        ("NaN", "NaN (unknown)"),
    ] {
        let files = with(|t| {
            let at = t.find(READS).unwrap() + READS.len();
            let end = at + t[at..].find(',').unwrap();
            format!("{}{value}{}", &t[..at], &t[end..])
        });
        let s = series(&files, None).unwrap_or_else(|e| panic!("{value}: {e}"));
        let note = s
            .notes
            .iter()
            .find(|n| n.starts_with(&format!("{FILE}: 1 region counter(s)")))
            .unwrap_or_else(|| panic!("{value}: no note in {:?}", s.notes));
        assert!(
            note.contains("line 22, column")
                && note.contains("`readRequestCount` of region b9648a65b8e483aa98e34ec614d0456a")
                && note.contains(said),
            "{value}: {note}"
        );
    }
}

#[test]
fn a_series_past_its_bytes_is_refused_before_it_is_read() {
    // 18 snapshots of 60 MiB (one dump padded with spaces, shared: 60 MiB of memory), 1.05 GiB
    // together (issue 56, item 4: 70 dumps of 60 MB took the wasm module past 4 GiB)
    let dump = &scenario()[0].1;
    let padded = format!("{dump}{}", " ".repeat((60 << 20) - dump.len()));
    let input: Vec<rowkey_lab::region::series::SnapshotFile<'_>> = (0..18)
        .map(|_| rowkey_lab::region::series::SnapshotFile {
            name: FILE,
            text: &padded,
            modified_ms: None,
        })
        .collect();
    let started = std::time::Instant::now();
    let e = rowkey_lab::region::series::read_series(&input, None).unwrap_err();
    assert_eq!(e.kind, rowkey_lab::error::ErrorKind::Limit, "{e}");
    assert!(
        e.to_string().contains("1080 MiB of text in 18 files"),
        "{e}"
    );
    assert!(started.elapsed().as_secs() < 2, "refused before reading");
    const _: () = assert!(rowkey_lab::limits::MAX_SERIES_BYTES < 18 * (60 << 20));
}
