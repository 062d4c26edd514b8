//! Dumps as Hadoop's JMX servlet really writes them, and counters that are not counters
//! (issue 56, item 11): a bare `NaN` or `Infinity` is an unknown value, not a reason to refuse
//! the dump; a region counter that is negative, fractional, a string or past 2^64 is left out
//! with a note that names the file, the line and column, the counter and the region.

use crate::common::{fixture_dir, series};

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
